import Hummingbird
import JSONAPI

/// Makes a router speak JSON:API: negotiates every request and answers every error with an
/// error document.
///
/// Before the handler runs, a `Content-Type` of the JSON:API media type with parameters other
/// than `ext`/`profile` (or an unsupported extension) gets 415, and an `Accept` whose JSON:API
/// media ranges are all unusable gets 406 (JSON:API 1.1, through ``JSONAPINegotiation``).
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
    public func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        do {
            if case .failure(let failure) = JSONAPINegotiation.checkContentType(
                request.headers[.contentType], supportedExtensions: configuration.supportedExtensions,
                version: configuration.specVersion)
            {
                throw failure
            }
            _ = try request.jsonapiResponseMediaType(configuration: configuration)
            return try await next(request, context)
        } catch {
            let objects = JSONAPIHTTPError.errorObjects(describing: error)
            if objects.contains(where: { ($0.httpStatus ?? 500) >= 500 }) {
                context.logger.error("request failed: \(String(reflecting: error))")
            }
            return JSONAPIResponse(errors: JSONAPIErrorDocument(errors: objects))
                .response(from: request, context: context)
        }
    }
}
