import JSONAPI
import Vapor

/// Vapor answers an `AbortError` with its status: a ``JSONAPI/JSONAPIHTTPError`` keeps its status
/// even past every middleware (``JSONAPIMiddleware`` answers it with its error document).
extension JSONAPIHTTPError: AbortError {
    /// The status of the error document.
    public var status: HTTPResponseStatus { HTTPResponseStatus(statusCode: httpStatus) }

    /// The first error object's detail, or its title.
    public var reason: String { errors.first.map { $0.detail ?? $0.title ?? "" } ?? "" }

    /// ``JSONAPI/JSONAPIHTTPError/headerFields``: `Allow` for a 405, `Retry-After` for a 503.
    public var headers: HTTPHeaders { HTTPHeaders(headerFields.map { ($0.name, $0.value) }) }
}
