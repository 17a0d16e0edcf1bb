import Foundation
import JSONAPI
import Testing

@testable import JSONAPITestSupport

@Suite("Lenient decoding and its problem report")
struct TolerantDecodingTests {
    struct Person: Decodable, Equatable, Sendable, JSONAPIResource {
        static let resourceType = "people"
        var id: String
        var name: String
    }

    struct Organization: Decodable, Equatable, Sendable, JSONAPIResource {
        static let resourceType = "organizations"
        var id: String
        var name: String
    }

    struct Tag: Decodable, Equatable, Sendable, JSONAPIResource {
        static let resourceType = "tags"
        var id: String
    }

    enum Contributor: ResourceUnion, Equatable, Sendable {
        case person(Person)
        case organization(Organization)

        static let members: [ResourceUnionMember<Contributor>] = [
            .member(Person.self, Contributor.person),
            .member(Organization.self, Contributor.organization),
        ]
    }

    struct Comment: Decodable, Equatable, Sendable, JSONAPIResource {
        static let resourceType = "comments"
        var id: String
        var body: String
    }

    struct Article: Decodable, Sendable, JSONAPIResource {
        static let resourceType = "articles"
        var id: String
        var title: String
        var rating: Int?
        var published: Date?
        var author: Person?
        var comments: [Comment]
        var contributors: [Contributor]
        var tags: [Identifier<Tag>]
    }

    /// One problem of each kind, some twice, spread over three articles (one per line, so the
    /// lines can be checked).
    static let document = """
        {"data":[
        {"type":"articles","id":"1","attributes":{"title":"One","rating":"five"},"relationships":{"author":{"data":{"type":"robots","id":"r1"}},"comments":{"data":[{"type":"comments","id":"5"},{"type":"comments","id":"6"},{"type":"comments","id":"7"}]},"contributors":{"data":[{"type":"people","id":"9"},{"type":"teams","id":"1"},{"type":"organizations","id":"2"}]},"tags":{"data":[{"type":"tags","id":"1"},{"type":"people","id":"9"}]}}},
        {"type":"articles","id":"2","attributes":{"title":null},"relationships":{"comments":{"data":[]},"contributors":{"data":[]},"tags":{"data":[]}}},
        {"type":"articles","id":"3","attributes":{"title":"Three","published":"yesterday"},"relationships":{"author":{"data":{"type":"people","id":"99"}},"comments":{"data":[]},"contributors":{"data":[]},"tags":{"data":[]}}}
        ],
        "included":[
        {"type":"robots","id":"r1","attributes":{"model":"T-1000"}},
        {"type":"comments","id":"5","attributes":{"body":"First"}},
        {"type":"comments","id":"7","attributes":{"body":null}},
        {"type":"people","id":"9","attributes":{"name":"Dan"}},
        {"type":"teams","id":"1","attributes":{"name":"Core"}},
        {"type":"organizations","id":"2","attributes":{"name":"Acme"}},
        {"type":"tags","id":"1"}
        ]}
        """

    static var lenient: DecodingOptions {
        var options = DecodingOptions()
        options.tolerance = .lenient
        return options
    }

    @Test func reportsEveryProblemWithWhatWasDone() throws {
        let report = try JSONAPIDecoder(options: Self.lenient).decodeReporting(
            [Article].self, from: Array(Self.document.utf8))
        let articles = report.value
        #expect(articles.map(\.id) == ["1", "3"])
        #expect(articles[0].rating == nil)
        #expect(articles[0].author == nil)
        #expect(articles[0].comments == [Comment(id: "5", body: "First")])
        #expect(
            articles[0].contributors == [
                .person(Person(id: "9", name: "Dan")), .organization(Organization(id: "2", name: "Acme")),
            ])
        #expect(articles[0].tags.map(\.id) == ["1"])
        #expect(articles[1].published == nil)
        #expect(articles[1].author == nil)

        let problems = report.problems
        func problem(_ path: String) -> DecodingProblem? { problems.first { $0.codingPath == path } }
        #expect(problems.count == 9, "\(problems.map(\.description).joined(separator: "\n"))")

