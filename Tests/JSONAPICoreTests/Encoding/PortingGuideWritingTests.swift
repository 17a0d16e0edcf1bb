import Foundation
import JSONAPI
import Testing

@testable import JSONAPITestSupport

/// The writing examples of the porting guide (Porting.md, "Writing documents and request
/// bodies" and its sections per library), copied as they are written there and run, with the
/// output parsed back, so the guide cannot drift from the API. Each test names the section it
/// mirrors; the `@ResourceReadable` union examples are with the macro's tests.
@Suite("Porting guide: writing")
struct PortingGuideWritingTests {
    struct Person: Codable, JSONAPIResource {
        static let resourceType = "people"
        var id: String
        var name: String
    }

    struct Tag: Codable, JSONAPIResource {
        static let resourceType = "tags"
        var id: String
    }

    // MARK: "Writing documents and request bodies"

    struct Article: Codable, JSONAPIResource {
        static let resourceType = "articles"
        var id: String
        var title: String
        var author: Person  // linkage, and the person in `included`
        var tags: [Identifier<Tag>]  // linkage only
    }

    static let articles = [
        Article(id: "1", title: "One", author: Person(id: "9", name: "Dan"), tags: [Identifier<Tag>("t")]),
        Article(id: "2", title: "Two", author: Person(id: "9", name: "Dan"), tags: []),
    ]

    @Test("Writing documents and request bodies")
    func writingDocuments() throws {
        let articles = Self.articles

        let encoder = JSONAPIEncoder()
        encoder.keyEncodingStrategy = .convertToKebabCase
        encoder.includePaths = ["author"]  // the request's `include`; `included` is then always written
        encoder.options.prettyPrinted = true  // or options.sortsKeys, or options.formatting (indent, slashes)
        let body = try encoder.encode(articles, meta: ["total": 2], links: ["next": "/articles?page[number]=2"])

        let text = String(decoding: body, as: UTF8.self)
        #expect(text.hasPrefix("{\n  \"data\": ["))
        let document = try Document(parsing: body)
        #expect(document.primaryResources.map(\.id) == ["1", "2"])
        #expect(document.included.map(\.id) == ["9"])
        #expect(document.meta?["total"]?.int64Value == 2)
        #expect(document.links?["next"]?.href == "/articles?page[number]=2")
        #expect(document.primaryResources[0].relationship("tags")?.identifiers.map(\.id) == ["t"])

        // Nothing to include, and the request had `include`: `"included": []` all the same.
        let empty = String(decoding: try encoder.encode([Article]()), as: UTF8.self)
        #expect(empty.contains(#""included": []"#))
    }

    // The table of what to write and the call that writes it.

    struct Draft: Codable, JSONAPIResource {
        static let resourceType = "articles"
        var id: String
        var lid: String?
        var title: String
        var tags: [Identifier<Tag>]
    }

    struct ArticleUpdate: Encodable, JSONAPIResource {
        static let resourceType = "articles"
        var id: String
        var title: Field<String> = .absent
        var subtitle: Field<String> = .absent
        var author: Field<Identifier<Person>> = .absent
    }

