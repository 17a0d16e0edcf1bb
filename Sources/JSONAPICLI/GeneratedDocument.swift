/// A plain `Codable` model of the documents `jsonapi generate` writes, the way an application
/// would decode them with `JSONDecoder`: articles with attributes and relationships in `data`,
/// and `included` resources decoded polymorphically by `type` into people, comments and tags.
///
/// Optional where the generator sometimes omits a member or writes `null`. Used only for the
/// Foundation comparison of `inspect --compare-foundation`.
struct GeneratedDocument: Decodable {
    var jsonapi: JSONAPIMember?
    var links: TopLevelLinks?
    var meta: TopLevelMeta?
    var data: [Article]
    var included: [IncludedResource]?

    struct JSONAPIMember: Decodable {
        var version: String?
    }

    struct TopLevelLinks: Decodable {
        var selfLink: String?
        var next: Link?

        enum CodingKeys: String, CodingKey {
            case selfLink = "self"
            case next
        }
    }

    struct TopLevelMeta: Decodable {
        var total: Int?
        var generatedBy: String?
        var seed: String?
    }

    /// A link: a URL string, or a link object with `href` and `meta`.
    struct Link: Decodable {
        var href: String
        var meta: LinkMeta?

        struct LinkMeta: Decodable {
            var page: Int?
        }

        enum CodingKeys: String, CodingKey {
            case href
            case meta
        }

        init(from decoder: any Decoder) throws {
            if let href = try? decoder.singleValueContainer().decode(String.self) {
                self.href = href
                self.meta = nil
                return
            }
            let container = try decoder.container(keyedBy: CodingKeys.self)
            href = try container.decode(String.self, forKey: .href)
            meta = try container.decodeIfPresent(LinkMeta.self, forKey: .meta)
        }
    }

    struct SelfLink: Decodable {
        var selfLink: String

        enum CodingKeys: String, CodingKey {
            case selfLink = "self"
        }
    }

    struct RelationshipLinks: Decodable {
        var selfLink: String?
        var related: String?

        enum CodingKeys: String, CodingKey {
            case selfLink = "self"
            case related
        }
    }

    struct Identifier: Decodable {
        var type: String
        var id: String
    }

    struct ToOne: Decodable {
        var links: RelationshipLinks?
        var data: Identifier?
    }

    struct ToMany: Decodable {
        var links: RelationshipLinks?
        var data: [Identifier]
        var meta: CountMeta?

        struct CountMeta: Decodable {
            var count: Int
        }
    }

    struct Article: Decodable {
        var type: String
        var id: String
        var attributes: Attributes
        var relationships: Relationships
        var links: SelfLink
        var meta: Meta?

        struct Attributes: Decodable {
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

        struct Metrics: Decodable {
            var views: Int
            var shares: Int
            var ratio: Double
        }

        struct Relationships: Decodable {
            var author: ToOne
            var comments: ToMany
            var tags: ToMany
        }

        struct Meta: Decodable {
            var revision: Int
            var locked: Bool
        }
    }

    struct Comment: Decodable {
        var type: String
        var id: String
        var attributes: Attributes
        var relationships: Relationships
        var links: SelfLink

        struct Attributes: Decodable {
            var body: String
            var createdAt: String
            var likes: Int
        }

        struct Relationships: Decodable {
            var author: ToOne
        }
    }

    struct Person: Decodable {
        var type: String
        var id: String
        var attributes: Attributes
        var relationships: Relationships?
        var links: SelfLink

        struct Attributes: Decodable {
            var firstName: String
            var lastName: String
            var email: String
            var age: Int
            var bio: String
            var twitter: String?
        }

        struct Relationships: Decodable {
            var articles: ToMany
        }
    }

    struct Tag: Decodable {
        var type: String
        var id: String
        var attributes: Attributes

        struct Attributes: Decodable {
            var name: String
            var color: String
        }
    }

    /// An included resource, decoded by its `type` member.
    enum IncludedResource: Decodable {
        case person(Person)
        case comment(Comment)
        case tag(Tag)
        case other(Identifier)

        private enum TypeKey: String, CodingKey {
            case type
        }

        init(from decoder: any Decoder) throws {
            let type = try decoder.container(keyedBy: TypeKey.self).decode(String.self, forKey: .type)
            switch type {
            case "people": self = .person(try Person(from: decoder))
            case "comments": self = .comment(try Comment(from: decoder))
            case "tags": self = .tag(try Tag(from: decoder))
            default: self = .other(try Identifier(from: decoder))
            }
        }
    }
}
