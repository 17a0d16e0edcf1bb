import Dispatch

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One HTTP/1.1 connection over a loopback socket that stays open between requests, for what
/// ``LoopbackHTTP`` (a connection per request) cannot show: whether a connection still carries
/// the next request after a bad one, and when the server closes it on its own.
///
/// Every wait is bounded, so a server that stops answering fails a test instead of hanging it:
/// a read gives up after its deadline (``Outcome/timedOut``), and a write the server does not
/// take within the send timeout reports `false`. The blocking socket work runs on a Dispatch
/// thread, never on the Swift concurrency pool the server under test needs. Calls are made one
/// at a time (`@unchecked Sendable`: the buffer is touched by one call at a time).
final class LoopbackConnection: @unchecked Sendable {
    /// What came back for one request.
    enum Outcome: Sendable, CustomStringConvertible {
        /// A whole response.
        case response(LoopbackHTTP.Response)
        /// The server closed the connection (or reset it) without a whole response.
        case closed
        /// Nothing conclusive arrived before the deadline: the server neither answered nor closed.
        case timedOut

        var status: Int? {
            if case .response(let response) = self { return response.status }
            return nil
        }

        var description: String {
            switch self {
            case .response(let response): "\(response.status) \(response.text.prefix(200))"
            case .closed: "closed"
            case .timedOut: "timed out"
            }
        }
    }

    private let socket: Int32
    private var received: [UInt8] = []
    private var sawEnd = false

    /// Connects to 127.0.0.1:`port`; a write waits at most `sendTimeout` seconds for the server.
    init(port: Int, sendTimeout: Int = 5) throws {
        socket = try LoopbackHTTP.connect(port: port, receiveTimeout: nil, sendTimeout: sendTimeout)
    }

    deinit { close(socket) }

    /// Opens a connection off the concurrency pool.
    static func open(port: Int) async throws -> LoopbackConnection {
        try await onThreadThrowing { try LoopbackConnection(port: port) }
    }

    /// Writes `bytes`; false when the server closed the connection or took none of them within
    /// the send timeout.
    func write(_ bytes: [UInt8]) async -> Bool {
        await Self.onThread { self.writeNow(bytes) }
    }

    /// Writes `text` as UTF-8.
    func write(_ text: String) async -> Bool { await write(Array(text.utf8)) }

    /// Writes `bytes` one at a time, `interval` seconds apart, stopping early when a write fails;
    /// returns how many were written.
    func trickle(_ bytes: [UInt8], interval: Double) async -> Int {
        await Self.onThread {
            var count = 0
            for byte in bytes {
                guard self.writeNow([byte]) else { break }
                count += 1
                usleep(UInt32(interval * 1_000_000))
            }
            return count
        }
    }

    /// Shuts the write side: the server reads an end of stream.
    func shutdownWrite() { shutdown(socket, Int32(SHUT_WR)) }

    /// How long a read waits by default: a bound for a server that never answers, not a speed
    /// requirement. The whole test suite runs its suites at once, and on a 2-core machine a
    /// CPU-bound suite can hold the concurrency pool the server needs for tens of seconds.
    static let patience: Double = 60

    /// Reads the next response, waiting at most `seconds`.
    func response(within seconds: Double = patience) async -> Outcome {
        await Self.onThread { self.readResponse(deadline: Self.now() + seconds) }
    }

    /// Waits at most `seconds` for the server to close the connection, throwing away anything it
    /// sends; true when it closed.
    func closes(within seconds: Double) async -> Bool {
        await Self.onThread {
            let deadline = Self.now() + seconds
            while !self.sawEnd {
                guard self.fill(deadline: deadline) else { return false }
            }
            return true
        }
    }

    /// Sends `GET target` (with `Accept` of the JSON:API media type) and reads the answer.
    func get(_ target: String, within seconds: Double = patience) async -> Outcome {
        let head = "GET \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: application/vnd.api+json\r\n\r\n"
        guard await write(head) else { return await closes(within: 1) ? .closed : .timedOut }
        return await response(within: seconds)
    }

    // MARK: Reading

    private func readResponse(deadline: Double) -> Outcome {
        let separator: [UInt8] = [13, 10, 13, 10]
        while true {
            if let end = received.firstRange(of: separator) {
                let head = String(decoding: received[..<end.lowerBound], as: UTF8.self).lowercased()
                if let length = Self.responseLength(head: head, headEnd: end.upperBound, received: received) {
                    if received.count >= length {
                        let bytes = Array(received[..<length])
                        received.removeFirst(length)
                        return (try? LoopbackHTTP.parse(bytes)).map(Outcome.response) ?? .closed
                    }
                } else if sawEnd {
                    // Framed by the end of the connection.
                    let bytes = received
                    received = []
                    return (try? LoopbackHTTP.parse(bytes)).map(Outcome.response) ?? .closed
                }
            }
            if sawEnd { return .closed }
            guard fill(deadline: deadline) else { return .timedOut }
        }
    }

    /// The length of the whole response whose head ends at `headEnd`, once it can be known: from
    /// `Content-Length`, the last chunk of a chunked body, or no body for 204 and 304; nil when
    /// the body runs to the end of the connection or its last chunk has not arrived.
    private static func responseLength(head: String, headEnd: Int, received: [UInt8]) -> Int? {
        let lines = head.split(separator: "\r\n")
        let status = lines.first.flatMap { Int($0.dropFirst(9).prefix(3)) } ?? 0
        if status == 204 || status == 304 || (100..<200).contains(status) { return headEnd }
        for line in lines.dropFirst() {
            if line.hasPrefix("content-length:"), let length = Int(line.dropFirst(15).filter { $0 != " " }) {
                return headEnd + length
            }
            if line.hasPrefix("transfer-encoding:"), line.contains("chunked") {
                let last: [UInt8] = Array("0\r\n\r\n".utf8)
                guard let end = received[headEnd...].firstRange(of: last) else { return nil }
                return end.upperBound
            }
        }
        return nil
    }

    /// Waits for bytes until `deadline`; false when none came in time.
    private func fill(deadline: Double) -> Bool {
        let remaining = deadline - Self.now()
        guard remaining > 0 else { return false }
        var descriptor = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
        let ready = poll(&descriptor, 1, Int32(min(remaining, 60) * 1000))
        guard ready > 0 else {
            // A poll that timed out short of the deadline (or was interrupted) waits again.
            return ready == 0 || errno == EINTR ? fill(deadline: deadline) : false
        }
        var buffer = [UInt8](repeating: 0, count: 65536)
        let count = buffer.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
        if count > 0 {
            received += buffer[0..<count]
        } else {
            sawEnd = true  // an end of stream or a reset: either way the server is gone
        }
        return true
    }

    // MARK: Writing

    private func writeNow(_ bytes: [UInt8]) -> Bool { LoopbackHTTP.write(socket, bytes) }

    // MARK: Plumbing

    private static func now() -> Double {
        Double(DispatchTime.now().uptimeNanoseconds) / 1_000_000_000
    }

    private static func onThreadThrowing<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(with: Result { try body() }) }
        }
    }

    private static func onThread<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(returning: body()) }
        }
    }
}
