import Foundation

/// The generated compound document as plain Foundation `Codable` types: the way a typical Swift
/// app decodes JSON:API with `JSONDecoder`, and the baseline the library is measured against.
///
/// Every member the generator writes is modelled, so `JSONDecoder` does the same work the
/// library does: all strings are materialised, all numbers converted, and `included` is a
/// polymorphic array decoded by its `type` member.
///
/// ```swift
/// let document = try JSONDecoder().decode(FoundationModel.Document.self, from: data)
/// print(document.data.count, document.included?.count ?? 0)
/// ```
enum FoundationModel {
    struct Document: Codable {
        var data: [Article]
        var included: [IncludedResource]?
        var links: TopLevelLinks?
        var meta: TopLevelMeta?
        var jsonapi: JSONAPIObject?
    }

    struct JSONAPIObject: Codable {
        var version: String
    }

    struct TopLevelLinks: Codable {
        var selfLink: String?
        var next: LinkObject?

        enum CodingKeys: String, CodingKey {
            case selfLink = "self"
            case next
        }
    }

    struct LinkObject: Codable {
        var href: String
        var meta: PageMeta?
    }

    struct PageMeta: Codable {
        var page: Int
        var cursor: String?
    }

    struct TopLevelMeta: Codable {
        var total: Int
        var generatedBy: String
        var seed: String?
    }

    // MARK: - Linkage

    struct ResourceIdentifier: Codable, Hashable {
        var type: String
        var id: String
    }

    struct RelationshipLinks: Codable {
        var selfLink: String?
        var related: String?

        enum CodingKeys: String, CodingKey {
            case selfLink = "self"
            case related
        }
    }

    struct ResourceLinks: Codable {
        var selfLink: String

        enum CodingKeys: String, CodingKey {
            case selfLink = "self"
        }
    }

    struct RelationshipMeta: Codable {
        var count: Int
    }

    struct ToOneRelationship: Codable {
        var links: RelationshipLinks?
        var data: ResourceIdentifier?
        var meta: RelationshipMeta?
    }

    struct ToManyRelationship: Codable {
        var links: RelationshipLinks?
        var data: [ResourceIdentifier]
        var meta: RelationshipMeta?
    }

    // MARK: - Primary data

    struct Article: Codable {
        var type: String
        var id: String
        var attributes: Attributes
        var relationships: Relationships
        var links: ResourceLinks?
        var meta: Meta?

        struct Attributes: Codable {
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
        }

        struct Metrics: Codable {
            var views: Int
            var shares: Int
            var ratio: Double
        }

        struct Relationships: Codable {
            var author: ToOneRelationship
            var comments: ToManyRelationship
            var tags: ToManyRelationship
        }

        struct Meta: Codable {
            var revision: Int
            var locked: Bool
        }
    }

    // MARK: - Included resources

    /// An element of `included`, told apart by its `type` member.
    enum IncludedResource: Codable {
        case person(Person)
        case comment(Comment)
        case tag(Tag)

        private enum CodingKeys: String, CodingKey {
            case type
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            let type = try container.decode(String.self, forKey: .type)
            switch type {
            case "people": self = .person(try Person(from: decoder))
            case "comments": self = .comment(try Comment(from: decoder))
            case "tags": self = .tag(try Tag(from: decoder))
            default:
                throw DecodingError.dataCorruptedError(
                    forKey: .type, in: container, debugDescription: "unknown resource type \(type)")
            }
        }

        func encode(to encoder: any Encoder) throws {
            switch self {
            case .person(let person): try person.encode(to: encoder)
            case .comment(let comment): try comment.encode(to: encoder)
            case .tag(let tag): try tag.encode(to: encoder)
            }
        }
    }

    struct Person: Codable {
        var type: String
        var id: String
        var attributes: Attributes
        var relationships: Relationships?
        var links: ResourceLinks?

        struct Attributes: Codable {
            var firstName: String
            var lastName: String
            var email: String
            var age: Int
            var bio: String
            var twitter: String?
        }

        struct Relationships: Codable {
            var articles: ToManyRelationship?
        }
    }

    struct Comment: Codable {
        var type: String
        var id: String
        var attributes: Attributes
        var relationships: Relationships
        var links: ResourceLinks?

        struct Attributes: Codable {
            var body: String
            var createdAt: String
            var likes: Int
        }

        struct Relationships: Codable {
            var author: ToOneRelationship
        }
    }

    struct Tag: Codable {
        var type: String
        var id: String
        var attributes: Attributes

        struct Attributes: Codable {
            var name: String
            var color: String
        }
    }
}
