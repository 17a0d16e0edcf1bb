import Benchmark
import JSONAPI
import JSONAPIGenerator
import JSONAPIGeneratorModels

// `ValuesFloor/<size>`: what keeping the decoded structs costs by itself.
//
// It builds the document, as `TypedProjection` does, and then makes the very values
// `TypedProjection` keeps, without reading them from the document: the same structs, with
// strings of the same lengths and arrays of the same counts, made in the same order, each
// collection kept in an array and released as `projectEveryResource` releases it. The strings
// are copied from a constant buffer that stays in cache. Their lengths are recorded in `setup`
// from one real decode, outside the measurement.
//
// No projection of this build into these structs can be faster than this: it pays the same
// build and the same allocations, copies and frees, and on top of that finds, reads and
// converts every value. So `JSONDecoder`'s median over this one is the most `TypedProjection`
// could reach with a projection that cost nothing. At 100 MB it shows how much of the kept
// projection's time is the allocator and the memory the values occupy.

/// The lengths of the strings (`nil` for an absent optional) and the counts of the arrays of
/// one decoded document, in the order the decoder makes them.
struct ValueShapes: Sendable {
    /// The two links of a relationship.
    struct RelationshipLinks: Sendable {
        var selfLink, related: Int32?
    }

    struct Article: Sendable {
        var id, title, body, slug, createdAt: Int32
        var subtitle: Int32?
        var keywords: [Int32]
        /// The author's index in `people`: a linked id is one shared string per person.
        var author: Int32
        var authorLinks: RelationshipLinks?
        var comments: [Int32]
        var commentsLinks: RelationshipLinks?
        var tags: [Int32]
        var links: Int32?
    }

    struct Person: Sendable {
        var id, firstName, lastName, email, bio: Int32
        var twitter: Int32?
        var articles: [Int32]?
        var links: Int32?
    }

    struct Comment: Sendable {
        var id, body, createdAt: Int32
        var author: Int32?
        var links: Int32?
    }

    struct Tag: Sendable {
        var id, name, color: Int32
    }

    var articles: [Article] = []
    var people: [Person] = []
    var comments: [Comment] = []
    var tags: [Tag] = []
    var templates: Templates

    /// One decoded value of each type in the document, emptied; every copy fills in its strings
    /// and arrays (the models have no public memberwise initializers). `nil` when the document
    /// has no such value, and so nothing to make from it.
    struct Templates: Sendable {
        var article: GeneratedModels.Article?
        var person: GeneratedModels.Person?
        var comment: GeneratedModels.Comment?
        var tag: GeneratedModels.Tag?
        var relationshipLinks: GeneratedModels.RelationshipLinks?
        var resourceLinks: GeneratedModels.ResourceLinks?
    }
}

/// A linked author that the document does not include (the generator includes every one).
struct UnknownAuthor: Error {
    var id: String
}

