import Testing

/// The expansions, through the macro plugin the build made for the compiler (``MacroPlugin``).
@Suite("@ResourceReadable expansion")
struct ResourceReadableMacroTests {
    func expand(
        _ source: String, _ expanded: String, diagnostics: [DiagnosticSpec] = [],
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        assertExpansion(
            source, expanded, diagnostics: diagnostics, conformances: ["ResourceReadable"],
            sourceLocation: sourceLocation)
    }

    @Test func readsStoredPropertiesLikeSynthesizedDecodable() {
        expand(
            """
            @ResourceReadable
            public struct Article: JSONAPIResource {
                static let resourceType = "articles"
                public var id: String
                var title: String, subtitle: String?
                var rating: Optional<Double>
                var legacy: Int!
                var tags: [Identifier<Tag>] = []
                let kind = "article"
                var `default`: Bool
                var summary: String { title }
                var observed: Int { didSet { print(observed) } }
                var proxied: Int { get { 1 } set {} }
            }
            """,
            """
            public struct Article: JSONAPIResource {
                static let resourceType = "articles"
                public var id: String
                var title: String, subtitle: String?
                var rating: Optional<Double>
                var legacy: Int!
                var tags: [Identifier<Tag>] = []
                let kind = "article"
                var `default`: Bool
                var summary: String { title }
                var observed: Int { didSet { print(observed) } }
                var proxied: Int { get { 1 } set {} }
            }

            extension Article: JSONAPI.ResourceReadable {
                public init(from reader: borrowing JSONAPI.ResourceReader) throws {
                    try self.init(
                        id: reader.decode("id"),
                        title: reader.decode("title"),
                        subtitle: reader.decodeIfPresent("subtitle"),
                        rating: reader.decodeIfPresent("rating"),
                        legacy: reader.decodeIfPresent("legacy"),
                        tags: reader.decode("tags", default: []),
                        `default`: reader.decode("default"),
                        observed: reader.decode("observed")
                    )
                }
            }
            """)
    }

    /// A literal default is passed along to the memberwise initializer; an optional's default
    /// is not kept (a missing optional is nil, as for the compiler's `init(from:)`).
    @Test func literalDefaultsAreKeptInTheMemberwiseCall() {
        expand(
            """
            @ResourceReadable
            struct Counter {
                var views: Int = 5
                var ratio: Double = -1.5
                var name: String = "none"
                var status: Status = .draft
                var field: Field<Int> = .value(1)
                var tags: [String: [Int]] = ["a": [1, 2]]
                var label: String? = "x"
            }
            """,
            """
            struct Counter {
                var views: Int = 5
                var ratio: Double = -1.5
                var name: String = "none"
                var status: Status = .draft
                var field: Field<Int> = .value(1)
                var tags: [String: [Int]] = ["a": [1, 2]]
                var label: String? = "x"
            }

            extension Counter: JSONAPI.ResourceReadable {
                init(from reader: borrowing JSONAPI.ResourceReader) throws {
                    try self.init(
                        views: reader.decode("views", default: 5),
                        ratio: reader.decode("ratio", default: -1.5),
                        name: reader.decode("name", default: "none"),
                        status: reader.decode("status", default: .draft),
                        field: reader.decode("field", default: .value(1)),
                        tags: reader.decode("tags", default: ["a": [1, 2]]),
                        label: reader.decodeIfPresent("label")
                    )
                }
            }
            """)
    }

