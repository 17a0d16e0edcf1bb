#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A resource that was left out of a decoded result, and why.
///
/// ```swift
/// let decoder = JSONAPIDecoder()
/// decoder.ignoresMissingResources = true
/// let report = try decoder.decodeReporting([Article].self, from: data)
/// for skipped in report.skipped {
///     print(skipped)   // comments/5 at /data/0/relationships/comments/data/1 ([0].comments[1]): not in the document
/// }
/// ```
public struct SkippedResource: Sendable, Hashable, CustomStringConvertible {
    /// Why a resource was skipped.
    public enum Reason: Sendable, Hashable {
        /// The linkage names a resource the document does not contain.
        case missing
        /// The resource's type is not a member of the named ``ResourceUnion``.
        case unhandledType(union: String)
    }

    /// The skipped resource's type and id.
    public var identifier: ResourceIdentifier
    /// Why it was skipped.
    public var reason: Reason
    /// The Swift coding path of the value it would have been, such as `[0].comments[1]`.
    public var codingPath: String
    /// The JSON Pointer of the resource identifier (or resource) in the document.
    public var pointer: String
    /// Line of ``pointer``'s value (1-based; 0 when unknown).
    public var line: Int
    /// Column of ``pointer``'s value (1-based; 0 when unknown).
    public var column: Int

    /// Creates a value.
    public init(
        identifier: ResourceIdentifier, reason: Reason, codingPath: String, pointer: String, line: Int = 0,
        column: Int = 0
    ) {
        self.identifier = identifier
        self.reason = reason
        self.codingPath = codingPath
        self.pointer = pointer
        self.line = line
        self.column = column
    }

    public var description: String {
        let why: String
        switch reason {
        case .missing: why = "not in the document"
        case .unhandledType(let union): why = "type not handled by \(union)"
        }
        return "\(identifier) at \(pointer) (\(codingPath)): \(why)"
    }
}
