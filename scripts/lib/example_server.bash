# Shared by scripts/demo and scripts/loadtest: building and running the example service
# (`jsonapi-example-server`) on a free loopback port. Source it after scripts/lib/common.bash.
#
# Environment:
#   EXAMPLE_SERVER_BIN  use this jsonapi-example-server binary instead of building one

# Builds the release example server and sets EXAMPLE_SERVER_BIN (unless already set).
build_release_example_server() {
    if [[ -n ${EXAMPLE_SERVER_BIN:-} ]]; then
        [[ -x $EXAMPLE_SERVER_BIN ]] || die "EXAMPLE_SERVER_BIN=$EXAMPLE_SERVER_BIN is not an executable"
        return
    fi
    log "swift build -c release --enable-all-traits --product jsonapi-example-server"
    swift build -c release --enable-all-traits --product jsonapi-example-server --scratch-path "$scratch_path" >&2
    EXAMPLE_SERVER_BIN="$(swift build -c release --enable-all-traits --scratch-path "$scratch_path" \
        --show-bin-path)/jsonapi-example-server"
    [[ -x $EXAMPLE_SERVER_BIN ]] || die "the release build did not produce $EXAMPLE_SERVER_BIN"
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
