import Testing

/// The expansions on enums, through the macro plugin the build made for the compiler
/// (``MacroPlugin``).
@Suite("@ResourceReadable expansion on unions")
struct ResourceUnionMacroTests {
    /// Expands `source`; the compiler passes the macro the conformances of its list that the type
    /// does not declare, so `declaresUnion` leaves `ResourceUnion` out of them.
    func expand(
        _ source: String, _ expanded: String, diagnostics: [DiagnosticSpec] = [], declaresUnion: Bool = false,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        assertExpansion(
            source, expanded, diagnostics: diagnostics,
            conformances: declaresUnion ? ["ResourceReadable"] : ["ResourceReadable", "ResourceUnion"],
            sourceLocation: sourceLocation)
    }

    @Test func writesMembersTableAndIdentifierEnum() {
        expand(
            """
            @ResourceReadable
            public enum Contributor: Equatable {
                case person(Person)
                case organization(value: Models.Organization)
            }
            """,
            """
            public enum Contributor: Equatable {
                case person(Person)
                case organization(value: Models.Organization)
            }

            extension Contributor: JSONAPI.ResourceUnion {
                public static let members: [JSONAPI.ResourceUnionMember<Contributor>] = [
                    .member(Contributor.person),
                    .member(Contributor.organization(value:)),
                ]

                public enum ID: JSONAPI.UnionIdentifierConvertible {
                    case person(JSONAPI.Identifier<Person>)
                    case organization(JSONAPI.Identifier<Models.Organization>)

                    public init?(_ identifier: JSONAPI.UnionIdentifier<Contributor>) {
                        if let id = identifier.identifier(as: Person.self) {
                            self = .person(id)
                        } else if let id = identifier.identifier(as: Models.Organization.self) {
                            self = .organization(id)
                        } else {
                            return nil
                        }
                    }

                    public var unionIdentifier: JSONAPI.UnionIdentifier<Contributor> {
                        switch self {
                        case .person(let id):
                            JSONAPI.UnionIdentifier(id, as: Contributor.person)
                        case .organization(let id):
                            JSONAPI.UnionIdentifier(id, as: Contributor.organization(value:))
                        }
                    }
                }
            }
            """)
    }

    @Test func keepsWhatTheEnumDeclares() {
        // Conforming already, with its own table: only the identifier enum is written.
        expand(
            """
            @ResourceReadable
            enum Attachment: ResourceUnion {
                case image(Image)
                static let members: [ResourceUnionMember<Attachment>] = [.member(Image.self, Attachment.image)]
            }
            """,
            """
            enum Attachment: ResourceUnion {
                case image(Image)
                static let members: [ResourceUnionMember<Attachment>] = [.member(Image.self, Attachment.image)]
            }

            extension Attachment {
                enum ID: JSONAPI.UnionIdentifierConvertible {
                    case image(JSONAPI.Identifier<Image>)

                    init?(_ identifier: JSONAPI.UnionIdentifier<Attachment>) {
                        if let id = identifier.identifier(as: Image.self) {
                            self = .image(id)
                        } else {
                            return nil
                        }
                    }

                    var unionIdentifier: JSONAPI.UnionIdentifier<Attachment> {
                        switch self {
                        case .image(let id):
                            JSONAPI.UnionIdentifier(id, as: Attachment.image)
                        }
                    }
                }
            }
            """,
            declaresUnion: true)
        expand(
            """
            @ResourceReadable
            enum Attachment {
                case image(Image)
                typealias ID = UnionIdentifier<Attachment>
            }
            """,
            """
            enum Attachment {
                case image(Image)
                typealias ID = UnionIdentifier<Attachment>
            }

            extension Attachment: JSONAPI.ResourceUnion {
                static let members: [JSONAPI.ResourceUnionMember<Attachment>] = [
                    .member(Attachment.image),
                ]
            }
            """)
    }

    @Test func casesThatCannotBeMembersAreDiagnosed() {
        expand(
            """
            @ResourceReadable
            enum Attachment {
                case image(Image)
                case none
                case pair(Image, Audio)
                case maybe(Audio?)
                case list([Audio])
                case again(Image)
                case fallback(Image = Image())
            }
            """,
            """
            enum Attachment {
                case image(Image)
                case none
                case pair(Image, Audio)
                case maybe(Audio?)
                case list([Audio])
                case again(Image)
                case fallback(Image = Image())
            }
            """,
            diagnostics: [
                DiagnosticSpec(
                    message:
                        "@ResourceReadable: case 'none' carries no value; each case of a union carries exactly one model, such as 'case none(Model)'",
                    line: 4, column: 10),
                DiagnosticSpec(
                    message:
                        "@ResourceReadable: case 'pair' carries 2 values; each case of a union carries exactly one model, such as 'case pair(Model)'",
                    line: 5, column: 10),
                DiagnosticSpec(
                    message:
                        "@ResourceReadable: case 'maybe' carries 'Audio?', which cannot be a model; each case carries one JSONAPIResource type, such as 'case maybe(Model)'",
                    line: 6, column: 16),
                DiagnosticSpec(
                    message:
                        "@ResourceReadable: case 'list' carries '[Audio]', which cannot be a model; each case carries one JSONAPIResource type, such as 'case list(Model)'",
                    line: 7, column: 15),
                DiagnosticSpec(
                    message:
                        "@ResourceReadable: cases 'image' and 'again' both carry 'Image'; a resource's type must pick exactly one case",
                    line: 8, column: 10),
                DiagnosticSpec(
                    message:
                        "@ResourceReadable: case 'fallback' gives its model a default value; a union's case carries the decoded model only",
                    line: 9, column: 19),
            ])
    }

    @Test func enumsThatCannotBeUnionsAreDiagnosed() {
        expand(
            """
            @ResourceReadable
            enum Empty {
                static let count = 0
            }
            """,
            """
            enum Empty {
                static let count = 0
            }
            """,
            diagnostics: [
                DiagnosticSpec(
                    message:
                        "@ResourceReadable on an enum makes it a ResourceUnion, which needs at least one case carrying a model, such as 'case person(Person)'",
                    line: 1, column: 1)
            ])
        expand(
            """
            @ResourceReadable
            enum Box<Model> {
                case one(Model)
            }
            """,
            """
            enum Box<Model> {
                case one(Model)
            }
            """,
            diagnostics: [
                DiagnosticSpec(
                    message:
                        "@ResourceReadable cannot make a generic enum a ResourceUnion (its members table is a static stored property); write the conformance by hand",
                    line: 2, column: 9)
            ])
        expand(
            """
            @ResourceReadable
            enum Conditional {
                case person(Person)
                #if DEBUG
                case robot(Robot)
                #endif
            }
            """,
            """
            enum Conditional {
                case person(Person)
                #if DEBUG
                case robot(Robot)
                #endif
            }
            """,
            diagnostics: [
                DiagnosticSpec(
                    message:
                        "@ResourceReadable cannot read cases inside '#if'; declare the union's cases unconditionally or write its members table by hand",
                    line: 4, column: 5)
            ])
    }
}
