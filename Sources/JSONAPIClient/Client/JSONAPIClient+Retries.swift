import Foundation
import JSONAPI

/// One link of the client's chain around each request it sends (``JSONAPIClient/Configuration/interceptors``):
/// it may change the request, send it on with `next` (once, several times, or not at all), and
/// look at or change what comes back, or the ``JSONAPIClientError`` that `next` throws.
///
/// The chain runs for every attempt, inside the retries and outside the transport, in the
/// order of the array: the first interceptor sees the request first and the response last.
///
/// ```swift
/// /// Sends the current token; on a 401, refreshes it once and sends the request again.
/// struct Authentication: JSONAPIInterceptor {
///     let tokens: TokenStore
///     func intercept(
///         _ request: JSONAPIHTTPRequest, next: JSONAPIInterceptorNext
///     ) async throws -> JSONAPIClientResponse {
///         var request = request
///         request.headers.replaceOrAdd(name: "Authorization", value: "Bearer " + (await tokens.current))
///         do {
///             return try await next(request)
///         } catch let error as JSONAPIClientError where error.status == 401 {
///             request.headers.replaceOrAdd(name: "Authorization", value: "Bearer " + (try await tokens.refresh()))
///             return try await next(request)
///         }
///     }
/// }
/// ```
public protocol JSONAPIInterceptor: Sendable {
    /// Handles one attempt of `request`; call `next` to go on down the chain to the transport.
    ///
    /// - Throws: What `next` throws, or an error of the interceptor's own (the client reports it
    ///   as a ``JSONAPIClientError``).
    func intercept(_ request: JSONAPIHTTPRequest, next: JSONAPIInterceptorNext) async throws -> JSONAPIClientResponse
}

/// The rest of the chain after an interceptor, down to the transport.
public typealias JSONAPIInterceptorNext = @Sendable (JSONAPIHTTPRequest) async throws -> JSONAPIClientResponse

extension JSONAPIClient {
    /// When a failed request is sent again, and how long the client waits first
    /// (``Configuration/retries``; off by default).
    ///
    /// A request is sent again after a transport failure (no answer, or a connection lost while
    /// the body arrived) or an answer whose status is in ``statuses`` (429 and 503 by default),
    /// at most ``maximumAttempts`` times in all. Only requests that can be repeated without
    /// doing twice what they do are sent again: `GET`, `HEAD`, `PUT`, `DELETE` and `PATCH`,
    /// never a `POST` (a create, an Atomic Operations request, added relationship members)
    /// unless the request says so (``JSONAPIHTTPRequest/isRetryable``) or
    /// ``retriesEveryMethod`` is set.
    ///
    /// The waits grow from ``initialDelay`` by ``multiplier`` up to ``maximumDelay``, each
    /// shortened by a random part of up to ``jitter`` of it, so that clients that failed together
    /// do not come back together. A `Retry-After` (seconds or a date) replaces the computed wait;
    /// one longer than ``maximumDelay`` ends the retries with the answer's error.
    ///
    /// ```swift
    /// var configuration = JSONAPIClient.Configuration()
    /// configuration.retries = JSONAPIClient.RetryPolicy(maximumAttempts: 4)
    /// ```
    public struct RetryPolicy: Sendable {
        /// The most times a request is sent, the first included. Default 3; 1 to 100.
        public var maximumAttempts: Int
        /// The wait before the first retry. Default 200 ms.
        public var initialDelay: Duration
        /// The longest wait, and the longest `Retry-After` honoured. Default 30 s.
        public var maximumDelay: Duration
        /// How much each wait grows over the one before. Default 2; at least 1.
        public var multiplier: Double
        /// The part of each wait that is random, from 0 (none) to 1 (anything from zero up to
        /// the wait). Default 0.5.
        public var jitter: Double
        /// The statuses answered again. Default 429 and 503.
        public var statuses: Set<Int>
        /// Whether a `POST` is sent again as well. Default false.
        public var retriesEveryMethod: Bool