        let rating = try #require(problem("[0].rating"))
        #expect(rating.kind == .invalidValue)
        #expect(rating.action == .setToNil)
        #expect(rating.pointer == "/data/0/attributes/rating")
        #expect(rating.line == 2)

        let author = try #require(problem("[0].author"))
        #expect(author.kind == .wrongResourceType)
        #expect(author.action == .setToNil)
        #expect(author.pointer == "/data/0/relationships/author/data")
        #expect(author.resource == ResourceIdentifier(type: "robots", id: "r1"))
        #expect(author.message.contains("found a `robots` resource"))

        let missingComment = try #require(problem("[0].comments[1]"))
        #expect(missingComment.kind == .missingResource)
        #expect(missingComment.action == .leftOut)
        #expect(missingComment.pointer == "/data/0/relationships/comments/data/1")
        #expect(missingComment.resource == ResourceIdentifier(type: "comments", id: "6"))

        let nullBody = try #require(problem("[0].comments[2]"))
        #expect(nullBody.kind == .missingValue)
        #expect(nullBody.action == .leftOut)
        #expect(nullBody.pointer == "/included/2/attributes/body")
        #expect(nullBody.line == 9)
        #expect(nullBody.resource == ResourceIdentifier(type: "comments", id: "7"))

        let team = try #require(problem("[0].contributors[1]"))
        #expect(team.kind == .unhandledResourceType)
        #expect(team.action == .leftOut)
        #expect(team.pointer == "/data/0/relationships/contributors/data/1")

        let tag = try #require(problem("[0].tags[1]"))
        #expect(tag.kind == .wrongResourceType)
        #expect(tag.action == .leftOut)
        #expect(tag.pointer == "/data/0/relationships/tags/data/1")

        let nullTitle = try #require(problem("[1]"))
        #expect(nullTitle.kind == .missingValue)
        #expect(nullTitle.action == .leftOut)
        #expect(nullTitle.pointer == "/data/1/attributes/title")
        #expect(nullTitle.line == 3)
        #expect(nullTitle.resource == ResourceIdentifier(type: "articles", id: "2"))

        let date = try #require(problem("[2].published"))
        #expect(date.kind == .invalidValue)
        #expect(date.pointer == "/data/2/attributes/published")

        let missingAuthor = try #require(problem("[2].author"))
        #expect(missingAuthor.kind == .missingResource)
        #expect(missingAuthor.action == .setToNil)
        #expect(missingAuthor.pointer == "/data/2/relationships/author/data")
        #expect(missingAuthor.line == 4)

