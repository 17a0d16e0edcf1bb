import Foundation
import JSONAPIGenerator

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

// A large compound JSON:API response fetched over loopback and decoded into typed models, one
// way per run; scripts/client-bench runs the server once and each variant in fresh processes.

/// Writes `message` to standard error.
func printError(_ message: String) {
    FileHandle.standardError.write(Data((message + "\n").utf8))
}

/// The generator the server serves for `bytes` and `seed`, and the fetcher checks against.
func generator(bytes: Int, seed: UInt64) -> CompoundDocumentGenerator {
    CompoundDocumentGenerator(resources: CompoundDocumentGenerator.resourceCount(approximateBytes: bytes), seed: seed)
}

let command: Command
do {
    command = try Command(Array(CommandLine.arguments.dropFirst()))
} catch {
    printError("jsonapi-client-benchmark: \(error)\n\n\(usage)")
    exit(2)
}

switch command {
case .serve(let bytes, let seed):
    do {
        try BenchmarkServer.run(generator: generator(bytes: bytes, seed: seed))
    } catch {
        printError("jsonapi-client-benchmark serve: \(error)")
        exit(1)
    }
case .fetch(let url, let variant, let bytes, let seed):
    do {
        let result = try await variant.run(url: url, expecting: generator(bytes: bytes, seed: seed))
        print(result.line)
    } catch {
        printError("jsonapi-client-benchmark fetch \(variant.rawValue): \(error)")
        exit(1)
    }
}
