import JSONAPI

/// One example of the JSON:API specification's text, for tests: every document and fragment of
/// versions 1.0 and 1.1, of the examples page and of the Atomic Operations extension.
///
/// ```swift
/// @Test(arguments: SpecExample.all.filter(\.isStrictDocument))
/// func parsesEveryExample(_ example: SpecExample) throws {
///     let document = try Document(parsing: example.bytes, options: ParsingOptions(kind: example.parsingKind))
///     #expect(try myServer.accepts(document))
/// }
/// ```
///
/// The examples are the specification's own (dedicated to the public domain under CC0 1.0);
/// `scripts/gen-spec-fixtures` writes ``all`` from the copies in the corpus beside the package,
/// and a test checks that the two have not drifted apart.
public struct SpecExample: Sendable, Hashable, CustomStringConvertible {
    /// Where in the specification an example comes from.
    public enum Source: String, Sendable, Hashable, CaseIterable {
        /// The JSON:API 1.0 specification.
        case v1_0 = "1.0"
        /// The JSON:API 1.1 specification.
        case v1_1 = "1.1"
        /// The examples page (sparse fieldsets, pagination, error objects).
        case examplesPage = "site-examples"
        /// The Atomic Operations extension.
        case atomicExtension = "ext-atomic"
    }

    /// Where the example comes from; its raw value is the corpus folder.
    public var source: Source
    /// The example's name: its number and section, such as `"19-crud-creating-req-post"`.
    public var name: String
    /// The corpus file the text comes from, such as `"19-crud-creating-req-post.json"`.
    public var file: String
    /// The line of the specification's Markdown source where the example starts.
    public var line: Int
    /// The JSON:API version the example is written for: `"1.0"` or `"1.1"`.
    public var version: String
    /// `"document"` for a whole document, `"fragment:…"` (`fragment:resource-object`,
    /// `fragment:top-level-member`…) for a part of one.
    public var kind: String
    /// Whether ``text`` is strict JSON; otherwise it has `// …` comments or is a bare member, and
    /// ``cleanedJSON`` holds it without them.
    public var isStrictJSON: Bool
    /// The HTTP request line (`"POST /photos HTTP/1.1"`) or status line (`"HTTP/1.1 201
    /// Created"`) the specification shows with the example, if any.
    public var http: String?
    /// The request method, for a request.
    public var method: String?
    /// The response status, for a response.
    public var status: Int?
    /// The kind of document to parse the example as.
    public var parsingKind: ParsingOptions.Kind
    /// The corpus's tags (`data-array`, `included(compound)`, `errors`, `method-POST`…).
    public var tags: [String]
    /// The example exactly as the specification shows it.
    public var text: String
    /// For an example that is not strict JSON: the text with comments and ellipses removed
    /// (placeholders become `{}`, so it may not be a valid document).
    public var cleanedJSON: String?

    /// Creates an example.
    public init(
        source: Source, name: String, file: String, line: Int, version: String, kind: String, isStrictJSON: Bool,
        http: String?, method: String?, status: Int?, parsingKind: ParsingOptions.Kind, tags: [String],
        text: String, cleanedJSON: String?
    ) {
        self.source = source
        self.name = name
        self.file = file
        self.line = line
        self.version = version
        self.kind = kind
        self.isStrictJSON = isStrictJSON
        self.http = http
        self.method = method
        self.status = status
        self.parsingKind = parsingKind
        self.tags = tags
        self.text = text
        self.cleanedJSON = cleanedJSON
    }

    /// The UTF-8 of ``text``.
    public var bytes: [UInt8] { Array(text.utf8) }

    /// Whether the example is a whole document.
    public var isDocument: Bool { kind == "document" }

    /// Whether the example is a whole document in strict JSON: one a parser must accept.
    public var isStrictDocument: Bool { isDocument && isStrictJSON }

    /// `1.0/19-crud-creating-req-post`.
    public var description: String { "\(source.rawValue)/\(name)" }
}
