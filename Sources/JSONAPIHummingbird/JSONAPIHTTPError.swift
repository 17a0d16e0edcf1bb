import Hummingbird
import JSONAPI

/// An error answered with a JSON:API error document: throw it from a handler for a 404, a 409, a
/// 403, ... with the error objects the client should see.
///
/// Hummingbird turns only errors conforming to `HTTPResponseError` into responses, so this type
/// conforms and writes its error document itself; it also conforms to
/// `JSONAPIErrorConvertible`, so ``JSONAPIMiddleware`` and the core's status mapping agree.
///
/// ```swift
/// guard let article = store.article(id) else {
///     throw JSONAPIHTTPError.notFound("There is no article with id \(id).")
/// }
/// ```
public struct JSONAPIHTTPError: Error, Sendable, HTTPResponseError, JSONAPIErrorConvertible {
    /// The error objects, at least one.
    public var errors: [JSONAPIErrorObject]

    /// Creates an error from error objects; an empty list stands for a generic 500.
    public init(_ errors: [JSONAPIErrorObject]) {
        self.errors = errors.isEmpty ? [.internalServerError] : errors
    }

    /// Creates an error with one error object.
    public init(
        status: Int, code: String? = nil, title: String, detail: String? = nil,
        source: JSONAPIErrorObject.Source? = nil
    ) {
        self.init([JSONAPIErrorObject(status: status, code: code, title: title, detail: detail, source: source)])
    }

    /// The error document's error objects.
    public var jsonapiErrors: [JSONAPIErrorObject] { errors }

    /// The status of the error document (see ``JSONAPIErrorDocument/httpStatus``).
    public var status: HTTPResponse.Status {
        HTTPResponse.Status(code: JSONAPIErrorDocument(errors: errors).httpStatus)
    }

    /// The error document, as `application/vnd.api+json`.
    public func response(from request: Request, context: some RequestContext) throws -> Response {
        JSONAPIResponse(errors: JSONAPIErrorDocument(errors: errors)).response(from: request, context: context)
    }

    /// 404 Not Found.
    public static func notFound(_ detail: String? = nil) -> JSONAPIHTTPError {
        JSONAPIHTTPError(status: 404, code: "not-found", title: "Not Found", detail: detail)
    }

    /// 403 Forbidden, such as a client-generated id the server does not accept.
    public static func forbidden(_ detail: String? = nil) -> JSONAPIHTTPError {
        JSONAPIHTTPError(status: 403, code: "forbidden", title: "Forbidden", detail: detail)
    }

    /// 409 Conflict: a type that does not match the endpoint, or an id already taken.
    public static func conflict(_ detail: String? = nil, pointer: String? = nil) -> JSONAPIHTTPError {
        JSONAPIHTTPError(
            status: 409, code: "conflict", title: "Conflict", detail: detail, source: pointer.map { .pointer($0) })
    }

    /// 413 Content Too Large: the body is longer than the service reads.
    public static func bodyTooLarge(limit: Int) -> JSONAPIHTTPError {
        JSONAPIHTTPError(
            status: 413, code: "body-too-large", title: "Request body too large",
            detail: "the request body is longer than \(limit) bytes")
    }

    /// 415 Unsupported Media Type for a body that is not `application/vnd.api+json`.
    public static func unsupportedMediaType(_ detail: String) -> JSONAPIHTTPError {
        JSONAPIHTTPError(
            status: 415, code: "unsupported-media-type", title: "Unsupported Media Type", detail: detail,
            source: .header("Content-Type"))
    }

    /// The error objects that describe any error to a client.
    ///
    /// A `JSONAPIErrorConvertible` error describes itself; another `HTTPResponseError` (such as
    /// Hummingbird's 404 for an unknown route) keeps its status with the standard reason phrase
    /// as title; anything else is a generic 500. No message of the underlying error reaches the
    /// client: a `HTTPError`'s message can hold internal details.
    public static func errorObjects(describing error: any Error) -> [JSONAPIErrorObject] {
        if error is any JSONAPIErrorConvertible { return JSONAPIErrorObject.errors(describing: error) }
        if let error = error as? any HTTPResponseError {
            let status = error.status
            guard status.code >= 400, status.code < 500 else { return [.internalServerError] }
            return [JSONAPIErrorObject(status: status.code, title: status.reasonPhrase)]
        }
        return [.internalServerError]
    }
}
