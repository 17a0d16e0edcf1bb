import Dispatch
import JSONAPI

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A minimal HTTP/1.1 client over a plain loopback TCP socket, for talking to a server the way
/// any client does, including ways a framework's own test client cannot: a chunked body sent in
/// pieces, a body shorter than its `Content-Length`, a request cut off mid-body.
///
/// Each request opens its own connection (`Connection: close`) and reads the answer to EOF. The
/// blocking socket work runs on a Dispatch thread, never on the Swift concurrency pool the
/// server under test needs, and every read and write times out.
enum LoopbackHTTP {
    struct Response: Sendable {
        var status: Int
        var headers: [(name: String, value: String)]
        var body: [UInt8]

        func header(_ name: String) -> String? {
            headers.first { $0.name.lowercased() == name.lowercased() }?.value
        }
        var text: String { String(decoding: body, as: UTF8.self) }
    }

    enum Body: Sendable {
        /// No body.
        case none
        /// The bytes with a matching `Content-Length`.
        case bytes([UInt8])
        /// `Transfer-Encoding: chunked`, one chunk per element, sent one write at a time.
        case chunked([[UInt8]])
        /// `Content-Length: declared` but only `bytes` sent, then the write side is shut.
        case short(declared: Int, bytes: [UInt8])
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// Sends one request to 127.0.0.1:`port`; nil when the server closed the connection without
    /// an answer.
    static func send(
        port: Int, _ method: String, _ target: String, headers: [(String, String)] = [], body: Body = .none
    ) async throws -> Response? {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(
                    with: Result { try exchange(port: port, method, target, headers: headers, body: body) })
            }
        }
    }

    /// Sends a request whose body is `text` (with `Content-Type` when given).
    static func send(
        port: Int, _ method: String, _ target: String, text: String?, contentType: String? = nil,
        accept: String? = nil
    ) async throws -> Response? {
        var headers: [(String, String)] = []
        if let contentType, text != nil { headers.append(("Content-Type", contentType)) }
        if let accept { headers.append(("Accept", accept)) }
        return try await send(
            port: port, method, target, headers: headers, body: text.map { .bytes(Array($0.utf8)) } ?? .none)
    }

    private static func exchange(
        port: Int, _ method: String, _ target: String, headers: [(String, String)], body: Body
    ) throws -> Response? {
        // Only a guard against a hung server: the whole suite runs in parallel on as few as two
        // cores (the client's 100 MB responses included), where an answer can take many seconds.
        let socket = try connect(port: port, receiveTimeout: 90, sendTimeout: 90)
        defer { close(socket) }
        var head = "\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        switch body {
        case .none: break
        case .bytes(let bytes): head += "Content-Length: \(bytes.count)\r\n"
        case .chunked: head += "Transfer-Encoding: chunked\r\n"
        case .short(let declared, _): head += "Content-Length: \(declared)\r\n"
        }
        head += "\r\n"
        // A server may answer (413, 415) and close before the whole body is written: a failed
        // write is not an error of the exchange, the answer is what counts.
        var writable = write(socket, Array(head.utf8))
        switch body {
        case .none: break
        case .bytes(let bytes): writable = writable && write(socket, bytes)
        case .chunked(let chunks):
            for (index, chunk) in chunks.enumerated() where writable {
                writable = write(socket, Array("\(String(chunk.count, radix: 16))\r\n".utf8) + chunk + [13, 10])
                // The first chunks go out as separate TCP segments, so the server sees separate
                // buffers; the rest as fast as the socket takes them.
                if index < 16 { usleep(2_000) }
            }
            if writable { _ = write(socket, Array("0\r\n\r\n".utf8)) }
        case .short(_, let bytes):
            if writable { _ = write(socket, bytes) }
            shutdown(socket, Int32(SHUT_WR))
        }
        let received = try readAll(socket)
        if received.isEmpty { return nil }
        return try parse(received, bodiless: method == "HEAD")
    }

    /// A blocking socket connected to 127.0.0.1:`port`, whose reads give up after
    /// `receiveTimeout` seconds (none when `nil`) and writes after `sendTimeout`.
    static func connect(port: Int, receiveTimeout: Int?, sendTimeout: Int) throws -> Int32 {
        #if canImport(Glibc)
            let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
            let socket = Darwin.socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard socket >= 0 else { throw Failure(description: "socket() failed: errno \(errno)") }
        if let receiveTimeout {
            var timeout = timeval(tv_sec: receiveTimeout, tv_usec: 0)
            _ = setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        }
        var timeout = timeval(tv_sec: sendTimeout, tv_usec: 0)
        _ = setsockopt(socket, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        #if canImport(Darwin)
            var one: Int32 = 1
            _ = setsockopt(socket, SOL_SOCKET, SO_NOSIGPIPE, &one, socklen_t(MemoryLayout<Int32>.size))
        #endif
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr = in_addr(s_addr: UInt32(0x7f00_0001).bigEndian)
        let connected = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { sockaddrPointer in
                #if canImport(Glibc)
                    Glibc.connect(socket, sockaddrPointer, socklen_t(MemoryLayout<sockaddr_in>.size))
                #else
                    Darwin.connect(socket, sockaddrPointer, socklen_t(MemoryLayout<sockaddr_in>.size))
                #endif
            }
        }
        guard connected == 0 else {
            close(socket)
            throw Failure(description: "connect to 127.0.0.1:\(port) failed: errno \(errno)")
        }
        return socket
    }

    /// Sends all of `bytes`; false when the peer closed or a write timed out.
    static func write(_ socket: Int32, _ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { buffer in
                #if canImport(Glibc)
                    Glibc.send(socket, buffer.baseAddress, buffer.count, Int32(MSG_NOSIGNAL))
                #else
                    Darwin.send(socket, buffer.baseAddress, buffer.count, 0)
                #endif
            }
            if written <= 0 { return false }
            offset += written
        }
        return true
    }

    private static func readAll(_ socket: Int32) throws -> [UInt8] {
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
            if count > 0 {
                received += buffer[0..<count]
            } else if count == 0 {
                return received
            } else if errno == ECONNRESET {
                return received
            } else {
                throw Failure(description: "recv failed: errno \(errno) after \(received.count) bytes")
            }
        }
    }

    /// Parses a whole HTTP/1.1 response (`Content-Length`, chunked, or to EOF).
    /// Parses one response; a `bodiless` one (the answer to `HEAD`) has no body whatever its
    /// head says (RFC 9110 §9.3.2).
    static func parse(_ bytes: [UInt8], bodiless: Bool = false) throws -> Response {
        let separator: [UInt8] = [13, 10, 13, 10]
        guard let end = bytes.firstRange(of: separator) else {
            throw Failure(description: "no end of headers in \(bytes.count) bytes")
        }
        let lines = String(decoding: bytes[..<end.lowerBound], as: UTF8.self).split(separator: "\r\n")
        guard let statusLine = lines.first, statusLine.hasPrefix("HTTP/1.1 ") || statusLine.hasPrefix("HTTP/1.0 "),
            let status = Int(statusLine.dropFirst(9).prefix(3))
        else { throw Failure(description: "bad status line") }
        var headers: [(name: String, value: String)] = []
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers.append(
                (
                    String(line[..<colon]),
                    String(line[line.index(after: colon)...].drop { $0 == " " })
                ))
        }
        var response = Response(status: status, headers: headers, body: Array(bytes[end.upperBound...]))
        if bodiless {
            // Not even a chunked body's last chunk.
            guard response.body.isEmpty else {
                throw Failure(description: "\(response.body.count) bytes of body after the head of a HEAD answer")
            }
        } else if response.header("Transfer-Encoding")?.lowercased() == "chunked" {
            response.body = try dechunk(response.body)
        } else if let length = response.header("Content-Length").flatMap(Int.init) {
            guard response.body.count >= length else {
                throw Failure(description: "body of \(response.body.count) bytes, Content-Length \(length)")
            }
            response.body = Array(response.body.prefix(length))
        }
        return response
    }

    private static func dechunk(_ bytes: [UInt8]) throws -> [UInt8] {
        var body: [UInt8] = []
        var rest = bytes[...]
        while let lineEnd = rest.firstRange(of: [13, 10]) {
            let sizeText = String(decoding: rest[..<lineEnd.lowerBound], as: UTF8.self)
            guard let size = Int(sizeText.split(separator: ";").first ?? "", radix: 16) else {
                throw Failure(description: "bad chunk size \(sizeText)")
            }
            if size == 0 { return body }
            let start = lineEnd.upperBound
            guard rest.endIndex - start >= size + 2 else { throw Failure(description: "short chunk") }
            body += rest[start..<start + size]
            rest = rest[(start + size + 2)...]
        }
        throw Failure(description: "chunked body without its last chunk")
    }
}