    @Test("Writing documents and request bodies: the table")
    func writingTable() throws {
        let encoder = JSONAPIEncoder()
        // A response: one model, an array, `nil` (`"data": null`).
        let one = try Document(parsing: try encoder.encode(Self.articles[0]))
        #expect(one.primaryResources.map(\.id) == ["1"])
        let none = try Document(parsing: try encoder.encode(Article?.none, jsonapiVersion: "1.1"))
        #expect(none.primaryResources.isEmpty && none.jsonapi?.version == "1.1")
        let more = try Document(
            parsing: try encoder.encode(
                [Self.articles[1]], meta: nil, links: nil, jsonapi: nil, jsonapiVersion: nil,
                included: [Person(id: "3", name: "Ann")]))
        // Models given in `included:` are written, beside the related ones present (no request).
        #expect(Set(more.included.map(\.id)) == ["3", "9"])

        // A create body: `id` only when not empty, 1.1 `lid`, linkage only.
        let create = try encoder.encodeCreate(Draft(id: "", lid: "tmp-1", title: "New", tags: [Identifier<Tag>("t")]))
        let created = try Document(parsing: create, options: ParsingOptions(kind: .createRequest))
        #expect(created.primaryResources[0].id == nil && created.primaryResources[0].lid == "tmp-1")
        #expect(created.included.isEmpty)

        // An update body: `Field.absent` left out, `Field.null` written as `null`.
        let update = try encoder.encodeUpdate(ArticleUpdate(id: "1", title: .value("New"), subtitle: .null))
        let updated = try Document(parsing: update, options: ParsingOptions(kind: .updateRequest))
        let attributes = updated.primaryResources[0].attributes
        #expect(attributes["title"]?.stringValue == "New")
        #expect(attributes["subtitle"]?.isNull == true)
        #expect(updated.primaryResources[0].relationship("author") == nil)

        // A relationship body: replace, add, remove.
        for (update, method) in [
            (RelationshipUpdate.toOne(Identifier<Person>("9")), "PATCH"),
            (RelationshipUpdate.toMany([Identifier<Tag>("t")]), "PATCH"), (.add([Identifier<Tag>("t")]), "POST"),
            (.remove([Identifier<Tag>("t")]), "DELETE"),
        ] {
            #expect(update.method == method)
            let body = try encoder.encode(update)
            _ = try Document(parsing: body, options: ParsingOptions(kind: .relationshipUpdate))
        }

        // An error document, and any error through `JSONAPIErrorConvertible`.
        let errors = try JSONAPIErrorDocument(errors: [JSONAPIErrorObject(status: 404, title: "Not Found")]).jsonBytes()
        #expect(String(decoding: errors, as: UTF8.self) == #"{"errors":[{"status":"404","title":"Not Found"}]}"#)
        let failure: any JSONAPIErrorConvertible = DecodingError.dataCorrupted(
            DecodingError.Context(codingPath: [], debugDescription: "bad"))
        #expect(failure.jsonapiErrors.map(\.status) == ["422"])

        // Atomic Operations: `add`, `update`, `remove` operations, `lid` references.
        var request = AtomicOperationsDocument()
        request.add(JSONAPIResourceObject(type: "people", lid: "a", attributes: ["name": "Ann"]))
        request.update(JSONAPIResourceObject(type: "articles", id: "1", attributes: ["title": "T"]))
        request.remove(ResourceIdentifier(type: "tags", id: "t"))
        #expect(
            try String(decoding: request.jsonBytes(), as: UTF8.self).hasPrefix(#"{"atomic:operations":[{"op":"add""#))
    }

    // MARK: "From DataDog/swift-jsonapi"

    struct Dated: Codable, JSONAPIResource {
        static let resourceType = "events"
        var id: String
        var startsAt: Date
        var zebra: [String: Int]
    }

    struct Writer: Codable, Equatable, JSONAPIResource {
        static let resourceType = "people"
        var id: String
        var name: String
    }

    struct Remark: Codable, Equatable, JSONAPIResource {
        static let resourceType = "comments"
        var id: String
        var body: String
        var author: Writer?
    }

    struct Post: Codable, Equatable, JSONAPIResource {
        static let resourceType = "articles"
        var id: String
        var title: String
        var author: Writer
        var comments: [Remark]
    }

    /// DataDog's round trip: `JSONAPIEncoder().encode(articles)` writes every related model into
    /// `included`, and decoding the document gives the same articles back, related models and
    /// their own related models resolved. With a request, its `include` decides instead.
    @Test("From DataDog/swift-jsonapi: encode, then decode back equal")
    func dataDogRoundTrip() throws {
        let dan = Writer(id: "9", name: "Dan")
        let ann = Writer(id: "3", name: "Ann")
        let posts = [
            Post(
                id: "1", title: "One", author: dan,
                comments: [Remark(id: "c1", body: "Hi", author: ann), Remark(id: "c2", body: "Yo", author: nil)]),
            Post(id: "2", title: "Two", author: ann, comments: [Remark(id: "c3", body: "Me", author: ann)]),
        ]
        let body = try JSONAPIEncoder().encode(posts)
        #expect(try JSONAPIDecoder().decode([Post].self, from: body) == posts)
        let document = try Document(parsing: body)
        #expect(
            Set(document.included.map { "\($0.type)/\($0.id ?? "")" }) == [
                "people/9", "people/3", "comments/c1", "comments/c2", "comments/c3",
            ])
        #expect(document.included.count == 5)  // each once

        // A request without `include`: no `included`; with one, exactly its paths.
        let bare = try Document(
            parsing: try JSONAPIEncoder(options: EncodingOptions(query: JSONAPIQuery())).encode(posts))
        #expect(!bare.hasIncluded)
        var rules = QueryRules()
        rules.includePaths = .any
        let asked = try JSONAPIQuery(parsing: "include=comments", rules: rules)
        let some = try Document(parsing: try JSONAPIEncoder(options: EncodingOptions(query: asked)).encode(posts))
        #expect(Set(some.included.map(\.type)) == ["comments"])
        // An endpoint that includes by default, for a request that did not ask.
        var endpoint = EncodingOptions(query: JSONAPIQuery())
        endpoint.includesRelatedByDefault = true
        #expect(try Document(parsing: try JSONAPIEncoder(options: endpoint).encode(posts)).included.count == 5)
    }

