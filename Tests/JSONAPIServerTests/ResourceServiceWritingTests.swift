import Foundation
import JSONAPI
import JSONAPIServer
import Testing

@testable import JSONAPITestSupport

@Suite("Resource service: writing")
struct ResourceServiceWritingTests {
    let newBook = #"""
        {"data":{"type":"books","attributes":{"title":"Emma","year":1815},
         "relationships":{"author":{"data":{"type":"authors","id":"2"}},"reviews":{"data":[]}}}}
        """#

    @Test("create: 201, Location, a server id, the stored resource")
    func create() async throws {
        let sources = try Library.sources()
        let service = Library.service(sources)
        let answer = await service.send("POST", "books", .collection, body: newBook)
        #expect(answer.status == 201)
        #expect(answer.response?.location == "/books/4")
        let created = try #require(answer.document?.primaryResources.first)
        #expect(created.id == "4")
        #expect(created.attributes["title"]?.stringValue == "Emma")
        #expect(try await sources.books.fetch(id: "4")?.author == "2")
    }

    @Test("create: a create that fails uses no id; the next one gets it")
    func failedCreateUsesNoID() async throws {
        let sources = try Library.sources()
        let service = Library.service(sources)
        let invalid = newBook.replacingOccurrences(of: #""year":1815"#, with: #""year":"soon""#)
        #expect(await service.send("POST", "books", .collection, body: invalid).status == 422)
        let missingAuthor = newBook.replacingOccurrences(of: #""id":"2""#, with: #""id":"404""#)
        #expect(await service.send("POST", "books", .collection, body: missingAuthor).status == 404)
        let created = await service.send("POST", "books", .collection, body: newBook)
        #expect(created.status == 201)
        #expect(created.document?.primaryResources.first?.id == "4")
        // Outside a write, each call hands out a new id.
        let first = try await sources.books.makeID()
        let second = try await sources.books.makeID()
        #expect(first == "5" && second == "6")
    }

    @Test("create: a to-many relationship the body leaves out starts empty; a to-one one is required")
    func createWithoutRelationships() async throws {
        let sources = try Library.sources()
        let service = Library.service(sources)
        let answer = await service.send(
            "POST", "books", .collection,
            body:
                #"{"data":{"type":"books","attributes":{"title":"Emma","year":1815},"relationships":{"author":{"data":{"type":"authors","id":"2"}}}}}"#
        )
        #expect(answer.status == 201)
        #expect(try await sources.books.fetch(id: "4")?.reviews == [])
        let noAuthor = await service.send(
            "POST", "books", .collection, body: #"{"data":{"type":"books","attributes":{"title":"Emma","year":1815}}}"#)
        #expect(noAuthor.status == 422)
    }

    @Test("create: a client id is 403 unless allowed, 409 when taken, 409 for another type")
    func clientIDs() async throws {
        let withID = newBook.replacingOccurrences(of: #""type":"books","#, with: #""type":"books","id":"b-7","#)
        let forbidden = await Library.service(try Library.sources()).send("POST", "books", .collection, body: withID)
        #expect(forbidden.status == 403)
        #expect(forbidden.pointers == ["/data/id"])
        let service = Library.service(try Library.sources()) { $0.clientIDs = .allowed }
        #expect(await service.send("POST", "books", .collection, body: withID).status == 201)
        let taken = await service.send("POST", "books", .collection, body: withID)
        #expect(taken.status == 409)
        let otherType = await service.send(
            "POST", "books", .collection, body: #"{"data":{"type":"authors","attributes":{"name":"X"}}}"#)
        #expect(otherType.status == 409)
        // An empty id names no resource in a URL.
        let empty = await service.send(
            "POST", "books", .collection,
            body: newBook.replacingOccurrences(of: #""type":"books","#, with: #""type":"books","id":"","#))
        #expect(empty.status == 422)
        #expect(empty.pointers == ["/data/id"])
        #expect(otherType.pointers == ["/data/type"])
    }

    @Test("create: every problem of the body in one 422, at its pointer")
    func everyProblem() async throws {
        let service = Library.service(try Library.sources()) { books in
            books.fields.readOnly = ["rating"]
            books.validation.check(\.title, "a title is 1 to 200 characters") { (1...200).contains($0.count) }
        }
        let body = #"""
            {"data":{"type":"books","attributes":{"title":5,"year":"soon","rating":5,"subtitle":"x"},
             "relationships":{"author":{"data":{"type":"authors","id":"1"}},"reviews":{"data":[]}}}}
            """#
        let answer = await service.send("POST", "books", .collection, body: body)
        #expect(answer.status == 422)
        #expect(
            Set(answer.pointers)
                == [
                    "/data/attributes/title", "/data/attributes/year", "/data/attributes/rating",
                    "/data/attributes/subtitle",
                ])
        // Decoding passes, validation fails: the check's pointer.
        let empty = newBook.replacingOccurrences(of: #""title":"Emma""#, with: #""title":"""#)
        let invalid = await service.send("POST", "books", .collection, body: empty)
        #expect(invalid.status == 422)
        #expect(invalid.pointers == ["/data/attributes/title"])
    }

    @Test("linkage to a resource that does not exist is 404; to another type 409")
    func linkage() async throws {
        let service = Library.service(try Library.sources())
        let missing = newBook.replacingOccurrences(of: #""id":"2""#, with: #""id":"99""#)
        let answer = await service.send("POST", "books", .collection, body: missing)
        #expect(answer.status == 404)
        #expect(answer.pointers == ["/data/relationships/author/data"])
        let wrongType = newBook.replacingOccurrences(
            of: #"{"type":"authors","id":"2"}"#, with: #"{"type":"books","id":"1"}"#)
        let conflict = await service.send("POST", "books", .collection, body: wrongType)
        #expect(conflict.status == 409)
        #expect(conflict.pointers == ["/data/relationships/author/data/type"])
    }

    @Test("update: members absent keep their value, null is refused where the property is not optional")
    func update() async throws {
        let sources = try Library.sources()
        let service = Library.service(sources)
        let answer = await service.send(
            "PATCH", "books", .resource(id: "1"),
            body: #"{"data":{"type":"books","id":"1","attributes":{"rating":null,"year":1966}}}"#)
        #expect(answer.status == 200)
        let stored = try #require(try await sources.books.fetch(id: "1"))
        #expect(stored.title == "Dune" && stored.year == 1966 && stored.rating == nil && stored.reviews == ["1", "2"])
        let null = await service.send(
            "PATCH", "books", .resource(id: "1"),
            body: #"{"data":{"type":"books","id":"1","attributes":{"title":null}}}"#)
        #expect(null.status == 422)
        #expect(null.pointers == ["/data/attributes/title"])
        let wrongID = await service.send(
            "PATCH", "books", .resource(id: "1"), body: #"{"data":{"type":"books","id":"2","attributes":{}}}"#)
        #expect(wrongID.status == 409)
        #expect(
            await service.send(
                "PATCH", "books", .resource(id: "9"), body: #"{"data":{"type":"books","id":"9","attributes":{}}}"#
            ).status == 404)
    }

    @Test("If-Match: 412 when stale, 428 when required and missing, accepted when current")
    func preconditions() async throws {
        let service = Library.service(try Library.sources()) { $0.requiresIfMatch = true }
        let patch = #"{"data":{"type":"books","id":"1","attributes":{"year":1966}}}"#
        let missing = await service.send("PATCH", "books", .resource(id: "1"), body: patch)
        #expect(missing.status == 428)
        let stale = await service.send(
            "PATCH", "books", .resource(id: "1"), body: patch, ifMatch: "\"0000000000000000\"")
        #expect(stale.status == 412)
        let etag = try #require(await service.send("GET", "books", .resource(id: "1")).response?.etag)
        let weak = await service.send("PATCH", "books", .resource(id: "1"), body: patch, ifMatch: "W/" + etag)
        #expect(weak.status == 412)  // If-Match compares strongly
        #expect(await service.send("PATCH", "books", .resource(id: "1"), body: patch, ifMatch: etag).status == 200)
        #expect(await service.send("PATCH", "books", .resource(id: "1"), body: patch, ifMatch: etag).status == 412)
        let relationshipTag = try #require(
            await service.send("GET", "books", .relationship(id: "1", relationship: "reviews")).response?.etag)
        let add = await service.send(
            "POST", "books", .relationship(id: "1", relationship: "reviews"), body: #"{"data":[]}"#,
            ifMatch: relationshipTag)
        #expect(add.status == 200)
        #expect(await service.send("DELETE", "books", .resource(id: "2")).status == 428)
    }

    @Test("delete: 204, then 404")
    func delete() async throws {
        let sources = try Library.sources()
        let service = Library.service(sources)
        #expect(await service.send("DELETE", "books", .resource(id: "3")).status == 204)
        #expect(await service.send("DELETE", "books", .resource(id: "3")).status == 404)
        #expect(sources.books.count == 2)
    }

    @Test("relationship changes: replace, add without duplicates, remove; to-one POST is 405")
    func relationships() async throws {
        let sources = try Library.sources()
        let service = Library.service(sources)
        let replaced = await service.send(
            "PATCH", "books", .relationship(id: "2", relationship: "author"),
            body: #"{"data":{"type":"authors","id":"1"}}"#)
        #expect(replaced.status == 200)
        #expect(try await sources.books.fetch(id: "2")?.author == "1")
        for _ in 0..<2 {
            let added = await service.send(
                "POST", "books", .relationship(id: "2", relationship: "reviews"),
                body: #"{"data":[{"type":"reviews","id":"2"}]}"#)
            #expect(added.status == 200)
            #expect(try await sources.books.fetch(id: "2")?.reviews == ["2"])
        }
        _ = await service.send(
            "DELETE", "books", .relationship(id: "2", relationship: "reviews"),
            body: #"{"data":[{"type":"reviews","id":"2"}]}"#)
        #expect(try await sources.books.fetch(id: "2")?.reviews == [])
        let toOnePost = await service.send(
            "POST", "books", .relationship(id: "2", relationship: "author"),
            body: #"{"data":{"type":"authors","id":"1"}}"#)
        #expect(toOnePost.status == 405)
        #expect(
            service.methods(type: "books", endpoint: .relationship(id: "2", relationship: "author")) == [
                "GET", "PATCH",
            ])
        #expect(
            service.methods(type: "books", endpoint: .relationship(id: "2", relationship: "reviews")) == [
                "GET", "PATCH", "POST", "DELETE",
            ])
        let nullAuthor = await service.send(
            "PATCH", "books", .relationship(id: "2", relationship: "author"), body: #"{"data":null}"#)
        #expect(nullAuthor.status == 422)
        #expect(nullAuthor.pointers == ["/data"])
        let missing = await service.send(
            "PATCH", "books", .relationship(id: "2", relationship: "reviews"),
            body: #"{"data":[{"type":"reviews","id":"7"}]}"#)
        #expect(missing.status == 404)
        #expect(missing.pointers == ["/data/0"])
        let readOnly = Library.service(sources) { $0.fields.readOnly = ["author"] }
        #expect(
            await readOnly.send(
                "PATCH", "books", .relationship(id: "2", relationship: "author"),
                body: #"{"data":{"type":"authors","id":"2"}}"#
            ).status == 403)
    }

    @Test("a read-only relationship accepts linkage equal to what the resource holds, and refuses any other")
    func readOnlyLinkageUnchanged() async throws {
        let sources = try Library.sources()
        let service = Library.service(sources) { $0.fields.readOnly = ["author", "reviews"] }
        let current = try #require(try await sources.books.fetch(id: "2"))
        let author = current.author.id
        let other = author == "1" ? "2" : "1"
        func update(_ relationships: String) async -> Int {
            await service.send(
                "PATCH", "books", .resource(id: "2"),
                body: #"{"data":{"type":"books","id":"2","relationships":\#(relationships)}}"#
            ).status
        }
        #expect(await update(#"{"author":{"data":{"type":"authors","id":"\#(author)"}}}"#) == 200)
        #expect(await update(#"{"author":{"data":{"type":"authors","id":"\#(other)"}}}"#) == 403)
        #expect(await update(#"{"author":{"data":null}}"#) == 403)
        let same = current.reviews.reversed().map { #"{"type":"reviews","id":"\#($0.id)"}"# }
        #expect(await update(#"{"reviews":{"data":[\#(same.joined(separator: ","))]}}"#) == 200)
        let more = same + [#"{"type":"reviews","id":"99"}"#]
        #expect(await update(#"{"reviews":{"data":[\#(more.joined(separator: ","))]}}"#) == 403)

        // A create: a to-many starts empty, so an empty one is what it would hold anyway.
        let creating = Library.service(sources) { $0.fields.readOnly = ["reviews"] }
        func create(_ reviews: String) async -> Int {
            await creating.send(
                "POST", "books", .collection,
                body:
                    #"{"data":{"type":"books","attributes":{"title":"T","year":2000},"relationships":{"author":{"data":{"type":"authors","id":"1"}},"reviews":{"data":\#(reviews)}}}}"#
            ).status
        }
        #expect(await create("[]") == 201)
        #expect(await create(#"[{"type":"reviews","id":"1"}]"#) == 403)
    }

    @Test("hooks run around writes and may change the model")
    func hooks() async throws {
        let sources = try Library.sources()
        let log = Log()
        let service = Library.service(sources) { books in
            books.beforeWrite = { book, write, _ in
                if write == .create { book.rating = 0 }
                await log.add("before \(write) \(book.id)")
            }
            books.afterWrite = { book, write, _ in await log.add("after \(write) \(book.id)") }
        }
        _ = await service.send("POST", "books", .collection, body: newBook)
        #expect(try await sources.books.fetch(id: "4")?.rating == 0)
        _ = await service.send("DELETE", "books", .resource(id: "4"))
        #expect(await log.lines == ["before create 4", "after create 4", "before delete 4", "after delete 4"])
    }

    actor Log {
        var lines: [String] = []
        func add(_ line: String) { lines.append(line) }
    }
}
