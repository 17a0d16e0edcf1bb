import ArgumentParser
import JSONAPI

/// `jsonapi project` (hidden): decodes every resource of a generated document into typed
/// models, and optionally encodes them back, so that `scripts/callgrind --all` can count the
/// instructions of the typed decoding and encoding paths as it counts the parse.
///
/// The models are those of `GeneratedModels` (the benchmarks' `TypedProjection`), with their
/// `init(from: ResourceReader)` written by hand: the tool builds without the macro.
struct ProjectCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "project",
        abstract: "Decode a generated document into typed models (for instruction counts).",
        shouldDisplay: false
    )

    @Flag(help: "Decode through init(from: any Decoder) instead of init(from: ResourceReader).")
    var codable = false

    @Flag(help: "Encode the decoded models back with JSONAPIEncoder.")
    var encode = false

    @Argument(help: ArgumentHelp("A document `jsonapi generate` wrote.", valueName: "file"))
    var file: String

    func run() throws {
        let document = try WriterCommandSupport.load(file, options: ParsingOptions())
        var options = DecodingOptions()
        options.usesResourceReaders = !codable
        let articles = try document.primary(as: ProjectedModels.Article.self, options: options).decodeAll()
        let people = try document.included(of: ProjectedModels.Person.self, options: options).decodeAll()
        let comments = try document.included(of: ProjectedModels.Comment.self, options: options).decodeAll()
        let tags = try document.included(of: ProjectedModels.Tag.self, options: options).decodeAll()
        var line = "\(articles.count) articles, \(people.count + comments.count + tags.count) included"
        if encode {
            let bytes = try JSONAPIEncoder().encode(articles, included: people + comments + tags)
            line += ", \(bytes.count) bytes encoded"
        }
        Console.standardOutput.line(line)
    }
}

/// The generated documents' resources, as `GeneratedModels` declares them.
enum ProjectedModels {
    struct Article: Codable, JSONAPIResource, ResourceReadable {
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

        init(from reader: borrowing ResourceReader) throws {
            try self.init(
                id: reader.decode("id"), title: reader.decode("title"), body: reader.decode("body"),
                slug: reader.decode("slug"), wordCount: reader.decode("wordCount"), rating: reader.decode("rating"),
                published: reader.decode("published"), subtitle: reader.decodeIfPresent("subtitle"),
                keywords: reader.decode("keywords"), metrics: reader.decode("metrics"),
                createdAt: reader.decode("createdAt"), author: reader.decode("author"),
                authorLinks: reader.decodeIfPresent("author.links"), comments: reader.decode("comments"),
                commentsLinks: reader.decodeIfPresent("comments.links"),
                commentsMeta: reader.decodeIfPresent("comments.meta"), tags: reader.decode("tags"),
                links: reader.decodeIfPresent("links"), meta: reader.decodeIfPresent("meta"))
        }

        init(
            id: String, title: String, body: String, slug: String, wordCount: Int, rating: Double, published: Bool,
            subtitle: String?, keywords: [String], metrics: Metrics, createdAt: String, author: Identifier<Person>,
            authorLinks: RelationshipLinks?, comments: [Identifier<Comment>], commentsLinks: RelationshipLinks?,
            commentsMeta: CommentsMeta?, tags: [Identifier<Tag>], links: ResourceLinks?, meta: ArticleMeta?
        ) {
            self.id = id
            self.title = title
            self.body = body
            self.slug = slug
            self.wordCount = wordCount
            self.rating = rating
            self.published = published
            self.subtitle = subtitle
            self.keywords = keywords
            self.metrics = metrics
            self.createdAt = createdAt
            self.author = author
            self.authorLinks = authorLinks
            self.comments = comments
            self.commentsLinks = commentsLinks
            self.commentsMeta = commentsMeta
            self.tags = tags
            self.links = links
            self.meta = meta
        }
    }

    struct Metrics: Codable, ResourceReadable {
        var views: Int
        var shares: Int
        var ratio: Double

        init(from reader: borrowing ResourceReader) throws {
            try self.init(views: reader.decode("views"), shares: reader.decode("shares"), ratio: reader.decode("ratio"))
        }

        init(views: Int, shares: Int, ratio: Double) {
            self.views = views
            self.shares = shares
            self.ratio = ratio
        }
    }

    struct ArticleMeta: Codable {
        var revision: Int
        var locked: Bool
    }

    struct CommentsMeta: Codable {
        var count: Int
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

    struct Person: Codable, JSONAPIResource, ResourceReadable {
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

        init(from reader: borrowing ResourceReader) throws {
            try self.init(
                id: reader.decode("id"), firstName: reader.decode("firstName"), lastName: reader.decode("lastName"),
                email: reader.decode("email"), age: reader.decode("age"), bio: reader.decode("bio"),
                twitter: reader.decodeIfPresent("twitter"), articles: reader.decodeIfPresent("articles"),
                links: reader.decodeIfPresent("links"))
        }

        init(
            id: String, firstName: String, lastName: String, email: String, age: Int, bio: String, twitter: String?,
            articles: [Identifier<Article>]?, links: ResourceLinks?
        ) {
            self.id = id
            self.firstName = firstName
            self.lastName = lastName
            self.email = email
            self.age = age
            self.bio = bio
            self.twitter = twitter
            self.articles = articles
            self.links = links
        }
    }

    struct Comment: Codable, JSONAPIResource, ResourceReadable {
        static let resourceType = "comments"

        var id: String
        var body: String
        var createdAt: String
        var likes: Int
        var author: Identifier<Person>?
        var links: ResourceLinks?

        init(from reader: borrowing ResourceReader) throws {
            try self.init(
                id: reader.decode("id"), body: reader.decode("body"), createdAt: reader.decode("createdAt"),
                likes: reader.decode("likes"), author: reader.decodeIfPresent("author"),
                links: reader.decodeIfPresent("links"))
        }

        init(
            id: String, body: String, createdAt: String, likes: Int, author: Identifier<Person>?,
            links: ResourceLinks?
        ) {
            self.id = id
            self.body = body
            self.createdAt = createdAt
            self.likes = likes
            self.author = author
            self.links = links
        }
    }

    struct Tag: Codable, JSONAPIResource, ResourceReadable {
        static let resourceType = "tags"

        var id: String
        var name: String
        var color: String

        init(from reader: borrowing ResourceReader) throws {
            try self.init(id: reader.decode("id"), name: reader.decode("name"), color: reader.decode("color"))
        }

        init(id: String, name: String, color: String) {
            self.id = id
            self.name = name
            self.color = color
        }
    }
}