extension ValueShapes {
    /// Decodes `bytes` once and records every value's length.
    init(recording bytes: [UInt8]) throws {
        let document = try Document(parsing: bytes)
        let articles = try document.primary(as: GeneratedModels.Article.self).decodeAll()
        let people = try document.included(of: GeneratedModels.Person.self).decodeAll()
        let comments = try document.included(of: GeneratedModels.Comment.self).decodeAll()
        let tags = try document.included(of: GeneratedModels.Tag.self).decodeAll()
        // Every string and array of a template is replaced in each copy; emptied here, copying
        // a template retains nothing, so the measurement holds only what a decoder must do.
        templates = Templates(
            article: articles.first.map { article in
                var blank = article
                (blank.id, blank.title, blank.body, blank.slug, blank.createdAt) = ("", "", "", "", "")
                (blank.subtitle, blank.keywords, blank.author) = (nil, [], Identifier(id: ""))
                (blank.comments, blank.tags, blank.authorLinks, blank.commentsLinks, blank.links) = (
                    [], [], nil, nil, nil
                )
                return blank
            },
            person: people.first.map { person in
                var blank = person
                (blank.id, blank.firstName, blank.lastName, blank.email) = ("", "", "", "")
                (blank.bio, blank.twitter, blank.articles, blank.links) = ("", nil, nil, nil)
                return blank
            },
            comment: comments.first.map { comment in
                var blank = comment
                (blank.id, blank.body, blank.createdAt, blank.author, blank.links) = ("", "", "", nil, nil)
                return blank
            },
            tag: tags.first.map { tag in
                var blank = tag
                (blank.id, blank.name, blank.color) = ("", "", "")
                return blank
            },
            relationshipLinks: articles.lazy.compactMap { $0.authorLinks ?? $0.commentsLinks }.first.map { links in
                var blank = links
                (blank.selfLink, blank.related) = (nil, nil)
                return blank
            },
            resourceLinks: (articles.lazy.compactMap(\.links).first ?? people.lazy.compactMap(\.links).first
                ?? comments.lazy.compactMap(\.links).first).map { links in
                    var blank = links
                    blank.selfLink = ""
                    return blank
                })

        func length(_ string: String) -> Int32 { Int32(string.utf8.count) }
        func links(_ links: GeneratedModels.RelationshipLinks?) -> RelationshipLinks? {
            links.map { RelationshipLinks(selfLink: $0.selfLink.map(length), related: $0.related.map(length)) }
        }
        var personIndex: [String: Int32] = [:]
        for (index, person) in people.enumerated() { personIndex[person.id] = Int32(index) }
        func author(_ id: String) throws -> Int32 {
            guard let index = personIndex[id] else { throw UnknownAuthor(id: id) }
            return index
        }

        self.articles = try articles.map { article in
            Article(
                id: length(article.id), title: length(article.title), body: length(article.body),
                slug: length(article.slug), createdAt: length(article.createdAt),
                subtitle: article.subtitle.map(length), keywords: article.keywords.map(length),
                author: try author(article.author.id), authorLinks: links(article.authorLinks),
                comments: article.comments.map { length($0.id) }, commentsLinks: links(article.commentsLinks),
                tags: article.tags.map { length($0.id) }, links: article.links.map { length($0.selfLink) })
        }
        self.people = people.map { person in
            Person(
                id: length(person.id), firstName: length(person.firstName), lastName: length(person.lastName),
                email: length(person.email), bio: length(person.bio), twitter: person.twitter.map(length),
                articles: person.articles.map { $0.map { length($0.id) } },
                links: person.links.map { length($0.selfLink) })
        }
        self.comments = try comments.map { comment in
            Comment(
                id: length(comment.id), body: length(comment.body), createdAt: length(comment.createdAt),
                author: try comment.author.map { try author($0.id) }, links: comment.links.map { length($0.selfLink) })
        }
        self.tags = tags.map { Tag(id: length($0.id), name: length($0.name), color: length($0.color)) }
    }
}

