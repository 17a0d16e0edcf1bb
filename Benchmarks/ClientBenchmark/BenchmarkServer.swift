import Foundation
import JSONAPIGenerator

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A loopback HTTP/1.1 server that answers every GET with one generated document.
///
/// The document is generated into memory once, before the port is printed, so no request pays
/// for it. Each connection gets a thread of its own: the request head is read, the response
/// (head and whole body, `Content-Length`, `Connection: close`) is written, and the connection
/// is closed. Plain sockets rather than a server framework, so that the server's own costs stay
/// small and the same for every variant.
enum BenchmarkServer {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// Generates the document, listens, prints the port and the document's description on
    /// standard output, and serves until the process is killed.
    static func run(generator: CompoundDocumentGenerator) throws(Failure) {
        let document = generator.generate()
        let listener = try openListener()
        let port = try boundPort(listener)
        print(port)
        print(
            "bytes=\(document.count) primary=\(generator.primaryCount) people=\(generator.personCount)"
                + " comments=\(generator.commentCount) tags=\(generator.tagCount)"
                + " included=\(generator.includedCount) resources=\(generator.resources) seed=\(generator.seed)")
        fflush(nil)  // every stream: the script reads the port as soon as it is printed
        let ok = Array(
            ("HTTP/1.1 200 OK\r\nContent-Type: application/vnd.api+json\r\n"
                + "Content-Length: \(document.count)\r\nConnection: close\r\n\r\n").utf8)
        let notAllowed = Array(
            "HTTP/1.1 405 Method Not Allowed\r\nAllow: GET\r\nContent-Length: 0\r\nConnection: close\r\n\r\n".utf8)
        while true {
            let client = accept(listener, nil, nil)
            if client < 0 {
                if errno == EINTR || errno == ECONNABORTED { continue }
                throw Failure(description: "accept() failed: errno \(errno)")
            }
            Thread.detachNewThread {
                defer { close(client) }
                guard let method = readRequestMethod(client) else { return }
                if method == "GET" {
                    guard write(client, ok) else { return }
                    guard write(client, document) else { return }
                } else {
                    guard write(client, notAllowed) else { return }
                }
                linger(client)
            }
        }
    }

    /// A TCP socket listening on 127.0.0.1 on a port the system picks.
    private static func openListener() throws(Failure) -> Int32 {
        #if canImport(Glibc)
            let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
            let listener = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard listener >= 0 else { throw Failure(description: "socket() failed: errno \(errno)") }
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
            throw Failure(description: "bind() or listen() on 127.0.0.1 failed: errno \(errno)")
        }
        return listener
    }

    private static func boundPort(_ listener: Int32) throws(Failure) -> Int {
        var address = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let result = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) }
        }
        guard result == 0 else { throw Failure(description: "getsockname() failed: errno \(errno)") }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// Reads up to the end of the request head; returns the method, or nil when the peer closed
    /// first or the head is too long or malformed.
    private static func readRequestMethod(_ socket: Int32) -> String? {
        var head: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 16_384)
        let end = Array("\r\n\r\n".utf8)
        while !contains(head, end) {
            guard head.count < 1 << 20 else { return nil }
            let count = buffer.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { return nil }
            head += buffer[0..<count]
        }
        guard let space = head.firstIndex(of: UInt8(ascii: " ")) else { return nil }
        return String(decoding: head[..<space], as: UTF8.self)
    }

    private static func contains(_ bytes: [UInt8], _ needle: [UInt8]) -> Bool {
        guard bytes.count >= needle.count else { return false }
        return (0...(bytes.count - needle.count)).contains { start in
            bytes[start..<start + needle.count].elementsEqual(needle)
        }
    }

    /// Writes all of `bytes`; false once the peer has gone.
    private static func write(_ socket: Int32, _ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                guard let base = buffer.baseAddress else { return true }
                let sent = send(socket, base + offset, buffer.count - offset, Int32(MSG_NOSIGNAL))
                if sent < 0 && errno == EINTR { continue }
                if sent <= 0 { return false }
                offset += sent
            }
            return true
        }
    }

    /// Ends the response and lets the peer read to the end before the socket is closed (a
    /// close with unread request bytes would reset the connection).
    private static func linger(_ socket: Int32) {
        shutdown(socket, Int32(SHUT_WR))
        var timeout = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var scratch = [UInt8](repeating: 0, count: 4096)
        while scratch.withUnsafeMutableBytes({ recv(socket, $0.baseAddress, $0.count, 0) }) > 0 {}
    }
}
