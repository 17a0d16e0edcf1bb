/// The generated compound document as plain `Codable` types: the way a typical Swift app decodes
/// JSON:API with Foundation's `JSONDecoder`, and the baseline the library is measured against
/// (by the benchmarks and by `jsonapi inspect --compare-foundation`).
///
/// Every member the generator writes is modelled, so `JSONDecoder` does the same work the
/// library does: all strings are materialised, all numbers converted, and `included` is a
/// polymorphic array decoded by its `type` member.
///
/// ```swift
/// let document = try JSONDecoder().decode(PlainCodableModel.Document.self, from: data)
/// print(document.data.count, document.included?.count ?? 0)
/// ```
public enum PlainCodableModel {
    public struct Document: Codable, Sendable {
        public var data: [Article]
        public var included: [IncludedResource]?
        public var links: TopLevelLinks?
        public var meta: TopLevelMeta?
        public var jsonapi: ImplementationInfo?
    }

    public struct ImplementationInfo: Codable, Sendable {
        public var version: String
    }

    public struct TopLevelLinks: Codable, Sendable {
        public var selfLink: String?
        public var next: LinkObject?

        enum CodingKeys: String, CodingKey {
            case selfLink = "self"
            case next
        }
    }

    public struct LinkObject: Codable, Sendable {
        public var href: String
        public var meta: PageMeta?
    }

    public struct PageMeta: Codable, Sendable {
        public var page: Int
        public var cursor: String?
    }

    public struct TopLevelMeta: Codable, Sendable {
        public var total: Int
        public var generatedBy: String
        public var seed: String?
    }

    // MARK: - Linkage

    public struct ResourceIdentifier: Codable, Hashable, Sendable {
        public var type: String
        public var id: String
    }

    public struct RelationshipLinks: Codable, Sendable {
        public var selfLink: String?
        public var related: String?

        enum CodingKeys: String, CodingKey {
            case selfLink = "self"
            case related
        }
    }

    public struct ResourceLinks: Codable, Sendable {
        public var selfLink: String

        enum CodingKeys: String, CodingKey {
            case selfLink = "self"
        }
    }

    public struct RelationshipMeta: Codable, Sendable {
        public var count: Int
    }

    public struct ToOneRelationship: Codable, Sendable {
        public var links: RelationshipLinks?
        public var data: ResourceIdentifier?
        public var meta: RelationshipMeta?
    }

    public struct ToManyRelationship: Codable, Sendable {
        public var links: RelationshipLinks?
        public var data: [ResourceIdentifier]
        public var meta: RelationshipMeta?
    }

    // MARK: - Primary data

    public struct Article: Codable, Sendable {
        public var type: String
        public var id: String
        public var attributes: Attributes
        public var relationships: Relationships
        public var links: ResourceLinks?
        public var meta: Meta?

        public struct Attributes: Codable, Sendable {
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
        }

        public struct Metrics: Codable, Sendable {
            public var views: Int
            public var shares: Int
            public var ratio: Double
        }

        public struct Relationships: Codable, Sendable {
            public var author: ToOneRelationship
            public var comments: ToManyRelationship
            public var tags: ToManyRelationship
        }

        public struct Meta: Codable, Sendable {
            public var revision: Int
            public var locked: Bool
        }
    }

    // MARK: - Included resources

    /// An element of `included`, told apart by its `type` member.
    public enum IncludedResource: Codable, Sendable {
        case person(Person)
        case comment(Comment)
        case tag(Tag)

        private enum CodingKeys: String, CodingKey {
            case type
        }

        public init(from decoder: any Decoder) throws {
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

        public func encode(to encoder: any Encoder) throws {
            switch self {
            case .person(let person): try person.encode(to: encoder)
            case .comment(let comment): try comment.encode(to: encoder)
            case .tag(let tag): try tag.encode(to: encoder)
            }
        }
    }

    public struct Person: Codable, Sendable {
        public var type: String
        public var id: String
        public var attributes: Attributes
        public var relationships: Relationships?
        public var links: ResourceLinks?

        public struct Attributes: Codable, Sendable {
            public var firstName: String
            public var lastName: String
            public var email: String
            public var age: Int
            public var bio: String
            public var twitter: String?
        }

        public struct Relationships: Codable, Sendable {
            public var articles: ToManyRelationship?
        }
    }

    public struct Comment: Codable, Sendable {
        public var type: String
        public var id: String
        public var attributes: Attributes
        public var relationships: Relationships
        public var links: ResourceLinks?

        public struct Attributes: Codable, Sendable {
            public var body: String
            public var createdAt: String
            public var likes: Int
        }

        public struct Relationships: Codable, Sendable {
            public var author: ToOneRelationship
        }
    }

    public struct Tag: Codable, Sendable {
        public var type: String
        public var id: String
        public var attributes: Attributes

        public struct Attributes: Codable, Sendable {
            public var name: String
            public var color: String
        }
    }
}
