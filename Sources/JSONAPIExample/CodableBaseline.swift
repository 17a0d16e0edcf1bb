import Foundation
import JSONAPI

/// The load benchmark's baseline: the example's article endpoints written the way Swift services
/// write JSON:API today, with `Codable` DTOs mirroring the document's shape and Foundation's
/// `JSONDecoder` / `JSONEncoder`. The library's own endpoints (``ExampleService``) do the same
/// work, so `scripts/loadtest` compares the two under the same framework and the same data.
///
/// Served under `/baseline/...` only when the server runs with `--baseline`.
struct CodableBaseline: Sendable {
    let store: ExampleStore

    // MARK: DTOs

    struct Identifier: Codable, Sendable {
        var type: String
        var id: String
    }

    struct ToOne: Codable, Sendable {
        var data: Identifier?
    }

    struct ToMany: Codable, Sendable {
        var data: [Identifier]
    }

    struct ArticleAttributes: Codable, Sendable {
        var title: String
        var body: String?
        var createdAt: String?
    }

    struct ArticleRelationships: Codable, Sendable {
        var author: ToOne?
        var comments: ToMany?
        var tags: ToMany?
    }

    /// A resource's `links`: the example writes each resource's `self` link.
    struct Links: Codable, Sendable {
        var `self`: String
    }

    struct Article: Codable, Sendable {
        var type: String
        var id: String?
        var attributes: ArticleAttributes
        var relationships: ArticleRelationships?
        var links: Links?
    }

    struct PersonAttributes: Codable, Sendable {
        var name: String
    }

    struct Person: Codable, Sendable {
        var type: String
        var id: String
        var attributes: PersonAttributes
        var links: Links?
    }

    struct CommentAttributes: Codable, Sendable {
        var body: String
    }

    struct CommentRelationships: Codable, Sendable {
        var author: ToOne?
    }

    struct Comment: Codable, Sendable {
        var type: String
        var id: String
        var attributes: CommentAttributes
        var relationships: CommentRelationships?
        var links: Links?
    }

    /// An included resource, told apart by its `type`.
    enum Included: Codable, Sendable {
        case person(Person)
        case comment(Comment)

        enum Key: String, CodingKey { case type }

        init(from decoder: any Decoder) throws {
            let type = try decoder.container(keyedBy: Key.self).decode(String.self, forKey: .type)
            switch type {
            case "people": self = .person(try Person(from: decoder))
            case "comments": self = .comment(try Comment(from: decoder))
            default:
                throw DecodingError.dataCorrupted(
                    DecodingError.Context(codingPath: decoder.codingPath, debugDescription: "unknown type \(type)"))
            }
        }

        func encode(to encoder: any Encoder) throws {
            switch self {
            case .person(let person): try person.encode(to: encoder)
            case .comment(let comment): try comment.encode(to: encoder)
            }
        }
    }

    struct ListDocument: Codable, Sendable {
        var data: [Article]
        var included: [Included]?
        var meta: [String: Int]?
    }

    struct SingleDocument: Codable, Sendable {
        var data: Article
    }

    struct MetaDocument: Codable, Sendable {
        var meta: [String: Int]
    }

    struct BaselineError: Error {
        var status: Int
    }

    // MARK: Endpoints

    /// `GET /baseline/articles?include=author,comments&page[number]=N&page[size]=S`.
    func list(pageNumber: Int, pageSize: Int, include: Set<String>) throws -> [UInt8] {
        let (page, total, included) = store.read { state -> ([Article], Int, [Included]) in
            let page = state.page("articles", number: pageNumber, size: pageSize)
            var included: [Included] = []
            var seen: Set<String> = []
            func add(_ identifier: Identifier) {
                guard seen.insert("\(identifier.type)/\(identifier.id)").inserted,
                    let resource = state.resource(identifier.type, identifier.id)
                else { return }
                if identifier.type == "people" { included.append(.person(Self.person(resource))) }
                if identifier.type == "comments" { included.append(.comment(Self.comment(resource))) }
            }
            let articles = page.map(Self.article)
            for article in articles {
                if include.contains("author"), let author = article.relationships?.author?.data { add(author) }
                if include.contains("comments") { article.relationships?.comments?.data.forEach(add) }
            }
            return (articles, state.count("articles"), included)
        }
        let document = ListDocument(data: page, included: include.isEmpty ? nil : included, meta: ["total": total])
        return Array(try JSONEncoder().encode(document))
    }

