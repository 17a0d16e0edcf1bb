import JSONAPI
import NIOConcurrencyHelpers
import Vapor

/// Feeds a streamed body to a parser through `drain`, which serves every body storage Vapor has
/// (streamed, collected, none); the next buffer is read only once the previous one is parsed.
///
/// A body that fails before its end (a parse error in its first buffer, a chunk past the limit, a
/// `Content-Length` past it, a refused `Content-Type`) is not left half read: Vapor 4 stops
/// reading the connection when a body stream is abandoned, and the next request on it would
/// never be answered. The feed reads the rest and throws it away, up to `drainLimit` bytes, and
/// only then fails, so the connection is ready for the next request when the error goes out.
/// Past `drainLimit` it stops reading and marks the request (``ConnectionClosing``): the
/// middleware answers with `Connection: close` and closes, and a client does not wait for a
/// server that reads no more.
///
/// `@unchecked Sendable`: the phase (the parser is not `Sendable`: it owns a mutable buffer) is
/// reached only inside the lock, from the event loop's drain callbacks one at a time.
final class BodyFeed: @unchecked Sendable {
    private enum Phase {
        /// Every buffer goes to the parser.
        case parsing(DocumentParser)
        /// The body has failed with `failure`; the rest is read and dropped.
        case draining(failure: any Error, discarded: Int)
        /// The outcome is known and delivered.
        case done
    }

    private let phase: NIOLockedValueBox<Phase>
    private let drainLimit: Int

    /// A feed that parses the body with `parser`.
    init(parser: DocumentParser, drainLimit: Int) {
        phase = NIOLockedValueBox(.parsing(parser))
        self.drainLimit = max(drainLimit, 0)
    }

    /// A feed for a body already refused (by its headers): it only drains, then throws `failure`.
    init(failure: any Error, drainLimit: Int) {
        phase = NIOLockedValueBox(.draining(failure: failure, discarded: 0))
        self.drainLimit = max(drainLimit, 0)
    }

    /// What one drain callback decides.
    private enum Step {
        /// Read on.
        case next
        /// The body is over: deliver the outcome, the connection stays usable.
        case finish(Result<Document, any Error>)
        /// Stop reading: deliver the failure and have the connection closed.
        case abandon(any Error)
    }

    /// Reads `request`'s body and returns the parsed document.
    func run(_ request: Request) async throws -> Document {
        let eventLoop = request.eventLoop
        let promise = eventLoop.makePromise(of: Document.self)
        request.body.drain { result in
            switch self.step(result) {
            case .next:
                return eventLoop.makeSucceededVoidFuture()
            case .finish(let outcome):
                promise.completeWith(outcome)
                return eventLoop.makeSucceededVoidFuture()
            case .abandon(let error):
                ConnectionClosing.mark(request)
                promise.fail(error)
                // Stops the stream: Vapor reads no more of this connection, which the middleware
                // closes once the error document is written.
                return eventLoop.makeFailedFuture(error)
            }
        }
        return try await promise.futureResult.get()
    }

    private func step(_ result: BodyStreamResult) -> Step {
        phase.withLockedValue { phase in
            switch phase {
            case .done:
                return .next
            case .parsing(var parser):
                // Moved out, so that feeding it does not copy its buffer; put back below.
                phase = .done
                switch result {
                case .buffer(let buffer):
                    do {
                        try buffer.withUnsafeReadableBytes { bytes in try parser.feed(bytes) }
                        phase = .parsing(parser)
                    } catch {
                        phase = .draining(failure: error, discarded: 0)
                    }
                    return .next
                case .error:
                    return .finish(.failure(JSONAPIHTTPError.incompleteBody()))
                case .end:
                    do {
                        return .finish(.success(try parser.finish()))
                    } catch {
                        return .finish(.failure(error))
                    }
                }
            case .draining(let failure, let discarded):
                switch result {
                case .buffer(let buffer):
                    let total = discarded + buffer.readableBytes
                    if total > drainLimit {
                        phase = .done
                        return .abandon(failure)
                    }
                    phase = .draining(failure: failure, discarded: total)
                    return .next
                case .error, .end:
                    phase = .done
                    return .finish(.failure(failure))
                }
            }
        }
    }
}

/// The mark of a request whose connection must close after its response: its body was
/// abandoned unread (``BodyFeed``), so the connection cannot carry another request.
///
/// ``JSONAPIMiddleware`` reads it and answers with `Connection: close`, then closes.
enum ConnectionClosing: StorageKey {
    typealias Value = Bool

    /// Marks `request`.
    static func mark(_ request: Request) {
        request.storage[ConnectionClosing.self] = true
    }

    /// Whether `request` is marked.
    static func isMarked(_ request: Request) -> Bool {
        request.storage[ConnectionClosing.self] ?? false
    }

    /// `response` changed to close the connection once its body is written.
    ///
    /// Vapor 4 decides keep-alive from the request alone and offers a handler no way to close
    /// its connection, except one: a body stream that fails after its last byte. The body goes
    /// out whole (its `Content-Length` is exact), then the failed stream makes Vapor close the
    /// channel. `Connection: close` tells the client first (Vapor adds its own `keep-alive`
    /// line, and a `close` among them wins, RFC 9112 §9.6).
    static func closing(_ response: Response) -> Response {
        let body = response.body.buffer ?? ByteBuffer()
        response.headers.replaceOrAdd(name: .connection, value: "close")
        response.body = Response.Body(
            stream: { writer in
                writer.write(.buffer(body)).whenComplete { _ in
                    writer.write(.error(ClosedAfterResponse()), promise: nil)
                }
            }, count: body.readableBytes)
        return response
    }

    /// The failure that ends a closing response's body stream.
    struct ClosedAfterResponse: Error {}
}
