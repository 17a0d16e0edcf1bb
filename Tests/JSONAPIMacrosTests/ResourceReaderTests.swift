import Foundation
import JSONAPI
import JSONAPIGenerator
import JSONAPIGeneratorModels
import JSONAPIMacros
import Testing

@testable import JSONAPITestSupport

// `@ResourceReadable` models decode through `init(from: ResourceReader)`; each test decodes the
// same models with `usesResourceReaders` on and off and requires the same values, or the same
// error (description, coding path, JSON Pointer, line and column), from both paths.

@ResourceReadable
struct ReaderPerson: Decodable, Equatable, JSONAPIResource {
    static let resourceType = "people"
    var id: String
    var firstName: String
    var lastName: String
    var twitter: String?
    var x: Int?
}

@ResourceReadable
struct ReaderComment: Decodable, Equatable, JSONAPIResource {
    static let resourceType = "comments"
    var id: Int
    var body: String
    var author: ReaderPerson?
}

@ResourceReadable
struct ReaderArticle: Decodable, Equatable, JSONAPIResource {
    static let resourceType = "articles"
    var id: String
    var headline: String
    var author: ReaderPerson
    var authorLinks: ReaderLinks?
    var comments: [ReaderComment]
    var selfLink: ReaderLinks?
    var version: Int = 0
    let kind = "article"
    var summary: String { "\(headline) by \(author.firstName)" }

    enum CodingKeys: String, CodingKey {
        case id, author, comments
        case headline = "title"
        case authorLinks = "author.links"
        case selfLink = "links"
    }
}

@ResourceReadable
struct ReaderLinks: Decodable, Equatable {
    var selfLink: String?
    var related: String?

    enum CodingKeys: String, CodingKey {
        case selfLink = "self"
        case related
    }
}

@ResourceReadable
struct ReaderMetrics: Decodable, Equatable {
    var views: Int
    var ratio: Double
    var flags: [Bool]
    var tags: [String: Int]
    var nested: ReaderNested?
}

@ResourceReadable
struct ReaderNested: Decodable, Equatable {
    var label: String
    var when: Date
}

@ResourceReadable
struct ReaderDraft: Decodable, Equatable, JSONAPIResource {
    static let resourceType = "drafts"
    var id: UUID
    var lid: String?
    var firstTitle: String
    var metrics: ReaderMetrics
    var note: Field<String>
    var published: Optional<Bool>
    var meta: [String: Int]?
}

@ResourceReadable
struct ReaderEnvelope<Payload: Decodable & Equatable>: Decodable, Equatable {
    var payload: Payload
    var note: String?
}

@ResourceReadable
struct ReaderPoint: Decodable, Equatable {
    var x: Int
    var y: Int
}

@ResourceReadable
struct ReaderShape: Decodable, Equatable, JSONAPIResource {
    static let resourceType = "shapes"
    var id: String
    var origin: ReaderPoint
    var tagged: ReaderEnvelope<[Int]>?
}

enum ReaderContributor: ResourceUnion, Equatable {
    case person(ReaderPerson)
    case comment(ReaderComment)

    static let members: [ResourceUnionMember<ReaderContributor>] = [
        .member(ReaderPerson.self, ReaderContributor.person),
        .member(ReaderComment.self, ReaderContributor.comment),
    ]
}

@ResourceReadable
struct ReaderBoard: Decodable, JSONAPIResource {
    static let resourceType = "boards"
    var id: String
    var members: [ReaderContributor]
    var owner: Lazy<ReaderPerson>
    var reviewerID: Identifier<ReaderPerson>

    enum CodingKeys: String, CodingKey {
        case id, members, owner
        case reviewerID = "reviewer"
    }
}

@ResourceReadable
struct ReaderCyclicPerson: Decodable, JSONAPIResource {
    static let resourceType = "people"
    var id: String
    var articles: [ReaderCyclicArticle]
}

