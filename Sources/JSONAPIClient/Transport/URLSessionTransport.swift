import Foundation
import JSONAPI

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A ``JSONAPITransport`` over Foundation's `URLSession`, streaming each response body as
/// `URLSession` delivers it.
///
/// ```swift
/// let client = JSONAPIClient(baseURL: "https://api.example.com", transport: URLSessionTransport())
/// ```
///
/// The body comes through the `URLSession` data delegate (`urlSession(_:dataTask:didReceive:)`),
/// which both Linux and Apple Foundation have, so parsing starts with the first chunk.
/// `URLSession.bytes(for:)` is not used: it is missing from Linux Foundation, and it hands out one
/// byte at a time.
///
/// Cancelling the task cancels the data task; a `URLError.timedOut` becomes
/// ``JSONAPIClientError/Kind/timeout``.
///
/// ## Caching
///
/// The client keeps its own HTTP cache (``JSONAPIClient/Configuration/caching``), which knows
/// what a JSON:API response may be reused for. The transport's default configuration
/// (``defaultConfiguration``) therefore has no `URLCache` and ignores locally cached data, so a
/// response is neither stored twice (`URLCache.shared` keeps responses on disk in an app) nor
/// answered from a cache the client cannot see. Pass a configuration with a `urlCache` to have one
/// anyway.
///
/// ## Backpressure
///
/// On Apple platforms a data task can pause: while more than ``maximumBufferedBytes`` of a body
/// wait for the client to read them, the task is suspended, and `URLSession` stops reading from
/// the connection until the client has taken them down to a quarter of that. A response of any
/// size read model by model (``JSONAPIResources/stream(_:headers:)``) then holds a bounded amount
/// of memory.
///
/// ### No backpressure on Linux
///
/// Linux Foundation (swift-corelibs-foundation, Swift 6.3) offers no way to pause a data task's
/// delivery: `URLSession` reads the body as fast as the network delivers it, whether or not the
/// client has parsed what came before, and a reader slower than the network (a model decoded per
/// resource, a loaded machine) leaves the difference in memory, up to the whole body. Use
/// `AsyncHTTPClientTransport` where that matters: it reads from the socket only as the client asks
/// for more. Measured with a 268 MB (256 MiB) body over loopback and a reader that stalls for 4
/// seconds after the head:
///
/// - Buffering everything, as this transport does on Linux: after the stall the server had sent
///   197 MB, 69 MB of it waiting in the buffer; the process held 238 MB.
/// - `URLSessionTask.suspend()` from the data delegate once 4 MiB are buffered, `resume()` below
///   1 MiB: on Linux `suspend()` removes the transfer from libcurl's multi handle, which aborts
///   it, and `resume()` sends the request again. The body started over at each resume: 15
///   connections and 695 MB delivered for 268 MB, wrong from byte 120,913,920 (the first resume).
/// - Blocking in `urlSession(_:dataTask:didReceive:)` while 4 MiB are buffered: the buffer stayed
///   at 4 MiB, yet the server had sent 249 MB and the process held 295 MB. Foundation hands the
///   delegate's calls to an operation queue without waiting for them, so libcurl goes on reading
///   and the bytes wait in that queue instead.
public final class URLSessionTransport: JSONAPITransport {
    private let session: URLSession
    private let delegate: SessionDelegate

    /// How many bytes of a body may wait for the client to read them before the data task is
    /// paused (Apple platforms; see "Backpressure"). Default 4 MiB.
    public let maximumBufferedBytes: Int

    /// The configuration a transport uses by default: `URLSessionConfiguration.default` without
    /// a `URLCache`, ignoring locally cached data (see "Caching").
    public static var defaultConfiguration: URLSessionConfiguration {
        let configuration = URLSessionConfiguration.default
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        return configuration
    }

    /// Whether a data task here can stop delivery and go on where it stopped: Apple's
    /// `URLSession` stops reading from the connection while a task is suspended; Linux's aborts
    /// the transfer and starts it again on `resume()` (see "No backpressure on Linux").
    static var pausesTasks: Bool {
        #if canImport(Darwin)
            true
        #else
            false
        #endif
    }

    /// Creates a transport with a `URLSession` of its own.
    ///
    /// - Parameters:
    ///   - configuration: The `URLSession` configuration (timeouts, cookies, caching). Default
    ///     ``defaultConfiguration``.
    ///   - maximumBufferedBytes: How much of a body may wait to be read before the data task is
    ///     paused, where it can be. Default 4 MiB.
    public init(
        configuration: URLSessionConfiguration = URLSessionTransport.defaultConfiguration,
        maximumBufferedBytes: Int = 4 << 20
    ) {
        let delegate = SessionDelegate()
        self.delegate = delegate
        self.maximumBufferedBytes = max(maximumBufferedBytes, 1)
        session = URLSession(configuration: configuration, delegate: delegate, delegateQueue: nil)
    }

