import JSONAPI
import JSONAPIMacros

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Typed models of the documents `CompoundDocumentGenerator` writes (articles with their
/// authors, comments and tags), as a user of this library would declare them.
///
/// Two sets:
/// - ``GeneratedModels``: every member the generator writes, relationships as typed
///   identifiers, the relationships' `links` and `meta` (through the `name.links` / `name.meta`
///   keys), and the resources' `links` and `meta`. It reads exactly what `PlainCodableModel` (the `JSONDecoder` baseline in the
///   benchmarks) reads, so timing one against the other compares equal work (the benchmarks do).
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
public enum GeneratedModels {
    @ResourceReadable
    public struct Article: Decodable, Encodable, Sendable, JSONAPIResource {
        public static let resourceType = "articles"

        public var id: String
        public var title: String
        public var body: String
        public var slug: String
        public var wordCount: Int
        public var rating: Double
        public var published: Bool
        public var subtitle: String?
        public var keywords: [String]
        public var metrics: Metrics
        public var createdAt: String
        public var author: Identifier<Person>
        public var authorLinks: RelationshipLinks?
        public var comments: [Identifier<Comment>]
        public var commentsLinks: RelationshipLinks?
        public var commentsMeta: CommentsMeta?
        public var tags: [Identifier<Tag>]
        public var links: ResourceLinks?
        public var meta: ArticleMeta?

        enum CodingKeys: String, CodingKey {
            case id, title, body, slug, wordCount, rating, published, subtitle, keywords, metrics, createdAt
            case author, comments, tags, links, meta
            case authorLinks = "author.links"
            case commentsLinks = "comments.links"
            case commentsMeta = "comments.meta"
        }
    }

    @ResourceReadable
    public struct Metrics: Decodable, Encodable, Sendable, Equatable {
        public var views: Int
        public var shares: Int
        public var ratio: Double
    }

    @ResourceReadable
    public struct ArticleMeta: Decodable, Encodable, Sendable, Equatable {
        public var revision: Int
        public var locked: Bool
    }

    @ResourceReadable
    public struct CommentsMeta: Decodable, Encodable, Sendable, Equatable {
        public var count: Int
    }

    @ResourceReadable
    public struct RelationshipLinks: Decodable, Encodable, Sendable, Equatable {
        public var selfLink: String?
        public var related: String?

        enum CodingKeys: String, CodingKey {
            case selfLink = "self"
            case related
        }
    }

    @ResourceReadable
    public struct ResourceLinks: Decodable, Encodable, Sendable, Equatable {
        public var selfLink: String

        enum CodingKeys: String, CodingKey {
            case selfLink = "self"
        }
    }

    @ResourceReadable
    public struct Person: Decodable, Encodable, Sendable, JSONAPIResource {
        public static let resourceType = "people"

        public var id: String
        public var firstName: String
        public var lastName: String
        public var email: String
        public var age: Int
        public var bio: String
        public var twitter: String?
        public var articles: [Identifier<Article>]?
        public var links: ResourceLinks?
    }

    @ResourceReadable
    public struct Comment: Decodable, Encodable, Sendable, JSONAPIResource {
        public static let resourceType = "comments"

        public var id: String
        public var body: String
        public var createdAt: String
        public var likes: Int
        public var author: Identifier<Person>?
        public var links: ResourceLinks?
    }

    @ResourceReadable
    public struct Tag: Decodable, Encodable, Sendable, JSONAPIResource {
        public static let resourceType = "tags"

        public var id: String
        public var name: String
        public var color: String
    }

    /// Any included resource.
    public enum Included: ResourceUnion, Encodable, Sendable {
        case person(Person)
        case comment(Comment)
        case tag(Tag)

        public static let members: [ResourceUnionMember<Included>] = [
            .member(Person.self, Included.person),
            .member(Comment.self, Included.comment),
            .member(Tag.self, Included.tag),
        ]
    }
}

/// The generated resources as a resolved object graph; see ``GeneratedModels``.
public enum GeneratedGraph {
    public struct Article: Decodable, Sendable, JSONAPIResource {
        public static let resourceType = "articles"

        public var id: String
        public var title: String
        public var body: String
        public var wordCount: Int
        public var rating: Double
        public var published: Bool
        public var subtitle: String?
        public var keywords: [String]
        public var metrics: GeneratedModels.Metrics
        public var createdAt: Date
        public var author: Person
        public var comments: [Comment]
        public var tags: [Tag]
    }

    public struct Person: Decodable, Sendable, JSONAPIResource {
        public static let resourceType = "people"

        public var id: UUID
        public var firstName: String
        public var lastName: String
        public var email: String
        public var age: Int
        public var twitter: String?
        public var articles: [Lazy<Article>]?
    }

    public struct Comment: Decodable, Sendable, JSONAPIResource {
        public static let resourceType = "comments"

        public var id: Int
        public var body: String
        public var createdAt: Date
        public var likes: Int
        public var author: Person?
    }

    public struct Tag: Decodable, Sendable, JSONAPIResource {
        public static let resourceType = "tags"

        public var id: Int
        public var name: String
        public var color: String
    }
}

extension GeneratedModels {
    /// An article with its to-one `author` resolved into a `Person` (to-many relationships stay
    /// identifiers): "the primary resources with their to-one relationships resolved".
    @ResourceReadable
    public struct ArticleWithAuthor: Decodable, Encodable, Sendable, JSONAPIResource {
        public static let resourceType = "articles"

        public var id: String
        public var title: String
        public var body: String
        public var slug: String
        public var wordCount: Int
        public var rating: Double
        public var published: Bool
        public var subtitle: String?
        public var keywords: [String]
        public var metrics: Metrics
        public var createdAt: String
        public var author: Person
        public var comments: [Identifier<Comment>]
        public var tags: [Identifier<Tag>]
    }
}
