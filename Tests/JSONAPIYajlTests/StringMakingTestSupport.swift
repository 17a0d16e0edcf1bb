import JSONAPI
import Testing

@testable import JSONAPITestSupport

// `StringMakingTests.swift` uses two shared helpers without importing `JSONAPITestSupport`; these
// declarations name them in this module. Delete this file once that file imports the module.

typealias EncodingTestSupport = JSONAPITestSupport.EncodingTestSupport

/// ``JSONAPITestSupport/parseEverywhere(_:options:everySplit:sourceLocation:)``.
@discardableResult
func parseEverywhere(
    _ bytes: [UInt8], options: ParsingOptions = ParsingOptions(), everySplit: Bool = true,
    sourceLocation: Testing.SourceLocation = #_sourceLocation
) -> Result<Document, JSONAPIError> {
    JSONAPITestSupport.parseEverywhere(bytes, options: options, everySplit: everySplit, sourceLocation: sourceLocation)
}
