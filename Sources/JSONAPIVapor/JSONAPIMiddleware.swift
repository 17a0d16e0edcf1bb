import JSONAPI
import Vapor

/// Makes an application speak JSON:API: negotiates every request and answers every error with
/// an error document.
///
/// Before the route runs, a `Content-Type` of the JSON:API media type with parameters other than
/// `ext`/`profile` (or an unsupported extension) gets 415, and an `Accept` whose JSON:API media
/// ranges are all unusable gets 406 (JSON:API 1.1, through ``JSONAPI/JSONAPINegotiation``).
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
            try configuration.negotiate(
                contentType: request.jsonapiFieldValue(.contentType), accept: request.jsonapiFieldValue(.accept))
            response = try await next.respond(to: request)
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
