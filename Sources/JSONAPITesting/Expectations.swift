import JSONAPI
import Testing

/// Records a Swift Testing issue listing every ``JSONDifference`` when two documents are not
/// equivalent (member order and number spelling ignored).
///
/// ```swift
/// @Test func writesArticle() throws {
///     let written = try Document(parsing: JSONAPIEncoder().encode(article))
///     expectEquivalentDocuments(written, try Document(parsing: expectedJSON))
/// }
/// ```
///
/// - Parameters:
///   - actual: The document produced.
///   - expected: The document wanted.
///   - sourceLocation: Where the issue is reported; the caller's line by default.
/// - Returns: Whether the documents are equivalent.
@discardableResult
public func expectEquivalentDocuments(
    _ actual: Document, _ expected: Document, sourceLocation: SourceLocation = #_sourceLocation
) -> Bool {
    guard let diff = documentDiff(actual, expected) else { return true }
    Issue.record(Comment(rawValue: diff), sourceLocation: sourceLocation)
    return false
}

/// ``expectEquivalentDocuments(_:_:sourceLocation:)-(Document,Document,_)`` of two JSON texts,
/// parsed leniently; a text that is not JSON is an issue too.
///
/// ```swift
/// expectEquivalentDocuments(written, #"{"data": {"type": "articles", "id": "1"}}"#)
/// ```
///
/// - Returns: Whether both texts parsed and are equivalent.
@discardableResult
public func expectEquivalentDocuments(
    _ actual: String, _ expected: String, sourceLocation: SourceLocation = #_sourceLocation
) -> Bool {
    do {
        guard let diff = try documentDiff(actual, expected) else { return true }
        Issue.record(Comment(rawValue: diff), sourceLocation: sourceLocation)
    } catch {
        Issue.record(error, sourceLocation: sourceLocation)
    }
    return false
}
