#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A failure to read or write a file, with the system's reason.
struct IOFailure: Error, CustomStringConvertible {
    /// What was being done, such as `cannot open bench-data/x.json`.
    var action: String
    /// The `errno` text, such as `No such file or directory`.
    var reason: String

    init(_ action: String, errno code: Int32) {
        self.action = action
        self.reason = String(cString: strerror(code))
    }

    init(_ action: String, reason: String) {
        self.action = action
        self.reason = reason
    }

    var description: String { "\(action): \(reason)" }
}

/// Where a command reads a document from: a path, or standard input when the argument is `-`.
enum InputSource: Equatable {
    case standardInput
    case file(String)

    init(argument: String) {
        self = argument == "-" ? .standardInput : .file(argument)
    }

    /// How the source is named in diagnostics and reports.
    var displayName: String {
        switch self {
        case .standardInput: "-"
        case .file(let path): path
        }
    }

    /// Reads the whole input into one array, allocated once when the size is known.
    func readAll() throws(IOFailure) -> [UInt8] {
        switch self {
        case .standardInput:
            return try FileDescriptor.standardInput.readToEnd(name: "standard input")
        case .file(let path):
            let file = try FileDescriptor.open(path)
            defer { file.close() }
            return try file.readToEnd(name: path)
        }
    }
}

/// A thin wrapper over a POSIX file descriptor: `read(2)` and `write(2)` with their retry rules.
struct FileDescriptor {
    let rawValue: Int32

    static let standardInput = FileDescriptor(rawValue: 0)
    static let standardOutput = FileDescriptor(rawValue: 1)
    static let standardError = FileDescriptor(rawValue: 2)

    /// Size of each `read(2)` when the total is unknown (pipes, terminals), and of stdin chunks.
    static let chunkSize = 64 << 10

    /// Opens `path` for reading; directories are refused here rather than failing at `read`.
    static func open(_ path: String) throws(IOFailure) -> FileDescriptor {
        let fd = path.withCString { systemOpen($0, O_RDONLY | O_CLOEXEC, 0) }
        guard fd >= 0 else { throw IOFailure("cannot open \(path)", errno: errno) }
        let file = FileDescriptor(rawValue: fd)
        if file.isDirectory {
            file.close()
            throw IOFailure("cannot read \(path)", errno: EISDIR)
        }
        return file
    }

    /// Creates (or truncates) `path` for writing.
    static func create(_ path: String) throws(IOFailure) -> FileDescriptor {
        let fd = path.withCString { systemOpen($0, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644) }
        guard fd >= 0 else { throw IOFailure("cannot create \(path)", errno: errno) }
        return FileDescriptor(rawValue: fd)
    }

    func close() { _ = systemClose(rawValue) }

    private func status() -> stat? {
        var info = stat()
        return fstat(rawValue, &info) == 0 ? info : nil
    }

    private var isDirectory: Bool {
        guard let info = status() else { return false }
        return info.st_mode & S_IFMT == S_IFDIR
    }

    /// The size of a regular file, or nil for pipes, terminals and sockets, whose size is unknown.
    var regularFileSize: Int? {
        guard let info = status(), info.st_mode & S_IFMT == S_IFREG else { return nil }
        return Int(info.st_size)
    }

    /// Reads up to `count` bytes into `buffer`, retrying on `EINTR`. Returns 0 at end of file.
    func read(into buffer: UnsafeMutableRawBufferPointer, name: String) throws(IOFailure) -> Int {
        guard let base = buffer.baseAddress, buffer.count > 0 else { return 0 }
        while true {
            let count = systemRead(rawValue, base, buffer.count)
            if count >= 0 { return count }
            if errno != EINTR { throw IOFailure("cannot read \(name)", errno: errno) }
        }
    }

