import Foundation
import JSONAPI
import Testing

enum EncoderFixtures {
    struct Person: Codable, Equatable, JSONAPIResource {
        static let resourceType = "people"
        var id: String
        var name: String
        var age: Int?
    }

    struct Tag: Codable, Equatable, JSONAPIResource {
        static let resourceType = "tags"
        var id: Int
        var label: String
    }

    struct Comment: Codable, Equatable, JSONAPIResource {
        static let resourceType = "comments"
        var id: String
        var body: String
        var author: Person?
    }

    struct LinksObject: Codable, Equatable {
        var related: String
    }

    struct CountMeta: Codable, Equatable {
        var count: Int
    }

    struct Article: Codable, Equatable, JSONAPIResource {
        static let resourceType = "articles"
        var id: String
        var title: String
        var rating: Double
        var keywords: [String]
        var author: Person
        var comments: [Comment]
        var tags: [Identifier<Tag>]
        var authorLinks: LinksObject?
        var commentsMeta: CountMeta?
        var meta: CountMeta?

        enum CodingKeys: String, CodingKey {
            case id, title, rating, keywords, author, comments, tags, meta
            case authorLinks = "author.links"
            case commentsMeta = "comments.meta"
        }
    }

    /// Options that write every related model present into `included`, as a request without
    /// `include` gets only from an endpoint that opts in.
    static var wholeGraph: EncodingOptions {
        var options = EncodingOptions()
        options.includesRelatedByDefault = true
        return options
    }

    static let ada = Person(id: "9", name: "Ada", age: 36)
    static let bob = Person(id: "10", name: "Bob \"the\" Builder\n", age: nil)

    static func article(_ id: String = "1") -> Article {
        Article(
            id: id, title: "JSON:API paints my bikeshed ✓", rating: 4.5, keywords: ["a", "b"], author: ada,
            comments: [
                Comment(id: "5", body: "First", author: bob),
                Comment(id: "12", body: "I like XML better", author: ada),
            ],
            tags: [Identifier("2")], authorLinks: LinksObject(related: "/articles/\(id)/author"),
            commentsMeta: CountMeta(count: 2), meta: CountMeta(count: 7))
    }
}

/// Parses strictly and fails on any diagnostic (full linkage included).
func parseStrictly(_ bytes: [UInt8], kind: ParsingOptions.Kind = .response) throws -> Document {
    let document = try Document(parsing: bytes, options: ParsingOptions(kind: kind))
    #expect(document.diagnostics.isEmpty, "\(document.diagnostics) in \(String(decoding: bytes, as: UTF8.self))")
    return document
}

func jsonObject(_ bytes: [UInt8]) throws -> [String: Any] {
    try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])
}

func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }
