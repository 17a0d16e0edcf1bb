import Hummingbird
import HummingbirdCore
import NIOCore

/// How long a Hummingbird server that speaks JSON:API keeps a connection that does nothing.
///
/// Hummingbird 2 sets no timeout by default: a client that opens a socket and sends nothing, or
/// stops halfway through a request, holds the connection for as long as it likes. Serve with the
/// defaults:
///
/// ```swift
/// let app = Application(router: router, server: JSONAPIServerTimeouts().http1Server())
/// ```
///
/// Hummingbird's idle timeout counts from the last complete part of a request (its head, a body
/// buffer, its end) or the end of the last response, not from the last byte: a request head
/// sent a byte at a time does not restart it, so a slow head is closed within the timeout. A
/// body is bounded in its gaps (each buffer restarts the timeout), not its length; the body
/// limit of ``JSONAPI/JSONAPIConfiguration/maximumBodyBytes`` bounds its size. A request whose
/// handler is running is not timed out.
public struct JSONAPIServerTimeouts: Sendable, Hashable {
    /// How long a connection may wait for the next part of a request, or for the next request,
    /// before the server closes it. Default ``defaultIdleTimeout``.
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

    /// The HTTP/1.1 channel configuration with these timeouts.
    public var http1Configuration: HTTP1Channel.Configuration {
        HTTP1Channel.Configuration(idleTimeout: TimeAmount(idleTimeout))
    }

    /// An HTTP/1.1 server with these timeouts, for `Application(router:server:)`.
    public func http1Server() -> HTTPServerBuilder {
        .http1(configuration: http1Configuration)
    }
}
