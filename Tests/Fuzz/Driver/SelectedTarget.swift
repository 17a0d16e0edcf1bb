import JSONAPIFuzzChecks

/// The target the first command-line argument names (`jsonapi-fuzz chunked ...`), read once
/// before any input is run.
let selectedTarget: FuzzTarget? = CommandLine.arguments.dropFirst().first.flatMap(FuzzTarget.init(rawValue:))

/// Runs `target`'s check on one input and traps when an invariant is broken, so that libFuzzer
/// records the input as a crash.
func runOne(_ target: FuzzTarget, _ bytes: [UInt8]) {
    do {
        try target.check(bytes)
    } catch {
        fatalError("jsonapi-fuzz \(target.rawValue): \(error)")
    }
}

let usage = """
    usage: jsonapi-fuzz TARGET [libFuzzer options] [CORPUS_DIR...]   (built with -DJSONAPI_LIBFUZZER)
           jsonapi-fuzz TARGET FILE_OR_DIR...                        (any other build: replays the inputs)
    targets: \(FuzzTarget.allCases.map(\.rawValue).joined(separator: ", "))
    """
