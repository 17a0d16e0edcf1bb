import JSONAPI

/// What the generated schemas assume about how resources are written and what a server
/// promises.
///
/// ```swift
/// var options = JSONAPISchemaOptions()
/// options.encoding.keyEncodingStrategy = .convertToKebabCase   // firstName -> "first-name"
/// options.encoding.dateEncodingStrategy = .secondsSince1970    // dates are numbers
/// options.requiresFieldsInResponses = true                     // every non-optional field, always
/// let components = JSONAPIComponents(models: [Article.self, Person.self], options: options)
/// ```
public struct JSONAPISchemaOptions: Sendable {
    /// How resources are encoded: the member names come from its key strategy (the names
    /// `JSONAPIEncoder` writes), and the JSON of dates and `Data` from its date and data
    /// strategies. Default: `EncodingOptions()` (names as declared, ISO 8601 dates, base64 data).
    public var encoding: EncodingOptions

    /// Whether a resource object in a response must carry every attribute and relationship its
    /// model does not declare optional. Default false: JSON:API lets a server send any subset of
    /// the fields of a type when the request names no sparse fieldset for it, and only the fields
    /// asked for when it does, so a response schema that required fields would reject valid
    /// responses. Set it for a server that always sends every field and never supports
    /// `fields[TYPE]`. Create bodies require the non-optional attributes whatever this says.
    public var requiresFieldsInResponses: Bool

    /// Whether request bodies may identify a new resource, or link to one, by a 1.1 local id
    /// (`lid`) instead of an `id`. Default true.
    public var allowsLocalIdentifiers: Bool

    /// Whether linkage in request bodies may name a resource by `lid` (when
    /// ``allowsLocalIdentifiers`` is true). Default true. A `lid` in linkage names a resource
    /// declared elsewhere in the request, such as one an earlier Atomic operation added, which
    /// a schema cannot check; a server that refuses every other `lid` describes its linkage by
    /// `id` alone by setting this false.
    public var allowsLocalIdentifierLinkage = true

    /// What request bodies may carry of each resource type beyond what its model reads, by
    /// resource type. A type not listed takes the default rules: every member writable, an
    /// `id` optional in a create body.
    public var writeRules: [String: WriteRules] = [:]

    /// What create and update bodies of one resource type may carry.
    ///
    /// ```swift
    /// options.writeRules["articles"] = .init(readOnly: ["createdAt"], createID: .forbidden)
    /// ```
    public struct WriteRules: Sendable, Hashable {
        /// Whether a create body carries the new resource's `id`.
        public enum CreateID: Sendable, Hashable {
            /// Never: the server chooses ids (JSON:API's 403 for one sent).
            case forbidden
            /// It may.
            case optional
            /// It must.
            case required
        }

        /// A change a server may accept for a type.
        public enum Operation: Sendable, Hashable, CaseIterable {
            /// `POST /TYPE`, an `add` of a resource.
            case create
            /// `PATCH /TYPE/ID`, an `update` of a resource.
            case update
            /// `DELETE /TYPE/ID`, a `remove` of a resource.
            case delete
            /// `PATCH`, `POST`, `DELETE` on `/TYPE/ID/relationships/NAME`, and the operations on a
            /// relationship.
            case changeRelationships
        }

        /// Members (coding-key names) written in responses and left out of create and update
        /// bodies.
        public var readOnly: Set<String>
        /// Whether a create body carries an `id`. Default ``CreateID/optional``.
        public var createID: CreateID
        /// The changes the type accepts: the routes and Atomic Operations written for it.
        /// Default: all of them.
        public var operations: Set<Operation>

        /// Creates rules.
        public init(
            readOnly: Set<String> = [], createID: CreateID = .optional,
            operations: Set<Operation> = Set(Operation.allCases)
        ) {
            self.readOnly = readOnly
            self.createID = createID
            self.operations = operations
        }
    }

    /// Creates options.
    ///
    /// - Parameters:
    ///   - encoding: How resources are encoded (key, date and data strategies).
    ///   - requiresFieldsInResponses: Whether responses must carry every non-optional field.
    ///   - allowsLocalIdentifiers: Whether request bodies may use `lid`.
    public init(
        encoding: EncodingOptions = EncodingOptions(), requiresFieldsInResponses: Bool = false,
        allowsLocalIdentifiers: Bool = true
    ) {
        self.encoding = encoding
        self.requiresFieldsInResponses = requiresFieldsInResponses
        self.allowsLocalIdentifiers = allowsLocalIdentifiers
    }
}
