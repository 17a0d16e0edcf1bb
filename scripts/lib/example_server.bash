# Shared by scripts/demo and scripts/loadtest: building and running the example service
# (`jsonapi-example-server`) on a free loopback port. Source it after scripts/lib/common.bash.
#
# Environment:
#   EXAMPLE_SERVER_BIN  use this jsonapi-example-server binary instead of building one

# build_example_server CONFIGURATION TRAIT-OPTION: builds the example server (debug or release;
# `--traits Hummingbird` for one front, `--enable-all-traits` for both) and sets
# EXAMPLE_SERVER_BIN, unless it is already set.
build_example_server() {
    local configuration=$1 traits=$2
    if [[ -n ${EXAMPLE_SERVER_BIN:-} ]]; then
        [[ -x $EXAMPLE_SERVER_BIN ]] || die "EXAMPLE_SERVER_BIN=$EXAMPLE_SERVER_BIN is not an executable"
        return
    fi
    local options=(-c "$configuration" --scratch-path "$scratch_path")
    if [[ $traits == --enable-all-traits ]]; then
        options+=(--enable-all-traits)
    else
        options+=(--traits "$traits")
    fi
    log "swift build ${options[*]} --product jsonapi-example-server"
    swift build "${options[@]}" --product jsonapi-example-server >&2
    EXAMPLE_SERVER_BIN="$(swift build "${options[@]}" --show-bin-path)/jsonapi-example-server"
    [[ -x $EXAMPLE_SERVER_BIN ]] || die "the build did not produce $EXAMPLE_SERVER_BIN"
}

# Builds the release example server with both fronts (for measurements) and sets EXAMPLE_SERVER_BIN.
build_release_example_server() {
    build_example_server release --enable-all-traits
}

# A free TCP port on 127.0.0.1.
free_port() {
    python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()'
}

# start_example_server FRAMEWORK [ARGS...]: starts the server on a free port, waits until it
# answers, and sets EXAMPLE_SERVER_PID and EXAMPLE_SERVER_URL. Its output goes to
# EXAMPLE_SERVER_LOG (a file; default /dev/null).
start_example_server() {
    local framework=$1
    shift
    local port
    port=$(free_port)
    "$EXAMPLE_SERVER_BIN" --framework "$framework" --port "$port" "$@" >"${EXAMPLE_SERVER_LOG:-/dev/null}" 2>&1 &
    EXAMPLE_SERVER_PID=$!
    EXAMPLE_SERVER_URL="http://127.0.0.1:$port"
    local waited=0
    until curl -s -o /dev/null "$EXAMPLE_SERVER_URL/tags"; do
        kill -0 "$EXAMPLE_SERVER_PID" 2>/dev/null || die "jsonapi-example-server ($framework) exited at start"
        ((waited++ < 200)) || die "jsonapi-example-server ($framework) did not answer within 20 s"
        sleep 0.1
    done
}

# Stops the server started last (SIGTERM, then waits for it).
stop_example_server() {
    [[ -n ${EXAMPLE_SERVER_PID:-} ]] || return 0
    kill "$EXAMPLE_SERVER_PID" 2>/dev/null || true
    wait "$EXAMPLE_SERVER_PID" 2>/dev/null || true
    EXAMPLE_SERVER_PID=
}