    /// A default that names something (a call, a type of the enclosing scope) may mean
    /// something else in the extension: each property is assigned, and the default read from
    /// the property, which holds it already.
    @Test(arguments: ["Date()", "Mode.fast", "Self.fallback", #""\(1)""#, "[Mode.fast]"])
    func otherDefaultsAreReadFromTheProperty(initial: String) {
        expand(
            """
            @ResourceReadable
            struct Stamp {
                var id: String
                var value: Thing = \(initial)
            }
            """,
            """
            struct Stamp {
                var id: String
                var value: Thing = \(initial)
            }

            extension Stamp: JSONAPI.ResourceReadable {
                init(from reader: borrowing JSONAPI.ResourceReader) throws {
                    self.id = try reader.decode("id")
                    self.value = try reader.decode("value", default: self.value)
                }
            }
            """)
    }

    @Test func codingKeysRenameAndSelect() {
        expand(
            #"""
            @ResourceReadable
            struct Links {
                var selfLink: String
                var related: String?
                var cached: Int = 0

                enum CodingKeys: String, CodingKey {
                    case selfLink = "self"
                    case related, `quoted` = "a \"b\"\n"
                }
            }
            """#,
            #"""
            struct Links {
                var selfLink: String
                var related: String?
                var cached: Int = 0

                enum CodingKeys: String, CodingKey {
                    case selfLink = "self"
                    case related, `quoted` = "a \"b\"\n"
                }
            }

            extension Links: JSONAPI.ResourceReadable {
                init(from reader: borrowing JSONAPI.ResourceReader) throws {
                    try self.init(
                        selfLink: reader.decode("self"),
                        related: reader.decodeIfPresent("related")
                    )
                }
            }
            """#)
    }

    /// Without a memberwise initializer (or when it may be out of reach), each property is
    /// assigned in turn.
    @Test(arguments: [
        "init(name: String) { self.name = name }",
        "private var secret: Int?",
        "fileprivate var secret: Int?",
        "@Wrapped var secret: Int?",
        "#if DEBUG\n    var secret: Int?\n    #endif",
        "#declareSomething",
    ])
    func propertiesAreAssignedWhenTheMemberwiseInitializerMayBeMissing(member: String) {
        let reads =
            member.contains("secret") && !member.hasPrefix("#if")
            ? "\n        self.secret = try reader.decodeIfPresent(\"secret\")" : ""
        expand(
            """
            @ResourceReadable
            struct Tag {
                var name: String
                \(member)
            }
            """,
            """
            struct Tag {
                var name: String
                \(member)
            }

            extension Tag: JSONAPI.ResourceReadable {
                init(from reader: borrowing JSONAPI.ResourceReader) throws {
                    self.name = try reader.decode("name")\(reads)
                }
            }
            """)
    }

    @Test func privateSetAndStaticMembersKeepTheMemberwiseInitializer() {
        expand(
            """
            @ResourceReadable
            struct Tag {
                private(set) var name: String
                private static var count = 0
            }
            """,
            """
            struct Tag {
                private(set) var name: String
                private static var count = 0
            }

            extension Tag: JSONAPI.ResourceReadable {
                init(from reader: borrowing JSONAPI.ResourceReader) throws {
                    try self.init(
                        name: reader.decode("name")
                    )
                }
            }
            """)
    }

    @Test func unsupportedDeclarationsAreDiagnosed() {
        expand(
            """
            @ResourceReadable
            final class Person {
                var id: String = ""
            }
            """,
            """
            final class Person {
                var id: String = ""
            }
            """,
            diagnostics: [
                DiagnosticSpec(
                    message:
                        "@ResourceReadable applies to structs, and to enums whose cases each carry one model (a class keeps its init(from: any Decoder))",
                    line: 1, column: 1)
            ])
        expand(
            """
            @ResourceReadable
            struct Point {
                var count = 0
                lazy var cache: Int = 1
                var (a, b): (Int, Int)
            }
            """,
            """
            struct Point {
                var count = 0
                lazy var cache: Int = 1
                var (a, b): (Int, Int)
            }
            """,
            diagnostics: [
                DiagnosticSpec(
                    message: "@ResourceReadable needs the type of 'count' written out (': Type')", line: 3, column: 9),
                DiagnosticSpec(
                    message: "@ResourceReadable cannot read a lazy property; make it a stored or computed property",
                    line: 4, column: 5),
                DiagnosticSpec(
                    message: "@ResourceReadable reads properties declared one name at a time, not tuple patterns",
                    line: 5, column: 9),
            ])
        expand(
            """
            @ResourceReadable
            struct Keyed {
                var a: Int
                enum CodingKeys: String, CodingKey {
                    case a = "x\\(1)"
                }
            }
            """,
            """
            struct Keyed {
                var a: Int
                enum CodingKeys: String, CodingKey {
                    case a = "x\\(1)"
                }
            }
            """,
            diagnostics: [
                DiagnosticSpec(
                    message: "@ResourceReadable needs each CodingKeys raw value to be a plain string literal", line: 5,
                    column: 18)
            ])
    }

    @Test func anExistingConformanceGetsTheInitializerOnly() {
        assertExpansion(
            """
            @ResourceReadable
            struct Tag: ResourceReadable {
                var name: String
            }
            """,
            """
            struct Tag: ResourceReadable {
                var name: String
            }

            extension Tag {
                init(from reader: borrowing JSONAPI.ResourceReader) throws {
                    try self.init(
                        name: reader.decode("name")
                    )
                }
            }
            """,
            conformances: [])
    }
}