    /// Reads everything that is left. A regular file is read into an array of exactly its size
    /// with as few `read(2)` calls as the kernel allows; anything else grows in 64 KiB steps.
    func readToEnd(name: String) throws(IOFailure) -> [UInt8] {
        let expected = regularFileSize ?? 0
        var failure: IOFailure?
        var bytes = [UInt8](unsafeUninitializedCapacity: expected) { buffer, initialized in
            do throws(IOFailure) {
                while initialized < buffer.count {
                    let slice = UnsafeMutableRawBufferPointer(
                        UnsafeMutableBufferPointer(rebasing: buffer[initialized...]))
                    let count = try read(into: slice, name: name)
                    if count == 0 { break }
                    initialized += count
                }
            } catch {
                failure = error
            }
        }
        if let failure { throw failure }
        // The file may have grown since `fstat`, and pipes report no size at all.
        let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: Self.chunkSize, alignment: 16)
        defer { chunk.deallocate() }
        while true {
            let count = try read(into: chunk, name: name)
            if count == 0 { break }
            bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: chunk[..<count]))
        }
        return bytes
    }

    /// Calls `body` with each chunk read (at most ``chunkSize`` bytes) until end of input or
    /// until `body` returns false.
    func forEachChunk(
        name: String, _ body: (UnsafeRawBufferPointer) throws -> Bool
    ) throws {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: Self.chunkSize, alignment: 16)
        defer { buffer.deallocate() }
        while true {
            let count = try read(into: buffer, name: name)
            if count == 0 { return }
            guard try body(UnsafeRawBufferPointer(rebasing: buffer[..<count])) else { return }
        }
    }

    /// Writes all of `bytes`, retrying on `EINTR` and short writes.
    func write(_ bytes: UnsafeRawBufferPointer, name: String) throws(IOFailure) {
        guard var next = bytes.baseAddress else { return }
        var remaining = bytes.count
        while remaining > 0 {
            let count = systemWrite(rawValue, next, remaining)
            if count < 0 {
                if errno == EINTR { continue }
                throw IOFailure("cannot write \(name)", errno: errno)
            }
            next += count
            remaining -= count
        }
    }
}

/// Text output to standard output or standard error, written straight to the descriptor so it
/// interleaves correctly with the binary output of `generate`.
struct Console {
    let file: FileDescriptor

    static let standardOutput = Console(file: .standardOutput)
    static let standardError = Console(file: .standardError)

    /// Writes `text` as is (no newline added). A closed or full stream is ignored: there is
    /// nowhere left to report it.
    func write(_ text: String) {
        var text = text
        text.withUTF8 { utf8 in
            try? file.write(UnsafeRawBufferPointer(utf8), name: "output")
        }
    }

    /// Writes `line` and a newline.
    func line(_ line: String = "") {
        write(line + "\n")
    }
}

/// Output gathered in memory and written to a descriptor in large blocks: for commands that
/// print a line per part of a large document, where one `write(2)` per line would cost more than
/// the parse.
struct BufferedOutput {
    let file: FileDescriptor
    /// How the output is named in errors.
    let name: String
    /// Bytes gathered before a write.
    let blockSize: Int
    private var buffer: [UInt8] = []

    init(_ file: FileDescriptor, name: String, blockSize: Int = 256 << 10) {
        self.file = file
        self.name = name
        self.blockSize = max(1, blockSize)
        buffer.reserveCapacity(self.blockSize + 4096)
    }

    /// Appends `bytes` and then a newline; writes the block when it is full.
    mutating func line(_ bytes: [UInt8]) throws(IOFailure) {
        buffer.append(contentsOf: bytes)
        buffer.append(UInt8(ascii: "\n"))
        if buffer.count >= blockSize { try flush() }
    }

    /// Writes everything gathered.
    mutating func flush() throws(IOFailure) {
        guard !buffer.isEmpty else { return }
        // A typed-throws closure through `withUnsafeBytes` crashes Swift 6.3.1's IR generation;
        // the failure is carried out by hand.
        var failure: IOFailure?
        buffer.withUnsafeBytes { bytes in
            do throws(IOFailure) {
                try file.write(bytes, name: name)
            } catch {
                failure = error
            }
        }
        buffer.removeAll(keepingCapacity: true)
        if let failure { throw failure }
    }
}

// The members of `FileDescriptor` shadow the C functions of the same names; these reach them.
private func systemOpen(_ path: UnsafePointer<CChar>, _ flags: Int32, _ mode: mode_t) -> Int32 {
    open(path, flags, mode)
}
private func systemClose(_ fd: Int32) -> Int32 { close(fd) }
private func systemRead(_ fd: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int { read(fd, buffer, count) }
private func systemWrite(_ fd: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int { write(fd, buffer, count) }
