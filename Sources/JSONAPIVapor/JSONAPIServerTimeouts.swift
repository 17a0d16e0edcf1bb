import NIOCore
import Vapor

/// How long a Vapor server that speaks JSON:API keeps a connection that does nothing.
///
/// Vapor 4 sets no timeout by default: a client that opens a socket and sends nothing, or stops
/// halfway through a request, holds the connection (a file descriptor, buffers) for as long as it
/// likes. Apply the defaults when configuring the server:
///
/// ```swift
/// app.http.server.configuration.useJSONAPITimeouts(JSONAPIServerTimeouts())
/// ```
///
/// Vapor offers only an idle timeout: it closes a connection on which no byte has been read or
/// written for that long, whether it waits for a request, sits in the middle of one, or is
/// answered by a handler that has written nothing yet (keep handlers shorter than the timeout). It
/// starts again with every byte, so it bounds the gaps of a request sent slowly, not its length:
/// Vapor has no deadline for a request head or body, and a head sent a byte at a time just
/// faster than the timeout is bounded only by the 80 KiB head limit of NIO's parser.
public struct JSONAPIServerTimeouts: Sendable, Hashable {
    /// How long a connection may stay without a byte read or written before the server closes
    /// it. Default ``defaultIdleTimeout``.
    public var idleTimeout: Duration

    /// 30 seconds: longer than a client on a slow network waits between the parts of a request
    /// or between keep-alive requests, short enough that idle connections do not pile up.
    public static let defaultIdleTimeout: Duration = .seconds(30)

    /// Creates timeouts.
    ///
    /// - Parameter idleTimeout: See ``idleTimeout``; default ``defaultIdleTimeout``.
    public init(idleTimeout: Duration = JSONAPIServerTimeouts.defaultIdleTimeout) {
        self.idleTimeout = idleTimeout
    }
}

extension HTTPServer.Configuration {
    /// Sets the server's idle timeout from `timeouts` (Vapor's `idleTimeout`).
    ///
    /// - Parameter timeouts: The timeouts; by default ``JSONAPIServerTimeouts/defaultIdleTimeout``.
    public mutating func useJSONAPITimeouts(_ timeouts: JSONAPIServerTimeouts = JSONAPIServerTimeouts()) {
        idleTimeout = TimeAmount(timeouts.idleTimeout)
    }
}