@ResourceReadable
struct ReaderCyclicArticle: Decodable, JSONAPIResource {
    static let resourceType = "articles"
    var id: String
    var author: ReaderCyclicPerson
}

@Suite("Resource readers (@ResourceReadable)")
struct ResourceReaderTests {
    /// Decodes `type` from `text` both ways and requires equal values; returns the value.
    @discardableResult
    func decodeBothWays<T: Decodable & Equatable>(
        _ type: T.Type, _ text: String, _ configure: (inout DecodingOptions) -> Void = { _ in }
    ) throws -> T {
        var options = DecodingOptions()
        configure(&options)
        let read = try JSONAPIDecoder(options: options).decode(T.self, from: Array(text.utf8))
        options.usesResourceReaders = false
        let decoded = try JSONAPIDecoder(options: options).decode(T.self, from: Array(text.utf8))
        #expect(read == decoded)
        return read
    }

    /// The error each path throws for `type` from `text`, described in full.
    func errorsBothWays<T: Decodable>(
        _ type: T.Type, _ text: String, _ configure: (inout DecodingOptions) -> Void = { _ in }
    ) -> (reader: String, decoder: String) {
        var options = DecodingOptions()
        configure(&options)
        func describe(_ options: DecodingOptions) -> String {
            do {
                let value = try JSONAPIDecoder(options: options).decode(T.self, from: Array(text.utf8))
                return "decoded \(value)"
            } catch let error as DecodingError {
                return "\(error.path) | \(error.debugDescription)"
            } catch {
                return "\(error)"
            }
        }
        let reader = describe(options)
        options.usesResourceReaders = false
        return (reader, describe(options))
    }

    @Test func theSpecificationsCompoundDocumentDecodesTheSameBothWays() throws {
        let articles = try decodeBothWays([ReaderArticle].self, specCompoundDocument)
        #expect(articles.count == 1)
        let article = try #require(articles.first)
        #expect(article.headline == "JSON:API paints my bikeshed!")
        #expect(article.author.firstName == "Dan")
        #expect(article.author.twitter == "dgeb")
        #expect(article.authorLinks?.related == "http://example.com/articles/1/author")
        #expect(article.selfLink?.selfLink == "http://example.com/articles/1")
        #expect(article.comments.map(\.id) == [5, 12])
        #expect(article.comments.map(\.body) == ["First!", "I like XML better"])
        // Comment 5's author (people/2) is not included: an optional to-one is nil.
        #expect(article.comments[0].author == nil)
        #expect(article.comments[1].author?.lastName == "Gebhardt")
        // Not in CodingKeys: keeps its initial value; a `let` with a value is never read.
        #expect(article.version == 0)
        #expect(article.kind == "article")
        #expect(article.summary == "JSON:API paints my bikeshed! by Dan")
    }