/// Builds the document and makes and releases every value `projectEveryResource` keeps, from
/// `shapes` instead of from the document.
func makeEveryValue(_ bytes: [UInt8], shapes: ValueShapes) throws {
    let document = try Document(parsing: bytes)
    let templates = shapes.templates
    let filler = Filler(relationshipLinks: templates.relationshipLinks, resourceLinks: templates.resourceLinks)

    do {
        // Linked ids are shared per decode, one string per person, made at first use.
        var authors = [String?](repeating: nil, count: shapes.people.count)
        var articles: [GeneratedModels.Article] = []
        articles.reserveCapacity(shapes.articles.count)
        for shape in shapes.articles {
            guard var article = templates.article else { break }
            article.id = filler.string(shape.id)
            article.title = filler.string(shape.title)
            article.body = filler.string(shape.body)
            article.slug = filler.string(shape.slug)
            article.subtitle = shape.subtitle.map(filler.string)
            article.keywords = filler.strings(shape.keywords)
            article.createdAt = filler.string(shape.createdAt)
            article.author = Identifier(id: filler.shared(&authors, shape.author, shapes.people))
            article.authorLinks = shape.authorLinks.flatMap(filler.relationshipLinks)
            article.comments = filler.identifiers(shape.comments)
            article.commentsLinks = shape.commentsLinks.flatMap(filler.relationshipLinks)
            article.tags = filler.identifiers(shape.tags)
            article.links = shape.links.flatMap(filler.resourceLinks)
            articles.append(article)
        }
        blackHole(articles)
    }
    do {
        var people: [GeneratedModels.Person] = []
        people.reserveCapacity(shapes.people.count)
        for shape in shapes.people {
            guard var person = templates.person else { break }
            person.id = filler.string(shape.id)
            person.firstName = filler.string(shape.firstName)
            person.lastName = filler.string(shape.lastName)
            person.email = filler.string(shape.email)
            person.bio = filler.string(shape.bio)
            person.twitter = shape.twitter.map(filler.string)
            person.articles = shape.articles.map { filler.identifiers($0) }
            person.links = shape.links.flatMap(filler.resourceLinks)
            people.append(person)
        }
        blackHole(people)
    }
    do {
        var authors = [String?](repeating: nil, count: shapes.people.count)
        var comments: [GeneratedModels.Comment] = []
        comments.reserveCapacity(shapes.comments.count)
        for shape in shapes.comments {
            guard var comment = templates.comment else { break }
            comment.id = filler.string(shape.id)
            comment.body = filler.string(shape.body)
            comment.createdAt = filler.string(shape.createdAt)
            comment.author = shape.author.map { Identifier(id: filler.shared(&authors, $0, shapes.people)) }
            comment.links = shape.links.flatMap(filler.resourceLinks)
            comments.append(comment)
        }
        blackHole(comments)
    }
    do {
        var tags: [GeneratedModels.Tag] = []
        tags.reserveCapacity(shapes.tags.count)
        for shape in shapes.tags {
            guard var tag = templates.tag else { break }
            tag.id = filler.string(shape.id)
            tag.name = filler.string(shape.name)
            tag.color = filler.string(shape.color)
            tags.append(tag)
        }
        blackHole(tags)
    }
    blackHole(document)
}

/// Makes strings of given lengths from a constant ASCII buffer, one allocation each of exactly
/// that size (none up to 15 bytes), as the decoder makes them, without validating them again.
struct Filler {
    let source = [UInt8](repeating: UInt8(ascii: "a"), count: 1 << 16)
    let relationshipLinks: GeneratedModels.RelationshipLinks?
    let resourceLinks: GeneratedModels.ResourceLinks?

    @inline(__always)
    func string(_ count: Int32) -> String {
        source.withUnsafeBufferPointer { all in
            let bytes = UnsafeBufferPointer(rebasing: all[..<min(Int(count), all.count)])
            if #available(macOS 26.0, iOS 26.0, watchOS 26.0, tvOS 26.0, visionOS 26.0, *) {
                return String(copying: UTF8Span(unchecked: bytes.span, isKnownASCII: true))
            }
            return String(decoding: bytes, as: UTF8.self)
        }
    }

    func strings(_ counts: [Int32]) -> [String] {
        var result: [String] = []
        result.reserveCapacity(counts.count)
        for count in counts { result.append(string(count)) }
        return result
    }

    func identifiers<M: JSONAPIResource>(_ counts: [Int32]) -> [Identifier<M>] {
        var result: [Identifier<M>] = []
        result.reserveCapacity(counts.count)
        for count in counts { result.append(Identifier(id: string(count))) }
        return result
    }

    /// The shared id string of person `index`, made the first time it is linked.
    func shared(_ table: inout [String?], _ index: Int32, _ people: [ValueShapes.Person]) -> String {
        let index = Int(index)
        if let id = table[index] { return id }
        let id = string(people[index].id)
        table[index] = id
        return id
    }

    func relationshipLinks(_ counts: ValueShapes.RelationshipLinks) -> GeneratedModels.RelationshipLinks? {
        guard var links = relationshipLinks else { return nil }
        links.selfLink = counts.selfLink.map(string)
        links.related = counts.related.map(string)
        return links
    }

    func resourceLinks(_ count: Int32) -> GeneratedModels.ResourceLinks? {
        guard var links = resourceLinks else { return nil }
        links.selfLink = string(count)
        return links
    }
}