    @Test("From DataDog/swift-jsonapi")
    func fromDataDog() throws {
        let model = Dated(id: "1", startsAt: Date(timeIntervalSince1970: 0), zebra: ["b": 1, "a": 2])
        _ = try JSONAPIEncoder().encode(model)

        let encoder = JSONAPIEncoder()
        encoder.options.prettyPrinted = true
        encoder.options.sortsKeys = true
        encoder.options.formatting.indent = 4
        encoder.options.formatting.escapesSlashes = true
        encoder.keyEncodingStrategy = .convertToSnakeCase
        encoder.dateEncodingStrategy = .secondsSince1970
        let text = String(decoding: try encoder.encode(model, links: ["self": "/events/1"]), as: UTF8.self)
        #expect(text.contains("\n        \"type\": \"events\""))
        #expect(text.contains(#""starts_at": 0"#))
        #expect(text.contains(#""a": 2,"#))
        #expect(text.contains(#"\/events\/1"#))
    }

    // MARK: "Union identifiers (`Contributor.ID`)", without the macro

    struct Organization: Codable, JSONAPIResource {
        static let resourceType = "organizations"
        var id: String
        var name: String
    }

    enum Contributor: ResourceUnion {
        case person(Person)
        case organization(Organization)

        static let members: [ResourceUnionMember<Contributor>] = [
            .member(Contributor.person), .member(Contributor.organization),
        ]
    }

    struct ArticlePatch: Encodable, JSONAPIResource {
        static let resourceType = "articles"
        var id: String
        var contributors: Field<[Contributor.ID]> = .absent
    }

    struct Credits: Codable, JSONAPIResource {
        static let resourceType = "articles"
        var id = ""
        var contributors: [Contributor.ID]
        var reviewer: Contributor.ID?
    }

    @Test("Union identifiers (Contributor.ID), without the macro")
    func unionIdentifiers() throws {
        let twelve: Contributor.ID = UnionIdentifier(Contributor.person, id: "12")
        let twentyFour = UnionIdentifier(Contributor.organization, id: "24")

        // An update body.
        let patch = try JSONAPIEncoder().encodeUpdate(
            ArticlePatch(id: "1", contributors: .value([twelve, twentyFour])))
        let updated = try Document(parsing: patch, options: ParsingOptions(kind: .updateRequest))
        #expect(
            updated.primaryResources[0].relationship("contributors")?.identifiers.map { "\($0.type)/\($0.id ?? "")" }
                == [
                    "people/12", "organizations/24",
                ])

        // A create body.
        let create = try JSONAPIEncoder().encodeCreate(Credits(contributors: [twelve], reviewer: twentyFour))
        let created = try Document(parsing: create, options: ParsingOptions(kind: .createRequest))
        #expect(created.primaryResources[0].relationship("reviewer")?.identifiers.map(\.id) == ["24"])

        // Bodies for /articles/1/relationships/contributors.
        let replace = RelationshipUpdate.toMany([twelve, twentyFour])
        #expect(replace.method == "PATCH")
        let body = try Document(
            parsing: try JSONAPIEncoder().encode(replace), options: ParsingOptions(kind: .relationshipUpdate))
        #expect(body.primaryIdentifiers.map(\.type) == ["people", "organizations"])
        #expect(RelationshipUpdate.toOne(twelve).method == "PATCH")
        #expect(RelationshipUpdate.add([twelve]).method == "POST")
        #expect(RelationshipUpdate.remove([twelve]).method == "DELETE")

