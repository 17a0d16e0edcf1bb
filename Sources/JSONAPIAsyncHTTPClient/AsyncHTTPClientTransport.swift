import AsyncHTTPClient
import JSONAPI
import JSONAPIClient
import NIOCore
import NIOHTTP1

/// A `JSONAPITransport` over AsyncHTTPClient: each response body buffer goes
/// into the client's parser as NIO reads it, without a copy.
///
/// ```swift
/// let client = JSONAPIClient(baseURL: "https://api.example.com", transport: AsyncHTTPClientTransport())
/// ```
///
/// The request's timeout becomes AsyncHTTPClient's deadline (`HTTPClientError.deadlineExceeded`
/// is reported as `JSONAPIClientError.Kind.timeout`); cancelling the task cancels
/// the request.
public struct AsyncHTTPClientTransport: JSONAPITransport {
    /// The body: views of the buffers NIO reads.
    public struct Body: AsyncSequence, Sendable {
        /// One buffer's bytes.
        public typealias Element = ByteBufferView
        let base: HTTPClientResponse.Body

        /// Reads the buffers.
        public func makeAsyncIterator() -> Iterator { Iterator(base: base.makeAsyncIterator()) }

        /// Reads the buffers.
        public struct Iterator: AsyncIteratorProtocol {
            var base: HTTPClientResponse.Body.AsyncIterator

            /// The next buffer's bytes, or nil at the end of the body.
            public mutating func next() async throws -> ByteBufferView? {
                do {
                    return try await base.next()?.readableBytesView
                } catch {
                    throw AsyncHTTPClientTransport.mapped(error)
                }
            }
        }
    }

    /// The HTTP client.
    public let client: HTTPClient

    /// Creates a transport.
    ///
    /// - Parameter client: The client to send through. Default `HTTPClient.shared`.
    public init(client: HTTPClient = .shared) {
        self.client = client
    }

    /// Sends the request; returns once the response head has arrived.
    public func send(_ request: JSONAPIHTTPRequest) async throws -> JSONAPITransportResponse<Body> {
        var outgoing = HTTPClientRequest(url: request.url)
        outgoing.method = HTTPMethod(rawValue: request.method)
        for field in request.headers { outgoing.headers.add(name: field.name, value: field.value) }
        if let body = request.body { outgoing.body = .bytes(ByteBuffer(bytes: body)) }
        let timeout = request.timeout.map { TimeAmount.nanoseconds(Self.nanoseconds($0)) } ?? .hours(24 * 365)
        let response: HTTPClientResponse
        do {
            response = try await client.execute(outgoing, timeout: timeout)
        } catch {
            throw Self.mapped(error)
        }
        var headers = JSONAPIHTTPHeaders()
        for (name, value) in response.headers { headers.add(name: name, value: value) }
        return JSONAPITransportResponse(
            status: Int(response.status.code), headers: headers, body: Body(base: response.body))
    }

    static func nanoseconds(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        let (whole, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        return overflow ? .max : whole.addingReportingOverflow(attoseconds / 1_000_000_000).partialValue
    }

    static func mapped(_ error: any Error) -> any Error {
        guard let error = error as? HTTPClientError else { return error }
        if error == .deadlineExceeded || error == .readTimeout || error == .connectTimeout {
            return JSONAPIClientError(
                .timeout, method: "", url: "", underlying: error, message: "AsyncHTTPClient: \(error)")
        }
        if error == .cancelled { return CancellationError() }
        return error
    }
}
