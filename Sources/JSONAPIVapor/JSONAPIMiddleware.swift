import JSONAPI
import Vapor

/// Makes an application speak JSON:API: negotiates every request and answers every error with
/// an error document.
///
/// Before the route runs, a `Content-Type` of the JSON:API media type with parameters other than
/// `ext`/`profile` (or an unsupported extension) gets 415, and an `Accept` whose JSON:API media
/// ranges are all unusable gets 406 (JSON:API 1.1, through ``JSONAPI/JSONAPINegotiation``); a
/// `GET` of a route that answers another media type, such as `/openapi.json`, is answered when
/// `Accept` allows that type.
///
/// After it, any thrown error becomes an error document with the core's status mapping
/// (``JSONAPI/JSONAPIErrorConvertible``): parsing errors 400 or 413, query problems 400,
/// decoding errors 422 (Vapor's own mapping would say 400), negotiation 415/406. Other
/// `AbortError`s (Vapor's 404 for an unknown route, its 413 for a collected body past the route's
/// limit) keep their status; any other error is a 500 saying only "Internal Server Error" and is
/// logged.
///
/// Register it with the application, not a route group, so that unknown routes are answered too:
///
/// ```swift
/// app.middleware.use(JSONAPIMiddleware(configuration: configuration))
/// ```
public struct JSONAPIMiddleware: AsyncMiddleware {
    /// The extensions, profiles and rules negotiation uses.
    public let configuration: JSONAPIConfiguration

    /// Creates the middleware.
    public init(configuration: JSONAPIConfiguration = JSONAPIConfiguration()) {
        self.configuration = configuration
    }

    /// Negotiates, runs the rest of the chain, and turns a thrown error into an error document.
    ///
    /// Every response it passes on says `Vary: Accept`, since negotiation chose it (or refused) by
    /// `Accept`. Repeated `Accept` and `Content-Type` lines are combined first
    /// (``Vapor/Request/jsonapiFieldValue(_:)``). A response to a request whose body was abandoned
    /// unread closes the connection after it (``Vapor/Request/jsonapiDocument(kind:configuration:)``).
    public func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
        var response: Response
        do {
            response = try await negotiated(request, next: next)
        } catch {
            let objects = Self.errorObjects(describing: error)
            if objects.contains(where: { ($0.httpStatus ?? 500) >= 500 }) {
                request.logger.error("request failed: \(String(reflecting: error))")
            }
            response = JSONAPIResponse(describing: error).response()
        }
        Self.addVaryAccept(to: &response.headers)
        if ConnectionClosing.isMarked(request) { response = ConnectionClosing.closing(response) }
        return response
    }

    /// The answer of the rest of the chain, after negotiation.
    ///
    /// A `GET` or `HEAD` refused for its `Accept` (406) may be for a route that answers another
    /// media type, such as the service's OpenAPI document (`application/json`): the route is
    /// asked, which changes nothing, and its answer goes out when `Accept` allows its type
    /// (``JSONAPI/JSONAPIConfiguration/allowsAnswer(of:accept:)``); otherwise the 406 stands.
    private func negotiated(_ request: Request, next: any AsyncResponder) async throws -> Response {
        let accept = request.jsonapiFieldValue(.accept)
        do {
            try configuration.negotiate(contentType: request.jsonapiFieldValue(.contentType), accept: accept)
        } catch let refusal as NegotiationFailure where refusal.status == 406 && [.GET, .HEAD].contains(request.method)
        {
            guard let answer = try? await next.respond(to: request),
                configuration.allowsAnswer(of: answer.headers.first(name: .contentType), accept: accept)
            else { throw refusal }
            return answer
        }
        return try await next.respond(to: request)
    }

    /// Adds `Accept` to `Vary` unless it is listed already (or `Vary` is `*`).
    static func addVaryAccept(to headers: inout HTTPHeaders) {
        let listed = headers[canonicalForm: .vary].map { $0.lowercased() }
        guard !listed.contains("accept"), !listed.contains("*") else { return }
        headers.add(name: .vary, value: "Accept")
    }

    /// The error objects that describe any error to a client.
    ///
    /// A ``JSONAPI/JSONAPIErrorConvertible`` error describes itself (a `DecodingError` is one:
    /// 422 with a pointer); another `AbortError` keeps its status with the standard reason phrase
    /// as title; anything else is a generic 500. No message of the underlying error reaches the
    /// client: an `Abort`'s reason can hold internal details.
    public static func errorObjects(describing error: any Error) -> [JSONAPIErrorObject] {
        if error is any JSONAPIErrorConvertible { return JSONAPIErrorObject.errors(describing: error) }
        if let error = error as? any AbortError {
            return JSONAPIHTTPError.errorObjects(
                frameworkStatus: Int(error.status.code), reasonPhrase: error.status.reasonPhrase)
        }
        return [.internalServerError]
    }
}