        // In decode order, and the skipped resources among them.
        #expect(problems.map(\.codingPath).first == "[0].rating")
        #expect(problems.map(\.codingPath).last == "[2].author")
        #expect(report.skipped.count == 3)
        #expect(rating.description.hasPrefix("[0].rating read as absent: "))
        #expect(rating.description.hasSuffix("at /data/0/attributes/rating (line 2, column \(rating.column))"))
    }

    @Test func typedCollectionsReportTheSameProblems() throws {
        let document = try Document(parsing: Self.document)
        let all = try JSONAPIDecoder(options: Self.lenient).decodeReporting([Article].self, from: document)
        let collection = document.primary(as: Article.self, options: Self.lenient)
        let decoded = try collection.decodeAllReporting()
        #expect(decoded.value.map(\.id) == ["1", "3"])
        #expect(decoded.problems == all.problems)

        var walked: [String] = []
        let walk = try collection.forEachDecodedReporting { walked.append($0.id) }
        #expect(walked == ["1", "3"])
        #expect(walk.problems == all.problems)

        var iterator = collection.makeDecodingIterator()
        var iterated: [String] = []
        while let article = try iterator.next() { iterated.append(article.id) }
        #expect(iterated == ["1", "3"])
        #expect(iterator.problems() == all.problems)

        let compound = try JSONAPIDecoder(options: Self.lenient).decode(
            CompoundDocument<[Article], NoMeta, NoLinks>.self, from: document)
        #expect(compound.data.map(\.id) == ["1", "3"])
        #expect(compound.problems.map(\.pointer) == all.problems.map(\.pointer))
        #expect(compound.problems.map(\.codingPath) == all.problems.map { "data" + $0.codingPath })
    }

    @Test func strictDecodingFailsAtTheFirstProblemWhereItIs() throws {
        let error = decodingError { try decode([Article].self, Self.document) }
        #expect(error?.jsonapiError?.pointer == "/data/0/attributes/rating")

        // A wrongly typed to-one linkage: the error points at the linkage, even with both
        // "ignore" options set, not at the included resource it names.
        struct Book: Decodable, JSONAPIResource {
            static let resourceType = "books"
            var id: String
            var author: Person?
        }
        let text = """
            {"data":{"type":"books","id":"1","relationships":{"author":{"data":{"type":"robots","id":"r1"}}}},
             "included":[{"type":"robots","id":"r1"}]}
            """
        var options = DecodingOptions()
        options.ignoresMissingResources = true
        options.ignoresUnhandledResourceTypes = true
        let typed = decodingError { try JSONAPIDecoder(options: options).decode(Book.self, from: Array(text.utf8)) }
        #expect(typed?.jsonapiError?.pointer == "/data/relationships/author/data")
        #expect(typed?.jsonapiError?.code == .typeMismatch)
        #expect(typed?.debugDescription.contains("expected a `people` resource") == true)

        // Lenient: nil, and said so.
        let report = try JSONAPIDecoder(options: Self.lenient).decodeReporting(Book.self, from: Array(text.utf8))
        #expect(report.value.author == nil)
        #expect(report.problems.map(\.pointer) == ["/data/relationships/author/data"])
    }

    @Test func strictReportsListSkippedResourcesAsProblems() throws {
        var options = DecodingOptions()
        options.ignoresMissingResources = true
        struct Post: Decodable, JSONAPIResource {
            static let resourceType = "posts"
            var id: String
            var comments: [Comment]
        }
        let text = """
            {"data":{"type":"posts","id":"1","relationships":{"comments":{"data":[{"type":"comments","id":"1"},{"type":"comments","id":"2"}]}}}}
            """
        let report = try JSONAPIDecoder(options: options).decodeReporting(Post.self, from: Array(text.utf8))
        #expect(report.value.comments.isEmpty)
        #expect(report.skipped.count == 2)
        #expect(report.problems.map(\.kind) == [.missingResource, .missingResource])
        #expect(report.problems.map(\.action) == [.leftOut, .leftOut])
        #expect(report.problems.map(\.pointer) == report.skipped.map(\.pointer))
    }

    /// A model read through its reader initializer recovers at the same places.
    struct ReadableArticle: ResourceReadable, JSONAPIResource {
        static let resourceType = "articles"
        var id: String
        var title: String
        var rating: Int?
        var scores: [Int]?
        var comments: [Comment]

        init(from reader: borrowing ResourceReader) throws {
            id = try reader.decode("id")
            title = try reader.decode("title")
            rating = try reader.decodeIfPresent("rating")
            scores = try reader.decodeIfPresent("scores")
            comments = try reader.decode("comments")
        }

        enum CodingKeys: String, CodingKey { case id, title, rating, scores, comments }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            id = try container.decode(String.self, forKey: .id)
            title = try container.decode(String.self, forKey: .title)
            rating = try container.decodeIfPresent(Int.self, forKey: .rating)
            scores = try container.decodeIfPresent([Int].self, forKey: .scores)
            comments = try container.decode([Comment].self, forKey: .comments)
        }
    }

    @Test(arguments: [true, false])
    func readersAndContainersRecoverAlike(usesReaders: Bool) throws {
        let text = """
            {"data":[
            {"type":"articles","id":"1","attributes":{"title":"A","rating":1.5,"scores":[1,"two",3]},"relationships":{"comments":{"data":[{"type":"comments","id":"5"},{"type":"comments","id":"8"}]}}},
            {"type":"articles","id":"2","attributes":{"title":7},"relationships":{"comments":{"data":[]}}}
            ],"included":[{"type":"comments","id":"5","attributes":{"body":"ok"}},{"type":"comments","id":"8","attributes":{"body":false}}]}
            """
        var options = Self.lenient
        options.usesResourceReaders = usesReaders
        let report = try JSONAPIDecoder(options: options).decodeReporting(
            [ReadableArticle].self, from: Array(text.utf8))
        #expect(report.value.map(\.id) == ["1"])
        #expect(report.value.first?.rating == nil)
        #expect(report.value.first?.scores == nil)
        #expect(report.value.first?.comments == [Comment(id: "5", body: "ok")])
        #expect(
            report.problems.map(\.pointer) == [
                "/data/0/attributes/rating", "/data/0/attributes/scores/1", "/included/1/attributes/body",
                "/data/1/attributes/title",
            ])
        #expect(report.problems.map(\.action) == [.setToNil, .setToNil, .leftOut, .leftOut])
        #expect(report.problems.allSatisfy { $0.kind == .invalidValue })
    }

    @Test func whatCannotBeRecoveredStillThrows() throws {
        // The single primary resource's required attribute: there is nowhere to recover.
        let text = #"{"data":{"type":"comments","id":"1","attributes":{"body":null}}}"#
        let error = decodingError {
            try JSONAPIDecoder(options: Self.lenient).decode(Comment.self, from: Array(text.utf8))
        }
        #expect(error?.jsonapiError?.pointer == "/data/attributes/body")

        // Invalid options are never a document problem.
        var options = Self.lenient
        options.maximumDepth = 0
        #expect(throws: JSONAPIError.self) {
            _ = try JSONAPIDecoder(options: options).decode([Comment].self, from: Array(#"{"data":[]}"#.utf8))
        }
    }

    @Test func aMissingResourceErrorDoesNotClaimANull() throws {
        struct Book: Decodable, JSONAPIResource {
            static let resourceType = "books"
            var id: String
            var author: Person
        }
        let text = #"{"data":{"type":"books","id":"1","relationships":{"author":{"data":{"type":"people","id":"4"}}}}}"#
        let error = try #require(decodingError { try decode(Book.self, text) })
        let description = String(describing: error)
        #expect(!description.contains("found null"))
        #expect(!description.contains("type Any"))
        #expect(description.contains("people/4"))
    }

    /// A model whose `init(from:)` falls back on a default: the decoder answers
    /// `decodeIfPresent` with `nil` and cannot see the `?? 5`, so the problem says the value was
    /// read as absent, not that it was set to nil or that a default was kept.
    struct Counter: Decodable, Equatable, JSONAPIResource {
        static let resourceType = "counters"
        var id: String
        var views: Int
        var label: String?

        init(id: String, views: Int, label: String?) {
            self.id = id
            self.views = views
            self.label = label
        }

        init(from decoder: any Decoder) throws {
            enum Keys: String, CodingKey { case id, views, label }
            let container = try decoder.container(keyedBy: Keys.self)
            id = try container.decode(String.self, forKey: .id)
            views = try container.decodeIfPresent(Int.self, forKey: .views) ?? 5
            label = try container.decodeIfPresent(String.self, forKey: .label)
        }
    }

    @Test func aFallbackAfterDecodeIfPresentIsReadAsAbsent() throws {
        let text = #"""
            {"data": [{"type": "counters", "id": "1", "attributes": {"views": "many", "label": 7}}]}
            """#
        let report = try JSONAPIDecoder(options: Self.lenient).decodeReporting([Counter].self, from: text)
        #expect(report.value == [Counter(id: "1", views: 5, label: nil)])
        #expect(report.problems.map(\.codingPath) == ["[0].views", "[0].label"])
        #expect(report.problems.map(\.action) == [.setToNil, .setToNil])
        #expect(report.problems.map(\.kind) == [.invalidValue, .invalidValue])
        let views = try #require(report.problems.first)
        #expect(
            views.description
                == #"[0].views read as absent: expected an integer (Int), found a string ("many") at /data/0/attributes/views (line 1, column 67)"#
        )
        #expect(!views.description.contains("nil") && !views.description.contains("default"))
    }
}
