# PostgreSQL servers of the tests' own, for scripts/test and the SQL tests: Debian's postgresql
# (installed when missing), each a new cluster in a temporary directory, run as the `postgres`
# user (PostgreSQL refuses to run as root), on 127.0.0.1 and a port of its own, with trust
# authentication for local connections only. Source it after scripts/lib/common.bash.
#
#   postgres_start   starts two and exports
#                      JSONAPI_TEST_POSTGRES            host:port of the one the tests share
#                                                       (each test in a schema of its own)
#                      JSONAPI_TEST_POSTGRES_STOPPABLE  host:port of one a test stops mid-run
#                      JSONAPI_TEST_POSTGRES_STOPPABLE_CTL  the command that stops (`stop`) and
#                                                       starts (`start`) it
#   postgres_stop    stops them and removes their directories
#
# Environment: JSONAPI_TEST_POSTGRES_PORT (default 55432; the stoppable one takes the next port).

postgres_bin() {
    local dir
    dir=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
    [[ -n $dir && -x $dir/pg_ctl ]] && printf '%s\n' "$dir"
}

postgres_dirs=()

# postgres_cluster PORT: initialises and starts a cluster on PORT; prints its directory, whose
# `ctl` script takes `stop` or `start`.
postgres_cluster() {
    local port=$1 bin dir data
    bin=$(postgres_bin) || die "no pg_ctl after installing postgresql"
    dir=$(mktemp -d "${TMPDIR:-/tmp}/jsonapi-postgres.XXXXXX")
    data=$dir/data
    chmod 755 "$dir"
    local as_postgres=()
    if [[ $(id -u) -eq 0 ]]; then
        chown postgres "$dir"
        as_postgres=(runuser -u postgres --)
    fi
    "${as_postgres[@]}" "$bin/initdb" -D "$data" -A trust -U postgres --no-sync >"$dir/initdb.log" 2>&1 ||
        { cat "$dir/initdb.log" >&2; die "initdb failed"; }
    cat >>"$data/postgresql.conf" <<CONF
listen_addresses = '127.0.0.1'
port = $port
unix_socket_directories = '$dir'
fsync = off
synchronous_commit = off
full_page_writes = off
max_connections = 200
CONF
    # The server started by \`ctl start\` must not keep a descriptor of its caller's (a test
    # process waits for EOF on one to learn that the command ended): all but 0-2 are closed.
    cat >"$dir/ctl" <<CTL
#!/usr/bin/env bash
for fd in /proc/\$\$/fd/*; do
    fd=\${fd##*/}
    if [[ \$fd =~ ^[0-9]+\$ ]] && ((fd > 2)); then eval "exec \$fd>&-" 2>/dev/null; fi
done
if [[ \$1 == stop ]]; then mode=(-m fast); else mode=(); fi
exec ${as_postgres[*]} "$bin/pg_ctl" -D "$data" -l "$dir/server.log" -w -t 30 "\$1" "\${mode[@]}" </dev/null >/dev/null 2>&1
CTL
    chmod 755 "$dir/ctl"
    "$dir/ctl" start >/dev/null || { cat "$dir/server.log" >&2; die "PostgreSQL did not start on port $port"; }
    printf '%s\n' "$dir"
}

# The first port from START on that is free on 127.0.0.1 with the one after it: a cluster left
# running by something else (another run, a developer's) is stepped over, not fought.
postgres_free_ports() { # START
    python3 - "$1" <<'PYTHON'
import socket, sys
port = int(sys.argv[1])
def free(candidate):
    probe = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    try:
        probe.bind(("127.0.0.1", candidate))
        return True
    except OSError:
        return False
    finally:
        probe.close()
while port < 65000 and not (free(port) and free(port + 1)):
    port += 2
print(port)
PYTHON
}

postgres_start() {
    [[ -n $(postgres_bin) ]] || apt_install postgresql
    # JSONAPI_TEST_POSTGRES_PORT chooses the ports; otherwise the first free pair from 55432.
    local port=${JSONAPI_TEST_POSTGRES_PORT:-$(postgres_free_ports 55432)} shared stoppable
    log "PostgreSQL: two clusters, on 127.0.0.1:$port and :$((port + 1))"
    shared=$(postgres_cluster "$port")
    postgres_dirs+=("$shared")
    stoppable=$(postgres_cluster "$((port + 1))")
    postgres_dirs+=("$stoppable")
    export JSONAPI_TEST_POSTGRES="127.0.0.1:$port"
    export JSONAPI_TEST_POSTGRES_STOPPABLE="127.0.0.1:$((port + 1))"
    export JSONAPI_TEST_POSTGRES_STOPPABLE_CTL="$stoppable/ctl"
}

postgres_stop() {
    local dir
    for dir in "${postgres_dirs[@]}"; do
        "$dir/ctl" stop >/dev/null 2>&1 || true
        rm -rf "$dir"
    done
    postgres_dirs=()
}
