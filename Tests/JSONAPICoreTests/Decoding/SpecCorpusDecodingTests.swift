import Foundation
import JSONAPI
import Testing

// Every strict full document among the JSON:API specification's examples (1.0, 1.1 and the
// examples page) decodes into the hand-written models below, and every value the models read
// is compared with what Foundation's `JSONSerialization` finds in the same file: titles,
// bodies, ids, dates, related people's names through `included`, linkage, links, meta, errors.

struct CorpusPerson: Decodable, Sendable, JSONAPIResource {
    static let resourceType = "people"
    var id: String
    var firstName: String?
    var lastName: String?
    var twitter: String?
    var name: String?
    var age: Int?
    var gender: String?
}

struct CorpusComment: Decodable, Sendable, JSONAPIResource {
    static let resourceType = "comments"
    var id: String
    var body: String?
    var author: CorpusPerson?
}

struct CorpusTag: Decodable, Sendable, JSONAPIResource {
    static let resourceType = "tags"
    var id: String
}

struct CorpusArticle: Decodable, Sendable, JSONAPIResource {
    static let resourceType = "articles"
    var id: String
    var title: String?
    var body: String?
    var text: String?
    var created: Date?
    var updated: Date?
    var author: Related<CorpusPerson?, NoMeta, Links>?
    var comments: [CorpusComment]?
    var tags: [Identifier<CorpusTag>]?
    var links: Links?
}

struct CorpusPhoto: Decodable, Sendable, JSONAPIResource {
    static let resourceType = "photos"
    var id: UUID?
    var title: String
    var src: URL
    var photographer: Identifier<CorpusPerson>?
    var links: Links?
}

enum CorpusResource: ResourceUnion, Sendable {
    case article(CorpusArticle)
    case photo(CorpusPhoto)
    case person(CorpusPerson)
    case comment(CorpusComment)

    static let members: [ResourceUnionMember<CorpusResource>] = [
        .member(CorpusArticle.self, CorpusResource.article),
        .member(CorpusPhoto.self, CorpusResource.photo),
        .member(CorpusPerson.self, CorpusResource.person),
        .member(CorpusComment.self, CorpusResource.comment),
    ]
}

/// `data` as one resource, many, or none.
enum CorpusPrimary: Decodable, Sendable {
    case none
    case one(CorpusResource)
    case many([CorpusResource])

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .none
        } else if let many = try? container.decode([CorpusResource].self) {
            self = .many(many)
        } else {
            self = .one(try container.decode(CorpusResource.self))
        }
    }

    var resources: [CorpusResource] {
        switch self {
        case .none: []
        case .one(let resource): [resource]
        case .many(let resources): resources
        }
    }
}

/// The corpus beside the package: `#filePath` up to the package root, then `../shared/corpus`.
enum SpecCorpus {
    static let root: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("shared/corpus/jsonapi-spec")

    /// `folder/file` of every strict JSON file whose INDEX.md kind is `document`.
    static let documents: [String] = {
        var result: [String] = []
        for folder in ["1.0", "1.1", "site-examples"] {
            let index = root.appendingPathComponent(folder).appendingPathComponent("INDEX.md")
            guard let text = try? String(contentsOf: index, encoding: .utf8) else { continue }
            for line in text.split(separator: "\n") {
                let cells = line.split(separator: "|", omittingEmptySubsequences: false).map {
                    $0.trimmingCharacters(in: .whitespaces)
                }
                guard cells.count > 3, cells[0].hasSuffix(".json"), cells[2] == "document", cells[3] == "strict-json"
                else { continue }
                result.append("\(folder)/\(cells[0])")
            }
        }
        return result
    }()

    static func bytes(_ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: root.appendingPathComponent(name)))
    }

    /// The document kind a file's name implies.
    static func kind(_ name: String) -> ParsingOptions.Kind {
        if name.contains("fetching-relationships") || name.contains("to-one-relationships")
            || name.contains("to-many-relationships")
        {
            return .relationshipUpdate
        }
        if name.contains("req-post") { return .createRequest }
        if name.contains("req-patch") { return .updateRequest }
        return .response
    }
}

@Suite("Decoding the specification's examples")
struct SpecCorpusDecodingTests {
    @Test func corpusIsThere() throws {
        try #require(FileManager.default.fileExists(atPath: SpecCorpus.root.path), "corpus absent; skipped")
        #expect(SpecCorpus.documents.count >= 55)
    }

