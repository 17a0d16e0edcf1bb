import Foundation
import JSONAPI
import Testing

@testable import JSONAPITestSupport

/// The reading examples of the porting guide (Porting.md), copied as they are written there and
/// run against real documents, so the guide cannot drift from the API. Each test names the
/// section it mirrors; the writing examples are in `PortingGuideWritingTests`, the
/// `@ResourceReadable` ones with the macro's tests.
@Suite("Porting guide: reading")
struct PortingGuideDecodingTests {
    // MARK: "Reading and writing JSON:API with Swift types, and porting from other libraries"

    struct Person: Decodable, JSONAPIResource {
        static let resourceType = "people"
        var id: String
        var firstName: String
        var twitter: String?
    }

    struct Comment: Decodable, JSONAPIResource {
        static let resourceType = "comments"
        var id: String
        var body: String
        var author: Person?  // nil when null or not included
    }

    struct Article: Decodable, JSONAPIResource {
        static let resourceType = "articles"
        var id: String
        var title: String
        var author: Person  // to-one, resolved through `included`
        var comments: [Comment]  // to-many
    }

    /// Four articles by people 9 and 2, with comments, a page's `meta` and `links` and a
    /// `jsonapi` object.
    static let data = Data(
        #"""
        {"data": [
          {"type": "articles", "id": "1", "attributes": {"title": "JSON:API paints my bikeshed!"},
           "relationships": {"author": {"data": {"type": "people", "id": "9"}},
                             "comments": {"data": [{"type": "comments", "id": "5"}, {"type": "comments", "id": "12"}]}}},
          {"type": "articles", "id": "2", "attributes": {"title": "Rails is Omakase"},
           "relationships": {"author": {"data": {"type": "people", "id": "2"}}, "comments": {"data": []}}},
          {"type": "articles", "id": "3", "attributes": {"title": "Three"},
           "relationships": {"author": {"data": {"type": "people", "id": "9"}}, "comments": {"data": []}}},
          {"type": "articles", "id": "4", "attributes": {"title": "Four"},
           "relationships": {"author": {"data": {"type": "people", "id": "2"}}, "comments": {"data": []}}}],
         "included": [
          {"type": "people", "id": "9", "attributes": {"firstName": "Dan", "twitter": "dgeb"}},
          {"type": "people", "id": "2", "attributes": {"firstName": "Yehuda"}},
          {"type": "comments", "id": "5", "attributes": {"body": "First!"},
           "relationships": {"author": {"data": {"type": "people", "id": "2"}}}},
          {"type": "comments", "id": "12", "attributes": {"body": "I like XML better"},
           "relationships": {"author": {"data": null}}}],
         "meta": {"totalPages": 13},
         "links": {"next": "/articles?page[number]=2"},
         "jsonapi": {"version": "1.1"}}
        """#.utf8)

    @Test("the opening example")
    func openingExample() throws {
        let data = Self.data
        let articles = try JSONAPIDecoder().decode([Article].self, from: data)
        #expect(articles.map(\.title).first == "JSON:API paints my bikeshed!")
        #expect(articles[0].author.firstName == "Dan")
        #expect(articles[0].comments.map(\.body) == ["First!", "I like XML better"])
        #expect(articles[0].comments.map(\.author?.firstName) == ["Yehuda", nil])
    }

    // MARK: "Unions without macros"

    struct Organization: Decodable, JSONAPIResource {
        static let resourceType = "organizations"
        var id: String
        var name: String
    }

    enum Contributor: ResourceUnion {
        case person(Person)
        case organization(Organization)

        static let members: [ResourceUnionMember<Contributor>] = [
            .member(Person.self, Contributor.person),
            .member(Organization.self, Contributor.organization),
        ]
    }

    @Test("Unions without macros")
    func unionsWithoutMacros() throws {
        let text = #"""
            {"data": [{"type": "people", "id": "9", "attributes": {"firstName": "Dan"}},
                      {"type": "organizations", "id": "3", "attributes": {"name": "Acme"}},
                      {"type": "robots", "id": "r1"}]}
            """#
        // An unknown `type` fails, naming the type and the members ...
        let error = decodingError { try JSONAPIDecoder().decode([Contributor].self, from: text) }
        #expect(error?.jsonapiError?.code == .typeMismatch)
        #expect(error?.jsonapiError?.message.contains("`robots`") == true)
        // ... unless `ignoresUnhandledResourceTypes` is set: then it is left out, and reported.
        let decoder = JSONAPIDecoder()
        decoder.ignoresUnhandledResourceTypes = true
        let report = try decoder.decodeReporting([Contributor].self, from: text)
        #expect(report.value.count == 2)
        #expect(report.skipped.map(\.identifier) == [ResourceIdentifier(type: "robots", id: "r1")])
    }

    // MARK: "Skipped resources"

    @Test("Skipped resources")
    func skippedResources() throws {
        let data = Data(
            #"""
            {"data": [{"type": "articles", "id": "1", "attributes": {"title": "T"},
                       "relationships": {"author": {"data": {"type": "people", "id": "9"}},
                                         "comments": {"data": [{"type": "comments", "id": "404"}]}}}],
             "included": [{"type": "people", "id": "9", "attributes": {"firstName": "Dan"}}]}
            """#.utf8)
        let decoder = JSONAPIDecoder()
        decoder.ignoresMissingResources = true
        let report = try decoder.decodeReporting([Article].self, from: data)
        _ = report.value  // the articles
        _ = report.skipped  // [SkippedResource]: identifier, reason, coding path, pointer, line, column

        #expect(report.value.map(\.comments.count) == [0])
        let skipped = try #require(report.skipped.first)
        #expect(skipped.identifier == ResourceIdentifier(type: "comments", id: "404"))
        #expect(skipped.codingPath == "[0].comments[0]")
        #expect(skipped.pointer == "/data/0/relationships/comments/data/0")
        #expect(skipped.line == 3 && skipped.column > 0)
    }

    // MARK: "Decoding what fits, and reporting the rest"

    /// Stands in for the app's logger.
    final class Logger {
        var warnings: [String] = []
        func warning(_ message: String) { warnings.append(message) }
    }

    @Test("Decoding what fits, and reporting the rest")
    func decodingWhatFits() throws {
        let logger = Logger()
        let data = Data(
            #"""
            {"data": [
            {"type": "articles", "id": "1", "attributes": {"title": "T"}, "relationships": {"author": {"data": {"type": "robots", "id": "r1"}}, "comments": {"data": []}}},
            {"type": "articles", "id": "2", "attributes": {"title": "Rails is Omakase"}, "relationships": {"author": {"data": {"type": "people", "id": "9"}}, "comments": {"data": []}}}],
             "included": [{"type": "robots", "id": "r1"}, {"type": "people", "id": "9", "attributes": {"firstName": "Dan"}}]}
            """#.utf8)

        let decoder = JSONAPIDecoder()
        decoder.tolerance = .lenient
        let report = try decoder.decodeReporting([Article].self, from: data)
        for problem in report.problems {
            logger.warning("\(problem)")
            // [0] left out: expected a `people` resource (Person), found a `robots` resource
            // (robots/r1) at /data/0/relationships/author/data (line 2, column 100)
        }

        #expect(report.value.map(\.id) == ["2"])
        #expect(
            logger.warnings == [
                "[0] left out: expected a `people` resource (Person), found a `robots` resource (robots/r1) at /data/0/relationships/author/data (line 2, column 100)"
            ])
    }

    // MARK: "Whole documents"

    @Test("Whole documents")
    func wholeDocuments() throws {
        let data = Self.data
        let decoder = JSONAPIDecoder()

        struct PageMeta: Decodable { var totalPages: Int }
        let page = try decoder.decode(CompoundDocument<[Article], PageMeta, Links>.self, from: data)
        _ = (page.data, page.meta?.totalPages, page.links?["next"]?.href, page.jsonapi?.version)
        _ = page.document.included(of: Person.self)  // the rest of the document, lazily

        #expect(page.data.count == 4)
        #expect(page.meta?.totalPages == 13)
        #expect(page.links?["next"]?.href == "/articles?page[number]=2")
        #expect(page.jsonapi?.version == "1.1")
        #expect(try page.document.included(of: Person.self).decodeAll().map(\.firstName) == ["Dan", "Yehuda"])

        // "`struct Response<T: Decodable>: Decodable { var data: T }` works"
        struct Response<T: Decodable>: Decodable { var data: T }
        #expect(try decoder.decode(Response<[Article]>.self, from: data).data.count == 4)
    }

    // MARK: "Lazy collections"

    @Test("Lazy collections")
    func lazyCollections() throws {
        let bytes = [UInt8](Self.data)
        var printed: [String] = []
        func print(_ text: String) { printed.append(text) }

        let document = try Document(parsing: bytes)
        let articles = document.primary(as: Article.self)  // count: free; element i decodes on read
        let one = try articles.element(at: 3)
        try articles.forEachDecoded { print($0.title) }  // one decoder for the walk
        let people = try document.included(of: Person.self).decodeAll()
        let dan = try document.resource(Person.self, id: "9")  // O(1)

        #expect(articles.count == 4)
        #expect(one.title == "Four")
        #expect(printed == ["JSON:API paints my bikeshed!", "Rails is Omakase", "Three", "Four"])
        #expect(people.count == 2)
        #expect(dan?.twitter == "dgeb")
        var iterator = articles.makeDecodingIterator()
        #expect(try iterator.next()?.id == "1")
    }

    // MARK: "Errors"

    @Test("Errors")
    func errors() throws {
        struct Titled: Decodable, JSONAPIResource {
            static let resourceType = "articles"
            var id: String
            var title: String
        }
        let text = #"""
            {"data": {"type": "articles", "id": "1",
                      "attributes": {
                            "title": 42}}}
            """#
        let error = try #require(decodingError { try JSONAPIDecoder().decode(Titled.self, from: text) })
        guard case .typeMismatch(_, let context) = error else {
            Issue.record("expected typeMismatch, got \(error)")
            return
        }
        #expect(
            context.debugDescription
                == "expected a string, found a number (42) at /data/attributes/title (line 3, column 26)")
        let place = try #require(error.jsonapiError)
        #expect(place.code == .typeMismatch)
        #expect(place.line == 3 && place.column == 26 && place.pointer == "/data/attributes/title")
        #expect(context.underlyingError is JSONAPIError)

        // Invalid bytes: `dataCorrupted` with the parser's error underneath.
        let invalid = try #require(decodingError { try JSONAPIDecoder().decode(Titled.self, from: "{\"data\": ") })
        guard case .dataCorrupted(let corrupted) = invalid else {
            Issue.record("expected dataCorrupted, got \(invalid)")
            return
        }
        #expect(corrupted.underlyingError is JSONAPIError)

        // An error document throws `DocumentErrors`.
        do {
            _ = try JSONAPIDecoder().decode(
                Titled.self,
                from:
                    #"{"errors": [{"status": "404", "code": "gone", "title": "Not Found", "source": {"pointer": "/data"}}]}"#
            )
            Issue.record("an error document decoded")
        } catch let failure as DocumentErrors {
            let first = try #require(failure.errors.first)
            #expect(first.status == "404" && first.code == "gone" && first.title == "Not Found")
            #expect(first.source?.pointer == "/data")
        }
    }

    // MARK: "Porting from mattpolzin/JSONAPI" (the table's reading calls)

    @Test("Porting from mattpolzin/JSONAPI")
    func fromMattpolzin() throws {
        let data = Self.data
        struct PageMeta: Decodable { var totalPages: Int }
        let document = try JSONAPIDecoder().decode(CompoundDocument<[Article], PageMeta, Links>.self, from: data)
        #expect(try document.document.included(of: Person.self).decodeAll().count == 2)

        struct Tag: Decodable, JSONAPIResource {
            static let resourceType = "tags"
            var id: String
        }
        struct Post: Decodable, JSONAPIResource {
            static let resourceType = "articles"
            var id: String
            var author: Identifier<Person>
            var tags: [Identifier<Tag>]
            var editor: Identifier<Person>?
        }
        let text = #"""
            {"data": {"type": "articles", "id": "1",
                      "relationships": {"author": {"data": {"type": "people", "id": "9"}},
                                        "tags": {"data": [{"type": "tags", "id": "t"}]}}}}
            """#
        let post = try JSONAPIDecoder().decode(Post.self, from: text)
        #expect(post.author.id == "9")  // `article ~> \.author`
        #expect(post.tags.map(\.id) == ["t"] && post.editor == nil)

        do {
            _ = try JSONAPIDecoder().decode(Post.self, from: #"{"errors": [{"status": "500"}]}"#)
        } catch let failure as DocumentErrors {
            #expect(failure.errors.map(\.status) == ["500"])
        }
    }

    // MARK: "Porting from Japx"

    struct User: Decodable, JSONAPIResource {
        static let resourceType = "users"
        let id: String
        let type: String
        let email: String
    }

    struct JapxResponse<T: Decodable>: Decodable { let data: T }

    @Test("Porting from Japx")
    func fromJapx() throws {
        let data = Data(#"{"data": {"type": "users", "id": "1", "attributes": {"email": "a@b.c"}}}"#.utf8)
        let wrapped = try JSONAPIDecoder().decode(JapxResponse<User>.self, from: data)
        let user = try JSONAPIDecoder().decode(User.self, from: data)
        #expect(wrapped.data.email == "a@b.c" && wrapped.data.type == "users")
        #expect(user.email == wrapped.data.email)
    }

    // MARK: "Porting from envoy/JSONAPIModel"

    struct Employee: Decodable, JSONAPIResource {
        static let resourceType = "employees"
        var id: String
        var name: String
    }

    struct Location: Decodable, JSONAPIResource {
        static let resourceType = "locations"
        var id: String
        var name: String
        var employees: [Employee]
        var manager: Employee?
    }

    @Test("Porting from envoy/JSONAPIModel")
    func fromEnvoy() throws {
        let data = Data(
            #"""
            {"data": {"type": "locations", "id": "loc-12345", "attributes": {"name": "HQ"},
                      "relationships": {"employees": {"data": [{"type": "employees", "id": "e1"}]},
                                        "manager": {"data": null}}},
             "included": [{"type": "employees", "id": "e1", "attributes": {"name": "Ann"}}]}
            """#.utf8)
        let location = try JSONAPIDecoder().decode(Location.self, from: data)
        #expect(location.employees.map(\.name) == ["Ann"] && location.manager == nil)

        // "a `nil` from the server failing the whole parse": lenient decoding logs it instead.
        let decoder = JSONAPIDecoder()
        decoder.tolerance = .lenient
        let withNull = #"""
            {"data": [{"type": "locations", "id": "1", "attributes": {"name": null},
                       "relationships": {"employees": {"data": []}}},
                      {"type": "locations", "id": "2", "attributes": {"name": "HQ"},
                       "relationships": {"employees": {"data": []}}}]}
            """#
        let report = try decoder.decodeReporting([Location].self, from: withNull)
        #expect(report.value.map(\.id) == ["2"])
        #expect(report.problems.map(\.kind) == [.missingValue])
    }
}
