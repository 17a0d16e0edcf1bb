# Shared by scripts/test, scripts/demo and scripts/conformance: logging, installing what a
# fresh Debian machine with the Swift toolchain lacks, and building the release `jsonapi`.
# Source it after `cd`-ing to the repository root.
#
# Environment:
#   JSONAPI_SCRATCH_PATH  SwiftPM build directory (default: .build)
#   BENCH_SCRATCH_PATH    build directory of the benchmarks' package, Benchmarks/Package.swift
#                         (default: .build-bench)
#   JSONAPI_BIN           use this jsonapi binary instead of building one (conformance, demo)

# Prints a step heading to standard error with the time of day, so that a CI log shows where its
# minutes went (the scripts that scripts/test runs print theirs on the same clock).
log() {
    printf '\n==> [%s] %s\n' "$(date +%H:%M:%S)" "$*" >&2
}

die() {
    printf '%s: error: %s\n' "${0##*/}" "$*" >&2
    exit 1
}

scratch_path=${JSONAPI_SCRATCH_PATH:-.build}
# The benchmarks are a package of their own (Benchmarks/Package.swift); every script that builds
# or runs them passes these options to `swift build` and `swift package`.
bench_package_options=(--package-path Benchmarks --scratch-path "$(realpath -m "${BENCH_SCRATCH_PATH:-.build-bench}")")

# Builds one executable of the benchmarks' package in release and prints its path.
#
# With the flags and environment of the benchmark plugin's own release build (scripts/bench-gate
# runs it with --disable-sandbox and SWIFT_DETERMINISTIC_HASHING=1), so that the two share every
# compiled module: SwiftPM passes --disable-sandbox on to each compile command, and writes the
# package traits' -D flags in an order that follows its hashing. With other flags, each build
# plans anew and compiles the library again.
build_bench_product() { # PRODUCT
    log "swift build -c release --package-path Benchmarks --product $1"
    SWIFT_DETERMINISTIC_HASHING=1 swift build -c release --disable-sandbox "${bench_package_options[@]}" \
        --product "$1" >&2
    local bin
    bin="$(SWIFT_DETERMINISTIC_HASHING=1 swift build -c release --disable-sandbox "${bench_package_options[@]}" \
        --show-bin-path)/$1"
    [[ -x $bin ]] || die "the release build did not produce $bin"
    printf '%s\n' "$bin"
}

apt_updated=false
apt_install() {
    if [[ $(id -u) -ne 0 ]]; then
        if command -v sudo >/dev/null; then
            sudo_cmd=(sudo)
        else
            die "need root (or sudo) to install: $*"
        fi
    else
        sudo_cmd=()
    fi
    if [[ $apt_updated == false ]]; then
        log "apt-get update"
        "${sudo_cmd[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -q >&2
        apt_updated=true
    fi
    log "apt-get install $*"
    "${sudo_cmd[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "$@" >&2
}

# Installs what the build and the scripts need: pkg-config and libyajl-dev (the yajl backend)
# and python3 (conformance). The Swift toolchain itself must already be there.
ensure_prerequisites() {
    command -v swift >/dev/null || die "the Swift toolchain (swift) is not on PATH"
    local missing=()
    command -v pkg-config >/dev/null || missing+=(pkg-config)
    if ! pkg-config --exists yajl 2>/dev/null || [[ ! -f /usr/include/yajl/yajl_parse.h ]]; then
        missing+=(libyajl-dev)
    fi
    command -v python3 >/dev/null || missing+=(python3)
    if ((${#missing[@]} > 0)); then
        apt_install "${missing[@]}"
    fi
}

# Builds the release `jsonapi` and sets JSONAPI_BIN to it (unless JSONAPI_BIN is already set).
build_release_cli() {
    if [[ -n ${JSONAPI_BIN:-} ]]; then
        [[ -x $JSONAPI_BIN ]] || die "JSONAPI_BIN=$JSONAPI_BIN is not an executable"
        return
    fi
    log "swift build -c release --enable-all-traits --product jsonapi"
    swift build -c release --enable-all-traits --product jsonapi --scratch-path "$scratch_path" >&2
    JSONAPI_BIN="$(swift build -c release --enable-all-traits --scratch-path "$scratch_path" --show-bin-path)/jsonapi"
    [[ -x $JSONAPI_BIN ]] || die "the release build did not produce $JSONAPI_BIN"
}

# Prints the commit a benchmark measures, for its report: the short hash of HEAD, marked
# "(with uncommitted changes)" when the work tree differs from it. What the benchmark scripts
# write themselves (the report and the README's summary table) does not count as a change.
measured_commit() {
    local commit
    commit=$(git rev-parse --short=12 HEAD 2>/dev/null || echo unknown)
    if [[ -n $(git status --porcelain -- . ':!Benchmarks/RESULTS.md' ':!README.md' 2>/dev/null) ]]; then
        commit+=" (with uncommitted changes)"
    fi
    printf '%s\n' "$commit"
}