    static let draft = #"""
        {"data": {"type": "drafts", "id": "9a7e3f56-4c1b-4f7e-8d2a-1b2c3d4e5f60", "lid": "local-1",
          "attributes": {
            "first_title": "Caf\u00e9 \"quoted\"", "published": null,
            "metrics": {"views": 12, "ratio": 0.5, "flags": [true, false], "tags": {"a": 1, "b": 2},
                        "nested": {"label": "n", "when": "2024-02-29T12:30:00.250Z"}}
          },
          "meta": {"revision": 3}}}
        """#

    @Test func valuesStrategiesAndAbsentVersusNullMatchTheDecoderPath() throws {
        let draft = try decodeBothWays(ReaderDraft.self, Self.draft) { $0.keyDecodingStrategy = .convertFromSnakeCase }
        #expect(draft.id == UUID(uuidString: "9A7E3F56-4C1B-4F7E-8D2A-1B2C3D4E5F60"))
        #expect(draft.lid == "local-1")
        #expect(draft.firstTitle == "Café \"quoted\"")
        #expect(draft.metrics.flags == [true, false])
        #expect(draft.metrics.tags == ["a": 1, "b": 2])
        #expect(draft.metrics.nested?.when == Date(timeIntervalSince1970: 1_709_209_800.25))
        #expect(draft.note == .absent)
        #expect(draft.published == nil)
        #expect(draft.meta == ["revision": 3])
    }

    @Test func theMacroAloneMakesAModelDecodable() throws {
        let text = #"{"data": {"type": "things", "id": "1", "attributes": {"name": "n"}}}"#
        #expect(try decodeBothWays(ReaderUndeclared.self, text) == ReaderUndeclared(id: "1", name: "n"))
    }

    @Test func modelsWithoutAMemberwiseInitializerReadTheSame() throws {
        let text = #"{"data": {"type": "people", "id": "1", "attributes": {"firstName": "Ann", "lastName": "Lee"}}}"#
        let declared = try decodeBothWays(ReaderWithInitializer.self, text)
        #expect(declared == ReaderWithInitializer(id: "1", firstName: "Ann", twitter: nil))
        #expect(try decodeBothWays(ReaderWithPrivateMember.self, text).surname == "Lee")
        let missing = errorsBothWays(ReaderWithPrivateMember.self, text.replacingOccurrences(of: "lastName", with: "x"))
        #expect(missing.reader == missing.decoder)
        #expect(missing.reader.contains("`lastName`"))
    }

    @Test func oneCharacterKeysWork() throws {
        // A one-scalar literal makes a `StaticString` without a pointer representation.
        let text =
            #"{"data": {"type": "people", "id": "1", "attributes": {"firstName": "A", "lastName": "B", "x": 7}}}"#
        let person = try decodeBothWays(ReaderPerson.self, text)
        #expect(person.x == 7)
        let shape = #"{"data": {"type": "shapes", "id": "1", "attributes": {"origin": {"x": 1, "y": 2}}}}"#
        #expect(try decodeBothWays(ReaderShape.self, shape).origin == ReaderPoint(x: 1, y: 2))
        // A generic readable struct.
        let tagged = shape.replacingOccurrences(
            of: #""y": 2}"#, with: #""y": 2}, "tagged": {"payload": [3, 4], "note": null}"#)
        #expect(try decodeBothWays(ReaderShape.self, tagged).tagged == ReaderEnvelope(payload: [3, 4]))
        let missing = errorsBothWays(ReaderShape.self, shape.replacingOccurrences(of: #", "y": 2"#, with: ""))
        #expect(missing.reader == missing.decoder)
        #expect(missing.reader.contains("`y`"))
        // A readable type decoded from the document itself reads its top-level members.
        let top = errorsBothWays(ReaderPoint.self, shape)
        #expect(top.reader == top.decoder)
    }

    @Test(arguments: [
        // A missing required member.
        #"{"data": {"type": "people", "id": "1", "attributes": {"firstName": "A"}}}"#,
        // A type mismatch, with its place.
        #"{"data": {"type": "people", "id": "1", "attributes": {"firstName": "A", "lastName": 5}}}"#,
        // Null for a non-optional.
        #"{"data": {"type": "people", "id": "1", "attributes": {"firstName": null, "lastName": "B"}}}"#,
        // The wrong resource type.
        #"{"data": {"type": "articles", "id": "1", "attributes": {"firstName": "A", "lastName": "B"}}}"#,
        // Not a resource at all.
        #"{"data": null}"#,
    ])
    func errorsMatchTheDecoderPath(text: String) {
        let errors = errorsBothWays(ReaderPerson.self, text)
        #expect(errors.reader == errors.decoder)
        #expect(!errors.reader.hasPrefix("decoded"))
    }

    @Test func nestedErrorsCarryTheWholePathAndPointer() {
        let text = Self.draft.replacingOccurrences(of: #""ratio": 0.5"#, with: #""ratio": "half""#)
        let errors = errorsBothWays(ReaderDraft.self, text) { $0.keyDecodingStrategy = .convertFromSnakeCase }
        #expect(errors.reader == errors.decoder)
        #expect(errors.reader.contains("metrics.ratio"))
        #expect(errors.reader.contains("/data/attributes/metrics/ratio"))
        let notAnObject = Self.draft.replacingOccurrences(
            of: #""nested": {"label": "n", "when": "2024-02-29T12:30:00.250Z"}"#, with: #""nested": [1]"#)
        let nested = errorsBothWays(ReaderDraft.self, notAnObject) { $0.keyDecodingStrategy = .convertFromSnakeCase }
        #expect(nested.reader == nested.decoder)
        #expect(nested.reader.contains("metrics.nested"))
    }

    @Test func missingRelatedResourcesFailOrAreSkippedAsOptionsSay() throws {
        let text = specCompoundDocument.replacingOccurrences(of: #""id": "9","#, with: #""id": "90","#)
        let errors = errorsBothWays([ReaderArticle].self, text)
        #expect(errors.reader == errors.decoder)
        #expect(errors.reader.contains("people"))
        #expect(errors.reader.contains("9"))
        // Skipping: a to-many element whose resource is missing is left out and reported.
        let missingComment = specCompoundDocument.replacingOccurrences(
            of: #"{ "type": "comments", "id": "12" }"#, with: #"{ "type": "comments", "id": "404" }"#)
        func report(_ readers: Bool) throws -> DecodingReport<[ReaderArticle]> {
            var options = DecodingOptions()
            options.ignoresMissingResources = true
            options.usesResourceReaders = readers
            return try JSONAPIDecoder(options: options).decodeReporting(
                [ReaderArticle].self, from: Array(missingComment.utf8))
        }
        let read = try report(true)
        let decoded = try report(false)
        #expect(read.value == decoded.value)
        #expect(read.value.first?.comments.map(\.id) == [5])
        #expect(read.skipped == decoded.skipped)
        #expect(read.skipped.map(\.identifier.description).contains("comments/404"))
    }

    static let board = """
        {"data": {"type": "boards", "id": "b",
          "relationships": {
            "members": {"data": [{"type": "people", "id": "9"}, {"type": "comments", "id": "5"},
                                 {"type": "tags", "id": "1"}]},
            "owner": {"data": {"type": "people", "id": "9"}},
            "reviewer": {"data": {"type": "people", "id": "404"}}}},
         "included": [
          {"type": "people", "id": "9", "attributes": {"firstName": "Dan", "lastName": "Gebhardt"}},
          {"type": "comments", "id": "5", "attributes": {"body": "First!"}},
          {"type": "tags", "id": "1"}]}
        """

    @Test func unionsLazyReferencesAndIdentifiers() throws {
        let decoder = JSONAPIDecoder()
        decoder.ignoresUnhandledResourceTypes = true
        let report = try decoder.decodeReporting(ReaderBoard.self, from: Array(Self.board.utf8))
        let board = report.value
        #expect(
            board.members == [
                .person(ReaderPerson(id: "9", firstName: "Dan", lastName: "Gebhardt")),
                .comment(ReaderComment(id: 5, body: "First!")),
            ])
        #expect(report.skipped.map(\.identifier.description) == ["tags/1"])
        #expect(board.reviewerID.id == "404")
        #expect(try board.owner.resolve().lastName == "Gebhardt")
        // Without the option, the unknown type fails both ways alike.
        let errors = errorsBothWays(ReaderBoard.self, Self.board)
        #expect(errors.reader == errors.decoder)
        #expect(errors.reader.contains("tags"))
    }

    @Test func cyclesStopWithTheSameError() {
        let text = """
            {"data": {"type": "people", "id": "1",
              "relationships": {"articles": {"data": [{"type": "articles", "id": "2"}]}}},
             "included": [{"type": "articles", "id": "2",
              "relationships": {"author": {"data": {"type": "people", "id": "1"}}}}]}
            """
        let errors = errorsBothWays(ReaderCyclicPerson.self, text)
        #expect(errors.reader == errors.decoder)
        #expect(errors.reader.contains("cycle"))
    }

    @Test func theGeneratedDocumentDecodesTheSameBothWays() throws {
        let bytes = CompoundDocumentGenerator(resources: 400, seed: 7).generate()
        let document = try Document(parsing: bytes)
        var off = DecodingOptions()
        off.usesResourceReaders = false
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        func both<T: Decodable & Encodable>(_ read: TypedResourceCollection<T>, _ decoded: TypedResourceCollection<T>)
            throws
        {
            let left = try read.decodeAll()
            let right = try decoded.decodeAll()
            #expect(left.count == right.count)
            #expect(!left.isEmpty)
            #expect(try encoder.encode(left) == encoder.encode(right))
        }
        try both(
            document.primary(as: GeneratedModels.Article.self),
            document.primary(as: GeneratedModels.Article.self, options: off))
        try both(
            document.included(of: GeneratedModels.Person.self),
            document.included(of: GeneratedModels.Person.self, options: off))
        try both(
            document.included(of: GeneratedModels.Comment.self),
            document.included(of: GeneratedModels.Comment.self, options: off))
        try both(
            document.primary(as: GeneratedModels.ArticleWithAuthor.self),
            document.primary(as: GeneratedModels.ArticleWithAuthor.self, options: off))
    }

    @Test func oneDocumentDecodesFromManyTasks() async throws {
        let document = try parse(specCompoundDocument)
        let expected = try document.primary(as: ReaderArticle.self).decodeAll()
        try await withThrowingTaskGroup(of: [ReaderArticle].self) { group in
            for _ in 0..<16 {
                group.addTask { try document.primary(as: ReaderArticle.self).decodeAll() }
            }
            for try await articles in group {
                #expect(articles == expected)
            }
        }
    }
}

/// `Decodable` comes with the macro's conformance (the compiler synthesizes `init(from:)`).
@ResourceReadable
struct ReaderUndeclared: Equatable, JSONAPIResource {
    static let resourceType = "things"
    var id: String
    var name: String
}

/// Declares an initializer, so it has no memberwise initializer: the macro assigns each
/// property.
@ResourceReadable
struct ReaderWithInitializer: Decodable, Equatable, JSONAPIResource {
    static let resourceType = "people"
    var id: String
    var firstName: String
    var twitter: String?

    init(id: String, firstName: String, twitter: String?) {
        self.id = id
        self.firstName = firstName
        self.twitter = twitter
    }
}

/// A private stored property makes the memberwise initializer private: assigned too.
@ResourceReadable
struct ReaderWithPrivateMember: Decodable, Equatable, JSONAPIResource {
    static let resourceType = "people"
    var id: String
    private var lastName: String
    var surname: String { lastName }
}

/// To-one identifiers, required and optional, which readers take from the linkage record
/// directly when it is plain.
@ResourceReadable
struct ReaderReview: Decodable, Equatable, JSONAPIResource {
    static let resourceType = "reviews"
    var id: String
    var reviewer: Identifier<ReaderPerson>
    var editor: Identifier<ReaderPerson>?
}

extension ResourceReaderTests {
    /// A review whose `reviewer` relationship is `reviewer` and `editor` relationship is
    /// `editor` (raw JSON member text, or nil to leave it out).
    static func review(reviewer: String, editor: String?) -> String {
        let editorMember = editor.map { #", "editor": \#($0)"# } ?? ""
        return #"{"data": {"type": "reviews", "id": "1", "relationships": {"reviewer": \#(reviewer)\#(editorMember)}}}"#
    }

    @Test(arguments: [
        // Plain linkage, to a resource that is not in the document (an identifier needs none).
        #"{"data": {"type": "people", "id": "9"}}"#,
        // An id with escapes.
        #"{"data": {"type": "people", "id": "a\"b\u00e9"}}"#,
        // A 1.1 lid, with and without an id; identifier meta; links beside data.
        #"{"data": {"type": "people", "lid": "local-1"}}"#,
        #"{"data": {"type": "people", "id": "9", "lid": "local-1"}}"#,
        #"{"data": {"type": "people", "id": "9", "meta": {"role": "lead"}}}"#,
        #"{"links": {"related": "/r/1/reviewer"}, "data": {"type": "people", "id": "9"}}"#,
    ])
    func identifiersReadFromLinkageMatchTheDecoderPath(linkage: String) throws {
        let text = Array(Self.review(reviewer: linkage, editor: linkage).utf8)
        var options = DecodingOptions()
        let read = try JSONAPIDecoder(options: options).decode(ReaderReview.self, from: text)
        options.usesResourceReaders = false
        let decoded = try JSONAPIDecoder(options: options).decode(ReaderReview.self, from: text)
        // `==` compares id and lid; `meta` is compared by its description.
        #expect(read == decoded)
        #expect(read.editor == read.reviewer)
        for (readIdentifier, decodedIdentifier) in [(read.reviewer, decoded.reviewer), (read.editor, decoded.editor)] {
            #expect(readIdentifier?.lid == decodedIdentifier?.lid)
            #expect(String(describing: readIdentifier?.meta) == String(describing: decodedIdentifier?.meta))
        }
        if linkage.contains("meta") { #expect(read.editor?.meta != nil) }
        if linkage.contains(#"a"b"#) { #expect(read.reviewer.id == "a\"b\u{e9}") }
    }

    @Test func optionalIdentifiersAreNilForNullAbsentOrNoLinkage() throws {
        let reviewer = #"{"data": {"type": "people", "id": "9"}}"#
        for editor in [nil, #"{"data": null}"#, #"{"links": {"related": "/r/1/editor"}}"#] {
            let review = try decodeBothWays(ReaderReview.self, Self.review(reviewer: reviewer, editor: editor))
            #expect(review.reviewer.id == "9")
            #expect(review.editor == nil)
        }
    }

    @Test(arguments: [
        // The wrong type, a to-many where a to-one is expected, null or absent where required.
        #"{"data": {"type": "tags", "id": "9"}}"#,
        #"{"data": [{"type": "people", "id": "9"}]}"#,
        #"{"data": []}"#,
        #"{"data": null}"#,
        #"{"links": {"related": "/r/1/reviewer"}}"#,
    ])
    func identifierErrorsMatchTheDecoderPath(linkage: String) {
        for text in [
            Self.review(reviewer: linkage, editor: nil),
            Self.review(reviewer: #"{"data": {"type": "people", "id": "9"}}"#, editor: linkage),
        ] {
            let errors = errorsBothWays(ReaderReview.self, text)
            #expect(errors.reader == errors.decoder)
        }
        let missing = errorsBothWays(ReaderReview.self, Self.review(reviewer: linkage, editor: nil))
        #expect(!missing.reader.hasPrefix("decoded"))
    }
}

/// The reader path of the linked-id checks the decoding tests run through `init(from: Decoder)`.
extension ResourceReaderTests {
    @ResourceReadable
    struct Remark: Decodable, LinkedRemark {
        static let resourceType = "remarks"
        var id: String
        var author: Identifier<LinkedAuthor>?
        var cosigners: [Identifier<LinkedAuthor>]?
    }

    @Test func linkedResourcesShareOneIDString() throws {
        try LinkedIDDocuments.expectLinkedResourcesShareOneIDString(Remark.self)
    }

    @Test func sharedIDsDoNotOutliveTheirDocument() throws {
        try LinkedIDDocuments.expectSharedIDsToEndWithTheirDocument(Remark.self)
    }
}