        /// A policy; every parameter has the default described on its property.
        public init(
            maximumAttempts: Int = 3, initialDelay: Duration = .milliseconds(200),
            maximumDelay: Duration = .seconds(30),
            multiplier: Double = 2, jitter: Double = 0.5, statuses: Set<Int> = [429, 503],
            retriesEveryMethod: Bool = false
        ) {
            self.maximumAttempts = maximumAttempts
            self.initialDelay = initialDelay
            self.maximumDelay = maximumDelay
            self.multiplier = multiplier
            self.jitter = jitter
            self.statuses = statuses
            self.retriesEveryMethod = retriesEveryMethod
        }

        /// Throws when a setting is out of its range.
        public func validate() throws(JSONAPIError) {
            guard (1...100).contains(maximumAttempts) else {
                throw JSONAPIError(.invalidOption, "retries.maximumAttempts must be between 1 and 100")
            }
            guard initialDelay >= .zero, maximumDelay >= initialDelay else {
                throw JSONAPIError(
                    .invalidOption, "retries.initialDelay must not be negative, nor more than maximumDelay")
            }
            guard multiplier >= 1, multiplier.isFinite, (0...1).contains(jitter) else {
                throw JSONAPIError(.invalidOption, "retries.multiplier must be at least 1 and jitter between 0 and 1")
            }
        }

        /// Whether `request` may be sent more than once.
        func allows(_ request: JSONAPIHTTPRequest) -> Bool {
            if let retryable = request.isRetryable { return retryable }
            return retriesEveryMethod || ["GET", "HEAD", "PUT", "DELETE", "PATCH", "OPTIONS"].contains(request.method)
        }

        /// The wait before attempt `attempt + 1` after `failure`, or nil when it is not tried again.
        func delay(after failure: JSONAPIClientError, attempt: Int, random: Double) -> Duration? {
            guard attempt < maximumAttempts else { return nil }
            switch failure.kind {
            case .transport, .truncatedBody: break
            case .errorResponse, .unexpectedStatus:
                guard let status = failure.status, statuses.contains(status) else { return nil }
            default: return nil
            }
            if let value = failure.headers["Retry-After"] {
                guard let wait = Self.retryAfter(value), wait <= maximumDelay else { return nil }
                return wait
            }
            var wait = initialDelay * pow(multiplier, Double(attempt - 1))
            if wait > maximumDelay { wait = maximumDelay }
            return wait * (1 - jitter * random)
        }

        /// A `Retry-After` value (RFC 9110 §10.2.3) as a wait from now: seconds, or a date.
        static func retryAfter(_ value: String) -> Duration? {
            let text = value.trimmingCharacters(in: .whitespaces)
            if let seconds = Int(text), seconds >= 0 { return .seconds(seconds) }
            guard let date = HTTPDate.seconds(text) else { return nil }
            return .seconds(max(Double(date) - Date().timeIntervalSince1970, 0))
        }
    }

    /// Sends `request` through the interceptors and the transport, again as
    /// ``Configuration/retries`` allows; every failure as a ``JSONAPIClientError``.
    func attempts(_ request: JSONAPIHTTPRequest, reading: BodyReading) async throws -> JSONAPIClientResponse {
        var attempt = 1
        while true {
            do {
                return try await intercepted(request, reading: reading)
            } catch {
                let failure = classify(error, request)
                guard let policy = configuration.retries, policy.allows(request),
                    let wait = policy.delay(after: failure, attempt: attempt, random: Double.random(in: 0..<1))
                else { throw failure }
                do {
                    try await Task.sleep(for: wait)
                } catch {
                    throw classify(error, request)
                }
                attempt += 1
            }
        }
    }

    /// One attempt: the interceptors in order, then the cache and the exchange with the transport.
    private func intercepted(_ request: JSONAPIHTTPRequest, reading: BodyReading) async throws
        -> JSONAPIClientResponse
    {
        let transport: JSONAPIInterceptorNext = { request in
            do {
                return try await self.rememberedExchange(request, reading: reading)
            } catch {
                throw self.classify(error, request)
            }
        }
        let chain = configuration.interceptors.reversed().reduce(transport) { next, interceptor in
            { request in try await interceptor.intercept(request, next: next) }
        }
        return try await chain(request)
    }
}
