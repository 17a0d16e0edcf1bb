import Dispatch
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A loopback HTTP/1.1 server whose answers are written byte by byte by the test: wrong media
/// types, bodies cut short, a body that never ends, a 100 MB body generated as it is sent. No
/// framework would send most of these, which is the point.
///
/// Each connection runs on a Dispatch thread: the request head (and a `Content-Length` body) is
/// read, the handler writes whatever it likes, and the connection is closed.
final class CannedHTTPServer: Sendable {
    struct Request: Sendable {
        var method: String
        var target: String
        var headers: [(String, String)]
        var body: [UInt8]
    }

    /// Writes to the connection; `write` returns false once the peer has gone.
    struct Connection {
        let socket: Int32

        @discardableResult
        func write(_ bytes: [UInt8]) -> Bool {
            bytes.withUnsafeBytes { write($0) }
        }

        @discardableResult
        func write(_ text: String) -> Bool { write(Array(text.utf8)) }

        @discardableResult
        func write(_ buffer: UnsafeRawBufferPointer) -> Bool {
            var offset = 0
            while offset < buffer.count {
                guard let base = buffer.baseAddress else { return true }
                let sent = send(socket, base + offset, buffer.count - offset, Int32(MSG_NOSIGNAL))
                if sent <= 0 { return false }
                offset += sent
            }
            return true
        }

        /// A complete response with `Content-Length`.
        func respond(status: Int, contentType: String?, body: [UInt8], extraHeaders: String = "") {
            var head = "HTTP/1.1 \(status) X\r\nConnection: close\r\nContent-Length: \(body.count)\r\n"
            if let contentType { head += "Content-Type: \(contentType)\r\n" }
            write(head + extraHeaders + "\r\n")
            write(body)
        }
    }

    typealias Handler = @Sendable (Request, Connection) -> Void

    let port: Int
    private let listener: Int32
    private let handler: Handler
    private let stopped = Atomic<Bool>(false)

    init(_ handler: @escaping Handler) throws {
        self.handler = handler
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard listener >= 0 else { throw Failure(description: "socket() failed") }
        var yes: Int32 = 1
        setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(listener, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0, listen(listener, 64) == 0 else {
            close(listener)
            throw Failure(description: "bind/listen failed")
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) }
        }
        port = Int(UInt16(bigEndian: address.sin_port))
        self.listener = listener
        let thread = Thread(listener: listener, handler: handler)
        DispatchQueue.global().async { thread.run() }
    }

    /// Stops accepting connections.
    func stop() {
        stopped.store(true, ordering: .sequentiallyConsistent)
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
    }

    deinit { if !stopped.load(ordering: .sequentiallyConsistent) { stop() } }

    var baseURL: String { "http://127.0.0.1:\(port)" }

    struct Failure: Error, CustomStringConvertible { var description: String }

    private struct Thread: Sendable {
        let listener: Int32
        let handler: Handler
        func run() {
            while true {
                let client = accept(listener, nil, nil)
                guard client >= 0 else { return }
                let handler = handler
                DispatchQueue.global().async {
                    defer { close(client) }
                    guard let request = Self.readRequest(client) else { return }
                    handler(request, Connection(socket: client))
                    shutdown(client, Int32(SHUT_WR))
                    // Let the peer read to the end before the socket goes.
                    var scratch = [UInt8](repeating: 0, count: 4096)
                    var timeout = timeval(tv_sec: 2, tv_usec: 0)
                    setsockopt(client, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
                    while recv(client, &scratch, scratch.count, 0) > 0 {}
                }
            }
        }

        static func readRequest(_ socket: Int32) -> Request? {
            var data: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 65536)
            var headEnd: Int?
            while headEnd == nil {
                let count = recv(socket, &buffer, buffer.count, 0)
                guard count > 0 else { return nil }
                data += buffer[0..<count]
                headEnd = find(data, Array("\r\n\r\n".utf8))
            }
            guard let headEnd else { return nil }
            let head = String(decoding: data[0..<headEnd], as: UTF8.self)
            var lines = head.split(separator: "\r\n").map(String.init)
            guard !lines.isEmpty else { return nil }
            let requestLine = lines.removeFirst().split(separator: " ").map(String.init)
            guard requestLine.count >= 2 else { return nil }
            let headers = lines.compactMap { line -> (String, String)? in
                guard let colon = line.firstIndex(of: ":") else { return nil }
                return (String(line[..<colon]), String(line[line.index(after: colon)...]).trimmingCharacters())
            }
            let length = headers.first { $0.0.lowercased() == "content-length" }.flatMap { Int($0.1) } ?? 0
            var body = Array(data[(headEnd + 4)...])
            while body.count < length {
                let count = recv(socket, &buffer, buffer.count, 0)
                guard count > 0 else { return nil }
                body += buffer[0..<count]
            }
            return Request(method: requestLine[0], target: requestLine[1], headers: headers, body: body)
        }

        static func find(_ data: [UInt8], _ needle: [UInt8]) -> Int? {
            guard data.count >= needle.count else { return nil }
            for start in 0...(data.count - needle.count) where data[start..<start + needle.count].elementsEqual(needle)
            {
                return start
            }
            return nil
        }
    }
}

extension String {
    fileprivate func trimmingCharacters() -> String {
        String(drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }
}
