import Hummingbird
import JSONAPI

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension RequestContext {
    /// The path parameter `name` (such as the `id` of ``JSONAPIResourceRoutes``' routes),
    /// percent-decoded.
    ///
    /// Hummingbird hands path parameters over as the client sent them, so
    /// `context.parameters.require("id")` is `%C3%89` for `GET /tags/%C3%89`, the tag `É`. JSON:API
    /// servers write ids percent-encoded into links, so a handler wants the decoded id:
    ///
    /// ```swift
    /// routes.resource = { request, context in
    ///     let id = try context.jsonapiParameter("id")   // "É"
    ///     ...
    /// }
    /// ```
    ///
    /// - Throws: Hummingbird's 400 when the route has no such parameter;
    ///   ``JSONAPI/JSONAPIHTTPError`` 404 when the segment is not valid percent-encoded UTF-8
    ///   (it names no resource).
    public func jsonapiParameter(_ name: String) throws -> String {
        let raw = try parameters.require(name)
        guard let decoded = raw.removingPercentEncoding else {
            throw JSONAPIHTTPError.notFound("`\(raw)` is not a percent-encoded path segment.")
        }
        return decoded
    }
}