    deinit {
        // The session holds its delegate strongly until it is invalidated.
        session.finishTasksAndInvalidate()
    }

    /// Starts the data task; returns once the response head has arrived.
    public func send(_ request: JSONAPIHTTPRequest) async throws -> JSONAPITransportResponse<Body> {
        guard let url = URL(string: request.url) else {
            throw JSONAPIClientError(
                .invalidRequest, method: request.method, url: request.url, message: "the URL is not valid")
        }
        var urlRequest = URLRequest(url: url)
        urlRequest.httpMethod = request.method
        for field in request.headers { urlRequest.addValue(field.value, forHTTPHeaderField: field.name) }
        if let body = request.body { urlRequest.httpBody = Data(body) }
        if let timeout = request.timeout {
            let (seconds, attoseconds) = timeout.components
            urlRequest.timeoutInterval = Double(seconds) + Double(attoseconds) / 1e18
        }
        let task = session.dataTask(with: urlRequest)
        var control = BodyFlowControl(pause: nil, resume: { task.resume() }, cancel: { task.cancel() })
        if Self.pausesTasks { control.pause = { task.suspend() } }
        let pipe = BodyPipe(high: maximumBufferedBytes, control: control)
        let head = try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (head: CheckedContinuation<HTTPURLResponse, any Error>) in
                delegate.register(task.taskIdentifier, head: head, body: pipe)
                task.resume()
            }
        } onCancel: {
            task.cancel()
        }
        var headers = JSONAPIHTTPHeaders()
        for (name, value) in head.allHeaderFields {
            headers.add(name: "\(name)", value: "\(value)")
        }
        // Foundation decodes a compressed body itself; its Content-Length no longer applies.
        if headers["Content-Encoding"] != nil { headers.remove(name: "Content-Length") }
        return JSONAPITransportResponse(status: head.statusCode, headers: headers, body: Body(pipe: pipe))
    }

    static func mapped(_ error: any Error, _ task: URLSessionTask) -> any Error {
        guard let urlError = error as? URLError else { return error }
        switch urlError.code {
        case .cancelled: return CancellationError()
        case .timedOut:
            return JSONAPIClientError(
                .timeout, method: task.originalRequest?.httpMethod ?? "",
                url: task.originalRequest?.url?.absoluteString ?? "", underlying: error,
                message: "URLSession timed out")
        default: return error
        }
    }
}

/// Routes the `URLSession` callbacks to the request that is waiting for them.
///
/// The completion handlers are `@Sendable`, as Apple's SDKs declare them: there the protocol's
/// methods are optional Objective-C requirements, and a method whose closure type differs is a
/// different method, which `URLSession` would never call (the task would wait for a disposition
/// forever). scripts/portability holds every delegate method to that.
private final class SessionDelegate: NSObject, URLSessionDataDelegate, Sendable {
    private struct Pending {
        var head: CheckedContinuation<HTTPURLResponse, any Error>?
        var body: BodyPipe
    }

    private let pending = Locked<[Int: Pending]>([:])

    func register(_ task: Int, head: CheckedContinuation<HTTPURLResponse, any Error>, body: BodyPipe) {
        pending.withLock { $0[task] = Pending(head: head, body: body) }
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        let head = pending.withLock { pending -> CheckedContinuation<HTTPURLResponse, any Error>? in
            defer { pending[dataTask.taskIdentifier]?.head = nil }
            return pending[dataTask.taskIdentifier]?.head
        }
        guard let http = response as? HTTPURLResponse else {
            completionHandler(.cancel)
            head?.resume(throwing: URLError(.badServerResponse))
            return
        }
        completionHandler(.allow)
        head?.resume(returning: http)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let body = pending.withLock { $0[dataTask.taskIdentifier]?.body }
        body?.yield(data)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        guard let done = pending.withLock({ $0.removeValue(forKey: task.taskIdentifier) }) else { return }
        if let error {
            let mapped = URLSessionTransport.mapped(error, task)
            done.head?.resume(throwing: mapped)
            done.body.finish(throwing: mapped)
        } else {
            done.head?.resume(throwing: URLError(.badServerResponse))
            done.body.finish(throwing: nil)
        }
    }
}
