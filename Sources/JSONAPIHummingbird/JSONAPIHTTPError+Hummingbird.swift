import Hummingbird
import JSONAPI

/// Hummingbird turns only errors conforming to `HTTPResponseError` into responses: a
/// ``JSONAPI/JSONAPIHTTPError`` thrown past every middleware is still answered with its error
/// document.
extension JSONAPIHTTPError: HTTPResponseError {
    /// The status of the error document.
    public var status: HTTPResponse.Status { HTTPResponse.Status(code: httpStatus) }

    /// The error document, as `application/vnd.api+json` (with `Allow` for a 405).
    public func response(from request: Request, context: some RequestContext) throws -> Response {
        JSONAPIResponse(describing: self).response(from: request, context: context)
    }
}