        // Linkage only: no `included` needed; a type that is no member fails naming the members,
        // or with `ignoresUnhandledResourceTypes` is skipped and reported.
        let text = #"""
            {"data": {"type": "articles", "id": "1",
                      "relationships": {"contributors": {"data": [{"type": "people", "id": "12"}, {"type": "robots", "id": "r"}]},
                                        "reviewer": {"data": {"type": "organizations", "id": "24"}}}}}
            """#
        let error = decodingError { try JSONAPIDecoder().decode(Credits.self, from: text) }
        #expect(error?.jsonapiError?.pointer == "/data/relationships/contributors/data/1")
        #expect(error?.jsonapiError?.message.contains("organizations") == true)
        let decoder = JSONAPIDecoder()
        decoder.ignoresUnhandledResourceTypes = true
        let report = try decoder.decodeReporting(Credits.self, from: text)
        #expect(report.value.contributors == [twelve] && report.value.reviewer == twentyFour)
        #expect(report.skipped.map(\.identifier) == [ResourceIdentifier(type: "robots", id: "r")])

        // `ResourceIdentifier`, `Identifier` and `UnionIdentifier` with any encoder.
        let plain = JSONEncoder()
        plain.outputFormatting = .sortedKeys
        #expect(String(decoding: try plain.encode(twelve), as: UTF8.self) == #"{"id":"12","type":"people"}"#)
        #expect(
            String(decoding: try plain.encode(ResourceIdentifier(type: "people", id: "12")), as: UTF8.self)
                == #"{"id":"12","type":"people"}"#)
        #expect(
            String(decoding: try plain.encode(Identifier<Person>("12")), as: UTF8.self)
                == #"{"id":"12","type":"people"}"#)
    }

    // MARK: "From mattpolzin/JSONAPI"

    struct PageMeta: Encodable { var total: Int }

    @Test("From mattpolzin/JSONAPI")
    func fromMattpolzin() throws {
        let model = Self.articles[0]
        let including = JSONAPIEncoder()
        including.includePaths = ["author"]
        let bytes = try including.encode(
            model, meta: PageMeta(total: 1), links: ["self": "/articles/1"], jsonapiVersion: "1.1")
        let document = try Document(parsing: bytes)
        #expect(document.meta?["total"]?.int64Value == 1 && document.jsonapi?.version == "1.1")
        #expect(document.included.map(\.id) == ["9"])  // gathered from the relationships `include` names

        // `Unidentified` ids: `var id = ""` and `encodeCreate(_:)`.
        let create = try JSONAPIEncoder().encodeCreate(Draft(id: "", title: "New", tags: []))
        #expect(
            try Document(parsing: create, options: ParsingOptions(kind: .createRequest)).primaryResources[0].id == nil)

        // `ToOneRelationship(id:)`: an identifier from an id.
        let author = Identifier<Person>("9")
        #expect(author.id == "9")

        // `.none` includes: an empty set, or options for a request without `include`; with no
        // request (`nil`, the default), every related model present.
        let encoder = JSONAPIEncoder()
        encoder.includePaths = []
        #expect(try Document(parsing: try encoder.encode(model)).included.isEmpty)
        encoder.includePaths = nil
        #expect(try Document(parsing: try encoder.encode(model)).included.count == 1)
        let answer = JSONAPIEncoder(options: EncodingOptions(query: JSONAPIQuery()))
        #expect(try Document(parsing: try answer.encode(model)).included.isEmpty)
    }

    // MARK: "From Japx"

    struct User: Codable, JSONAPIResource {
        static let resourceType = "users"
        var id: String
        var email: String
        var friend: Person?
    }

    @Test("From Japx")
    func fromJapx() throws {
        let user = User(id: "1", email: "a@b.c", friend: Person(id: "9", name: "Dan"))
        let encoder = JSONAPIEncoder()
        encoder.includePaths = ["friend"]
        let bytes = try encoder.encode(user, meta: ["page": 1], links: ["self": "/users/1"])
        let document = try Document(parsing: bytes)
        #expect(document.primaryResources[0].attributes["email"]?.stringValue == "a@b.c")
        #expect(document.primaryResources[0].relationship("friend")?.identifiers.map(\.id) == ["9"])

        // Flattening a response: `data` flattened, `meta`, `links` and the rest kept.
        let flat = String(decoding: document.flattenedJSON(depth: 1), as: UTF8.self)
        #expect(flat.contains(#""friend":{"type":"people","id":"9","name":"Dan"}"#))
        #expect(flat.contains(#""meta":{"page":1}"#))
        #expect(flat.contains(#""links":{"self":"/users/1"}"#))
    }

    // MARK: "From aveine/JsonAPI"

    @Test("From aveine/JsonAPI")
    func fromAveine() throws {
        // Optional `@objc` properties left `nil` to skip them in a PATCH: `Field` properties.
        let body = try JSONAPIEncoder().encodeUpdate(ArticleUpdate(id: "1", subtitle: .null))
        let text = String(decoding: body, as: UTF8.self)
        #expect(text == #"{"data":{"type":"articles","id":"1","attributes":{"subtitle":null}}}"#)
    }
}
