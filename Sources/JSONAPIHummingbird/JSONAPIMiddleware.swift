import Hummingbird
import JSONAPI

/// Makes a router speak JSON:API: negotiates every request and answers every error with an
/// error document.
///
/// Before the handler runs, a `Content-Type` of the JSON:API media type with parameters other
/// than `ext`/`profile` (or an unsupported extension) gets 415, and an `Accept` whose JSON:API
/// media ranges are all unusable gets 406 (JSON:API 1.1, through ``JSONAPINegotiation``); a
/// `GET` of a route that answers another media type, such as `/openapi.json`, is answered when
/// `Accept` allows that type.
///
/// After it, any thrown error becomes an error document with the core's status mapping
/// (``JSONAPIErrorConvertible``): parsing errors 400 or 413, query problems 400, decoding
/// errors 422, negotiation 415/406. Other `HTTPResponseError`s (a 404 for an unknown route) keep
/// their status; any other error is a 500 saying only "Internal Server Error" and is logged.
///
/// ```swift
/// let router = Router()
/// router.add(middleware: JSONAPIMiddleware(configuration: configuration))
/// ```
public struct JSONAPIMiddleware<Context: RequestContext>: RouterMiddleware {
    /// The extensions, profiles and rules negotiation uses.
    public let configuration: JSONAPIConfiguration

    /// Creates the middleware.
    public init(configuration: JSONAPIConfiguration = JSONAPIConfiguration()) {
        self.configuration = configuration
    }

    /// Negotiates, runs the rest of the chain, and turns a thrown error into an error document.
    ///
    /// Every response it passes on says `Vary: Accept`, since negotiation chose it (or refused) by
    /// `Accept`. Repeated `Accept` and `Content-Type` lines reach negotiation combined, joined by
    /// commas (RFC 9110 §5.3, as `HTTPFields` reads them): two `Accept` lines are one list, two
    /// `Content-Type` lines one malformed value (415).
    public func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        var response: Response
        do {
            response = try await negotiated(request, context: context, next: next)
        } catch {
            let objects = Self.errorObjects(describing: error)
            if objects.contains(where: { ($0.httpStatus ?? 500) >= 500 }) {
                context.logger.error("request failed: \(String(reflecting: error))")
            }
            response = JSONAPIResponse(describing: error).response(from: request, context: context)
        }
        Self.addVaryAccept(to: &response.headers)
        return response
    }

    /// The answer of the rest of the chain, after negotiation.
    ///
    /// A `GET` or `HEAD` refused for its `Accept` (406) may be for a route that answers another
    /// media type, such as the service's OpenAPI document (`application/json`): the route is
    /// asked, which changes nothing, and its answer goes out when `Accept` allows its type
    /// (``JSONAPI/JSONAPIConfiguration/allowsAnswer(of:accept:)``); otherwise the 406 stands.
    private func negotiated(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        let accept = request.headers[.accept]
        do {
            try configuration.negotiate(contentType: request.headers[.contentType], accept: accept)
        } catch let refusal as NegotiationFailure where refusal.status == 406 && [.get, .head].contains(request.method)
        {
            guard let answer = try? await next(request, context),
                configuration.allowsAnswer(of: answer.headers[.contentType], accept: accept)
            else { throw refusal }
            return answer
        }
        return try await next(request, context)
    }

    /// Adds `Accept` to `Vary` unless it is listed already (or `Vary` is `*`).
    static func addVaryAccept(to headers: inout HTTPFields) {
        let listed = headers[values: .vary].flatMap { $0.split(separator: ",") }.map { token in
            String(token.filter { $0 != " " && $0 != "\t" }).lowercased()
        }
        guard !listed.contains("accept"), !listed.contains("*") else { return }
        headers[.vary] = headers[.vary].map { "\($0), Accept" } ?? "Accept"
    }

    /// The error objects that describe any error to a client.
    ///
    /// A ``JSONAPI/JSONAPIErrorConvertible`` error describes itself; another
    /// `HTTPResponseError` (such as Hummingbird's 404 for an unknown route) keeps its status with
    /// the standard reason phrase as title; anything else is a generic 500. No message of the
    /// underlying error reaches the client: a `HTTPError`'s message can hold internal details.
    public static func errorObjects(describing error: any Error) -> [JSONAPIErrorObject] {
        if error is any JSONAPIErrorConvertible { return JSONAPIErrorObject.errors(describing: error) }
        if let error = error as? any HTTPResponseError {
            return JSONAPIHTTPError.errorObjects(
                frameworkStatus: error.status.code, reasonPhrase: error.status.reasonPhrase)
        }
        return [.internalServerError]
    }
}