    @Test(arguments: SpecCorpus.documents)
    func decodesWithRealValues(_ name: String) throws {
        let bytes = try SpecCorpus.bytes(name)
        let oracle = try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])
        let document = try Document(parsing: bytes, options: ParsingOptions(kind: SpecCorpus.kind(name)))
        let decoder = JSONAPIDecoder()

        if let errors = oracle["errors"] as? [[String: Any]] {
            do {
                _ = try decoder.decode(CompoundDocument<CorpusPrimary, JSONObject, Links>.self, from: document)
                Issue.record("\(name): expected DocumentErrors")
            } catch let failure as DocumentErrors {
                #expect(failure.errors.count == errors.count)
                for (error, expected) in zip(failure.errors, errors) {
                    #expect(error.status == expected["status"] as? String)
                    #expect(error.code == expected["code"] as? String)
                    #expect(error.title == expected["title"] as? String)
                    #expect(error.detail == expected["detail"] as? String)
                    let source = expected["source"] as? [String: Any]
                    #expect(error.source?.pointer == source?["pointer"] as? String)
                    #expect(error.source?.parameter == source?["parameter"] as? String)
                }
            }
            return
        }

        let links = oracle["links"] as? [String: Any]
        if SpecCorpus.kind(name) == .relationshipUpdate {
            let decoded = try decoder.decode(
                CompoundDocument<[ResourceIdentifier]?, NoMeta, Links>.self, from: document)
            let identifiers: [ResourceIdentifier]
            if let many = decoded.data {
                identifiers = many
            } else {
                identifiers = try decoder.decode(ResourceIdentifier?.self, from: document).map { [$0] } ?? []
            }
            let expected = Self.linkage(oracle["data"])
            #expect(identifiers == expected, "\(name)")
            #expect(decoded.links?["self"]?.href == links?["self"] as? String)
            #expect(decoded.links?["related"]?.href == links?["related"] as? String)
            return
        }

        let decoded = try decoder.decode(CompoundDocument<CorpusPrimary, JSONObject, Links>.self, from: document)
        #expect(decoded.links?["self"]?.href == links?["self"] as? String)
        #expect(decoded.links?["next"]?.href == links?["next"] as? String)
        if let meta = oracle["meta"] as? [String: Any] {
            #expect(decoded.meta?["totalPages"]?.int64Value == (meta["totalPages"] as? Int).map(Int64.init))
        }
        let primary: [[String: Any]]
        switch oracle["data"] {
        case let many as [[String: Any]]: primary = many
        case let one as [String: Any]: primary = [one]
        default: primary = []
        }
        let resources = decoded.data.resources
        #expect(resources.count == primary.count, "\(name)")
        let included = (oracle["included"] as? [[String: Any]]) ?? []
        for (resource, expected) in zip(resources, primary) {
            Self.check(resource, against: expected, included: included, name: name)
        }
    }

    static func linkage(_ data: Any?) -> [ResourceIdentifier] {
        func identifier(_ object: [String: Any]) -> ResourceIdentifier {
            ResourceIdentifier(type: object["type"] as? String ?? "", id: object["id"] as? String)
        }
        switch data {
        case let many as [[String: Any]]: return many.map(identifier)
        case let one as [String: Any]: return [identifier(one)]
        default: return []
        }
    }

    static func find(_ linkage: Any?, in included: [[String: Any]]) -> [String: Any]? {
        guard let linkage = linkage as? [String: Any] else { return nil }
        return included.first {
            $0["type"] as? String == linkage["type"] as? String && $0["id"] as? String == linkage["id"] as? String
        }
    }

    static func check(
        _ resource: CorpusResource, against expected: [String: Any], included: [[String: Any]], name: String
    ) {
        let attributes = expected["attributes"] as? [String: Any] ?? [:]
        let relationships = expected["relationships"] as? [String: Any] ?? [:]
        let iso = ISO8601DateFormatter()
        iso.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        switch resource {
        case .article(let article):
            #expect(expected["type"] as? String == "articles", "\(name)")
            #expect(article.id == expected["id"] as? String)
            #expect(article.title == attributes["title"] as? String)
            #expect(article.body == attributes["body"] as? String)
            #expect(article.text == attributes["text"] as? String)
            #expect(article.created == (attributes["created"] as? String).flatMap(iso.date(from:)))
            #expect(article.updated == (attributes["updated"] as? String).flatMap(iso.date(from:)))
            #expect(article.links?["self"]?.href == (expected["links"] as? [String: Any])?["self"] as? String)
            let author = relationships["author"] as? [String: Any]
            #expect((article.author != nil) == (author != nil), "\(name)")
            let person = find(author?["data"], in: included)
            let personAttributes = person?["attributes"] as? [String: Any]
            #expect(article.author?.value?.id == person?["id"] as? String)
            #expect(article.author?.value?.firstName == personAttributes?["firstName"] as? String)
            #expect(article.author?.value?.name == personAttributes?["name"] as? String)
            #expect(article.author?.value?.age == personAttributes?["age"] as? Int)
            #expect(
                article.author?.links?["related"]?.href == (author?["links"] as? [String: Any])?["related"] as? String)
            let comments = (relationships["comments"] as? [String: Any])?["data"] as? [[String: Any]]
            #expect(article.comments?.map(\.id) == comments?.map { $0["id"] as? String ?? "" })
            for (comment, linkage) in zip(article.comments ?? [], comments ?? []) {
                let body = find(linkage, in: included)?["attributes"] as? [String: Any]
                #expect(comment.body == body?["body"] as? String)
                let authorLinkage =
                    ((find(linkage, in: included)?["relationships"] as? [String: Any])?["author"] as? [String: Any])?[
                        "data"]
                let commentAuthor = find(authorLinkage, in: included)?["attributes"] as? [String: Any]
                #expect(comment.author?.firstName == commentAuthor?["firstName"] as? String)
            }
            let tags = (relationships["tags"] as? [String: Any])?["data"] as? [[String: Any]]
            #expect(article.tags?.map(\.id) == tags?.map { $0["id"] as? String ?? "" })
        case .photo(let photo):
            #expect(photo.id?.uuidString.lowercased() == expected["id"] as? String)
            #expect(photo.title == attributes["title"] as? String)
            #expect(photo.src.absoluteString == attributes["src"] as? String)
            let photographer = (relationships["photographer"] as? [String: Any])?["data"] as? [String: Any]
            #expect(photo.photographer?.id == photographer?["id"] as? String)
            #expect(photo.links?["self"]?.href == (expected["links"] as? [String: Any])?["self"] as? String)
        case .person(let person):
            #expect(person.id == expected["id"] as? String)
            #expect(person.firstName == attributes["firstName"] as? String)
        case .comment(let comment):
            #expect(comment.id == expected["id"] as? String)
            #expect(comment.body == attributes["body"] as? String)
        }
    }

    /// The values of the specification's compound document, spelled out.
    @Test func compoundDocumentValues() throws {
        try #require(FileManager.default.fileExists(atPath: SpecCorpus.root.path), "corpus absent; skipped")
        let document = try Document(parsing: try SpecCorpus.bytes("1.1/08-document-compound-documents.json"))
        let report = try JSONAPIDecoder().decodeReporting([CorpusArticle].self, from: document)
        let article = try #require(report.value.first)
        #expect(article.title == "JSON:API paints my bikeshed!")
        #expect(article.author?.value?.firstName == "Dan")
        #expect(article.author?.value?.lastName == "Gebhardt")
        #expect(article.author?.value?.twitter == "dgeb")
        #expect(article.author?.links?["self"]?.href == "http://example.com/articles/1/relationships/author")
        #expect(article.comments?.map(\.body) == ["First!", "I like XML better"])
        #expect(article.comments?[0].author == nil)  // people/2 is not included
        #expect(article.comments?[1].author?.firstName == "Dan")
        #expect(report.skipped.map(\.identifier) == [ResourceIdentifier(type: "people", id: "2")])
        #expect(report.skipped.first?.pointer == "/included/1/relationships/author/data")
        #expect(try document.resource(CorpusComment.self, id: "12")?.body == "I like XML better")
    }

    @Test func sparseFieldsetsAndPagination() throws {
        try #require(FileManager.default.fileExists(atPath: SpecCorpus.root.path), "corpus absent; skipped")
        let first = try JSONAPIDecoder().decode(
            [CorpusArticle].self, from: try SpecCorpus.bytes("site-examples/01-sparse-fieldsets-resp-200.json"))
        #expect(first[0].author?.value?.name == "John")
        #expect(first[0].author?.value?.age == 80)
        #expect(first[0].created?.timeIntervalSince1970 == 1_432_306_589)
        struct Paging: Decodable {
            var totalPages: Int
        }
        let page = try JSONAPIDecoder().decode(
            CompoundDocument<[CorpusArticle], Paging, Links>.self,
            from: try SpecCorpus.bytes("site-examples/04-pagination-resp-200.json"))
        #expect(page.meta?.totalPages == 13)
        #expect(page.links?["last"]?.href == "http://example.com/articles?page[number]=13&page[size]=1")
        #expect(page.data.map(\.id) == ["3"])
    }
}
