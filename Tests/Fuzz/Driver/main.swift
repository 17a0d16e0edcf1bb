// The fuzzing driver. Built with `-Xswiftc -DJSONAPI_LIBFUZZER -Xswiftc -sanitize=fuzzer,address`
// (scripts/fuzz), it hands the chosen target to libFuzzer; in the ordinary debug build it only
// replays the files it is given, so it always compiles and links without the fuzzer runtime.
import JSONAPIFuzzChecks

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

guard let target = selectedTarget else {
    print(usage)
    exit(2)
}

#if JSONAPI_LIBFUZZER
    /// libFuzzer's entry point for a program with its own `main` (`libclang_rt.fuzzer`).
    @_silgen_name("LLVMFuzzerRunDriver")
    func LLVMFuzzerRunDriver(
        _ argc: UnsafeMutablePointer<CInt>,
        _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
        _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
    ) -> CInt

    // libFuzzer reads its own options from argv: pass it every argument but the target's name.
    // The strings stay where the C runtime put them; only the array of pointers is new.
    var arguments = UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>.allocate(capacity: Int(CommandLine.argc))
    arguments[0] = CommandLine.unsafeArgv[0]
    for index in 2..<Int(CommandLine.argc) {
        arguments[index - 1] = CommandLine.unsafeArgv[index]
    }
    arguments[Int(CommandLine.argc) - 1] = nil
    var argc = CommandLine.argc - 1
    var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = arguments
    let status = LLVMFuzzerRunDriver(&argc, &argv) { data, size in
        guard let target = selectedTarget else { return -1 }
        let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
        runOne(target, bytes)
        return 0
    }
    exit(status)
#else
    // Replays files, or every file in the folders given; a broken invariant traps in `runOne`.
    var inputs: [URL] = []
    for path in CommandLine.arguments.dropFirst(2) {
        let url = URL(fileURLWithPath: path)
        if let names = try? FileManager.default.contentsOfDirectory(atPath: path) {
            inputs += names.sorted().filter { !$0.hasPrefix(".") }.map { url.appendingPathComponent($0) }
        } else {
            inputs.append(url)
        }
    }
    for input in inputs {
        guard let data = try? Data(contentsOf: input) else {
            print("jsonapi-fuzz: cannot read \(input.path)")
            exit(2)
        }
        runOne(target, [UInt8](data))
        print("ok \(input.path)")
    }
    print("jsonapi-fuzz \(target.rawValue): \(inputs.count) inputs replayed")
#endif
