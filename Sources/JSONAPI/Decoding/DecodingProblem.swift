#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Something in a document that did not fit the models, and what the decode did about it.
///
/// ``DecodingReport/problems`` lists them in decode order: with
/// ``DecodingOptions/Tolerance/lenient`` every problem the decode worked around, otherwise the
/// resources ``DecodingOptions/ignoresMissingResources`` and
/// ``DecodingOptions/ignoresUnhandledResourceTypes`` left out. ``DecodingFailure/problems``
/// lists every problem that made a decode fail.
///
/// ```swift
/// var options = DecodingOptions()
/// options.tolerance = .lenient
/// let report = try JSONAPIDecoder(options: options).decodeReporting([Article].self, from: data)
/// for problem in report.problems {
///     print(problem)
///     // [1].author read as absent: expected a `people` resource (Person), found a `robots` resource
///     // (robots/r1) at /data/1/relationships/author/data (line 9, column 38)
/// }
/// ```
public struct DecodingProblem: Sendable, Hashable, CustomStringConvertible {
    /// What was wrong.
    public enum Kind: Sendable, Hashable {
        /// A linkage names a resource the document does not contain.
        case missingResource
        /// A linkage or resource has another type than the model the property wants.
        case wrongResourceType
        /// A resource's type is not a member of the ``ResourceUnion`` the property wants.
        case unhandledResourceType
        /// A value is absent or `null` where the model needs one.
        case missingValue
        /// A value has the wrong JSON type, cannot be parsed (a date, a URL, a number out of
        /// range), or a model's own `init(from:)` refused it.
        case invalidValue
    }

    /// What the decode did.
    ///
    /// A decoder sees calls, not declarations: through `init(from: any Decoder)` it knows that it
    /// answered `decodeIfPresent` (or an optional) with `nil`, never what the model then made of
    /// that `nil`. Only a model read through its `@ResourceReadable` initializer, which is written
    /// from the declarations, lets it keep a declared default and say so.
    public enum Action: Sendable, Hashable {
        /// The value was left out of its array (primary data, `included`, a to-many
        /// relationship, a collection being walked).
        case leftOut
        /// The value was read as absent: `decodeIfPresent` returned `nil` (or an optional value
        /// decoded as `nil`). A property declared `T?` is then `nil`; one that its model's own
        /// `init(from:)` reads as `decodeIfPresent(…) ?? fallback` gets the fallback, which the
        /// decoder cannot see. Described as "read as absent".
        case setToNil
        /// The property kept the default value it is declared with (`var views: Int = 0`): the
        /// value was missing or could not be read, and the model was read through its
        /// `@ResourceReadable` initializer (`ResourceReader.decode(_:default:)`), which knows
        /// the default. Described as "kept its default".
        case defaultKept
        /// Nothing: the value made the decode fail. ``JSONAPIDecoder/decodeListingProblems(_:from:)-(_,Document)``
        /// lists every such value (``DecodingFailure``), going on past each one with a
        /// placeholder that is never returned. Described as "rejected".
        case rejected
    }

    /// What was wrong.
    public var kind: Kind
    /// What the decode did.
    public var action: Action
    /// The resource (or identifier) that was left out or not set, when the value was one.
    public var resource: ResourceIdentifier?
    /// The Swift coding path of the value that was left out, read as absent or kept its
    /// default, such as `[0].comments[1]`.
    public var codingPath: String
    /// The JSON Pointer of the place in the document where the problem is: the linkage that
    /// names a missing resource, the attribute whose value does not fit.
    public var pointer: String
    /// Line of ``pointer``'s value (1-based; 0 when unknown).
    public var line: Int
    /// Column of ``pointer``'s value (1-based; 0 when unknown).
    public var column: Int
    /// What was expected and what was found, as the strict decode's error says it.
    public var message: String

    /// Creates a value.
    public init(
        kind: Kind, action: Action, resource: ResourceIdentifier?, codingPath: String, pointer: String,
        line: Int = 0, column: Int = 0, message: String
    ) {
        self.kind = kind
        self.action = action
        self.resource = resource
        self.codingPath = codingPath
        self.pointer = pointer
        self.line = line
        self.column = column
        self.message = message
    }

    public var description: String {
        let done: String
        switch action {
        case .leftOut: done = "left out"
        case .setToNil: done = "read as absent"
        case .defaultKept: done = "kept its default"
        case .rejected: done = "rejected"
        }
        let subject = codingPath.isEmpty ? "the value" : codingPath
        let place = pointer.isEmpty ? "the document root" : pointer
        let position = line > 0 ? " (line \(line), column \(column))" : ""
        return "\(subject) \(done): \(message) at \(place)\(position)"
    }
}
