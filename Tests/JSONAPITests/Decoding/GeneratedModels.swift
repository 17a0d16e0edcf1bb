import Foundation
import JSONAPI

/// Typed models of the documents `CompoundDocumentGenerator` writes (articles with their
/// authors, comments and tags), as a user of this library would declare them.
///
/// Two sets:
/// - ``GeneratedModels``: every member the generator writes, relationships as typed
///   identifiers, the relationships' `links` and `meta` (through the `name.links` / `name.meta`
///   keys), and the resources' `links` and `meta`. It reads exactly what `FoundationModel` (the `JSONDecoder` baseline in the
///   benchmarks) reads, so timing one against the other compares equal work.
/// - ``GeneratedGraph``: the same resources with relationships resolved into nested models
///   (`author: Person`, `comments: [Comment]`), dates as `Date`, and the back-references of people
///   to their articles as ``Lazy`` (the generated graph has cycles).
///
/// ```swift
/// let bytes = CompoundDocumentGenerator(resources: 10_000).generate()
/// let document = try Document(parsing: bytes)
/// let articles = try document.primary(as: GeneratedModels.Article.self).decodeAll()
/// let people = try document.included(of: GeneratedModels.Person.self).decodeAll()
/// ```
enum GeneratedModels {
    struct Article: Decodable, Sendable, JSONAPIResource {
        static let resourceType = "articles"

        var id: String
        var title: String
        var body: String
        var slug: String
        var wordCount: Int
        var rating: Double
        var published: Bool
        var subtitle: String?
        var keywords: [String]
        var metrics: Metrics
        var createdAt: String
        var author: Identifier<Person>
        var authorLinks: RelationshipLinks?
        var comments: [Identifier<Comment>]
        var commentsLinks: RelationshipLinks?
        var commentsMeta: CommentsMeta?
        var tags: [Identifier<Tag>]
        var links: ResourceLinks?
        var meta: ArticleMeta?

        enum CodingKeys: String, CodingKey {
            case id, title, body, slug, wordCount, rating, published, subtitle, keywords, metrics, createdAt
            case author, comments, tags, links, meta
            case authorLinks = "author.links"
            case commentsLinks = "comments.links"
            case commentsMeta = "comments.meta"
        }
    }

    struct Metrics: Decodable, Sendable, Equatable {
        var views: Int
        var shares: Int
        var ratio: Double
    }

    struct ArticleMeta: Decodable, Sendable, Equatable {
        var revision: Int
        var locked: Bool
    }

    struct CommentsMeta: Decodable, Sendable, Equatable {
        var count: Int
    }

    struct RelationshipLinks: Decodable, Sendable, Equatable {
        var selfLink: String?
        var related: String?

        enum CodingKeys: String, CodingKey {
            case selfLink = "self"
            case related
        }
    }

    struct ResourceLinks: Decodable, Sendable, Equatable {
        var selfLink: String

        enum CodingKeys: String, CodingKey {
            case selfLink = "self"
        }
    }

    struct Person: Decodable, Sendable, JSONAPIResource {
        static let resourceType = "people"

        var id: String
        var firstName: String
        var lastName: String
        var email: String
        var age: Int
        var bio: String
        var twitter: String?
        var articles: [Identifier<Article>]?
        var links: ResourceLinks?
    }

    struct Comment: Decodable, Sendable, JSONAPIResource {
        static let resourceType = "comments"

        var id: String
        var body: String
        var createdAt: String
        var likes: Int
        var author: Identifier<Person>?
        var links: ResourceLinks?
    }

    struct Tag: Decodable, Sendable, JSONAPIResource {
        static let resourceType = "tags"

        var id: String
        var name: String
        var color: String
    }

    /// Any included resource.
    enum Included: ResourceUnion, Sendable {
        case person(Person)
        case comment(Comment)
        case tag(Tag)

        static let members: [ResourceUnionMember<Included>] = [
            .member(Person.self, Included.person),
            .member(Comment.self, Included.comment),
            .member(Tag.self, Included.tag),
        ]
    }
}

/// The generated resources as a resolved object graph; see ``GeneratedModels``.
enum GeneratedGraph {
    struct Article: Decodable, Sendable, JSONAPIResource {
        static let resourceType = "articles"

        var id: String
        var title: String
        var body: String
        var wordCount: Int
        var rating: Double
        var published: Bool
        var subtitle: String?
        var keywords: [String]
        var metrics: GeneratedModels.Metrics
        var createdAt: Date
        var author: Person
        var comments: [Comment]
        var tags: [Tag]
    }

    struct Person: Decodable, Sendable, JSONAPIResource {
        static let resourceType = "people"

        var id: UUID
        var firstName: String
        var lastName: String
        var email: String
        var age: Int
        var twitter: String?
        var articles: [Lazy<Article>]?
    }

    struct Comment: Decodable, Sendable, JSONAPIResource {
        static let resourceType = "comments"

        var id: Int
        var body: String
        var createdAt: Date
        var likes: Int
        var author: Person?
    }

    struct Tag: Decodable, Sendable, JSONAPIResource {
        static let resourceType = "tags"

        var id: Int
        var name: String
        var color: String
    }
}