    /// `POST /baseline/articles`: decodes the body, checks it, stores it, answers the resource.
    func create(body: [UInt8]) throws -> [UInt8] {
        let document: SingleDocument
        do {
            document = try JSONDecoder().decode(SingleDocument.self, from: Data(body))
        } catch {
            throw BaselineError(status: 400)
        }
        var article = document.data
        guard article.type == "articles" else { throw BaselineError(status: 409) }
        let stored = store.write { state -> Article in
            article.id = article.id ?? state.newID()
            var resource = JSONAPIResourceObject(
                type: "articles", id: article.id,
                attributes: [
                    "title": JSON(article.attributes.title),
                    "body": article.attributes.body.map { JSON.string($0) } ?? .null,
                    "createdAt": JSON(article.attributes.createdAt ?? "2024-01-01T00:00:00Z"),
                ])
            if let author = article.relationships?.author?.data {
                resource.relationships.append(
                    key: "author",
                    value: JSONAPIRelationship.toOne(ResourceIdentifier(type: author.type, id: author.id)))
            }
            state.put(resource)
            return Self.article(resource)
        }
        return Array(try JSONEncoder().encode(SingleDocument(data: stored)))
    }

    /// `POST /baseline/imports`: decodes a compound document of articles with their people and
    /// comments included, converts every resource to the store's representation, answers the
    /// counts. Stores nothing, so repeated requests cost the same.
    func importDocument(body: [UInt8]) throws -> [UInt8] {
        let document: ListDocument
        do {
            document = try JSONDecoder().decode(ListDocument.self, from: Data(body))
        } catch {
            throw BaselineError(status: 400)
        }
        var converted: [JSONAPIResourceObject] = []
        converted.reserveCapacity(document.data.count + (document.included?.count ?? 0))
        for article in document.data {
            var resource = JSONAPIResourceObject(
                type: article.type, id: article.id,
                attributes: [
                    "title": JSON(article.attributes.title),
                    "body": article.attributes.body.map { JSON.string($0) } ?? .null,
                ])
            if let author = article.relationships?.author?.data {
                resource.relationships.append(
                    key: "author",
                    value: JSONAPIRelationship.toOne(ResourceIdentifier(type: author.type, id: author.id)))
            }
            if let comments = article.relationships?.comments?.data {
                resource.relationships.append(
                    key: "comments",
                    value: JSONAPIRelationship.toMany(comments.map { ResourceIdentifier(type: $0.type, id: $0.id) }))
            }
            converted.append(resource)
        }
        for resource in document.included ?? [] {
            switch resource {
            case .person(let person):
                converted.append(
                    JSONAPIResourceObject(
                        type: person.type, id: person.id, attributes: ["name": JSON(person.attributes.name)]))
            case .comment(let comment):
                converted.append(
                    JSONAPIResourceObject(
                        type: comment.type, id: comment.id, attributes: ["body": JSON(comment.attributes.body)]))
            }
        }
        let meta = ["articles": document.data.count, "resources": converted.count]
        return Array(try JSONEncoder().encode(MetaDocument(meta: meta)))
    }

    // MARK: Mapping from the store

    static func identifiers(_ resource: JSONAPIResourceObject, _ name: String) -> [Identifier] {
        switch resource.relationships[name]?.data {
        case .one(let identifier)?: [Identifier(type: identifier.type, id: identifier.id ?? "")]
        case .many(let identifiers)?: identifiers.map { Identifier(type: $0.type, id: $0.id ?? "") }
        default: []
        }
    }

    static func article(_ resource: JSONAPIResourceObject) -> Article {
        Article(
            type: resource.type, id: resource.id,
            attributes: ArticleAttributes(
                title: resource.attributes["title"]?.stringValue ?? "",
                body: resource.attributes["body"]?.stringValue,
                createdAt: resource.attributes["createdAt"]?.stringValue),
            relationships: ArticleRelationships(
                author: ToOne(data: identifiers(resource, "author").first),
                comments: ToMany(data: identifiers(resource, "comments")),
                tags: ToMany(data: identifiers(resource, "tags"))),
            links: Links(self: "/articles/\(resource.id ?? "")"))
    }

    static func person(_ resource: JSONAPIResourceObject) -> Person {
        Person(
            type: resource.type, id: resource.id ?? "",
            attributes: PersonAttributes(name: resource.attributes["name"]?.stringValue ?? ""),
            links: Links(self: "/people/\(resource.id ?? "")"))
    }

    static func comment(_ resource: JSONAPIResourceObject) -> Comment {
        Comment(
            type: resource.type, id: resource.id ?? "",
            attributes: CommentAttributes(body: resource.attributes["body"]?.stringValue ?? ""),
            relationships: CommentRelationships(author: ToOne(data: identifiers(resource, "author").first)),
            links: Links(self: "/comments/\(resource.id ?? "")"))
    }
}
