import JSONAPI
import JSONAPIServer
import Testing

@testable import JSONAPITestSupport

@Suite("Resource service: Atomic Operations")
struct AtomicOperationsTests {
    static func operations(_ json: String) throws -> [AtomicOperation] {
        try Document(parsing: Array(json.utf8)).atomicOperations()
    }

    static let request = ResourceRequest(method: "POST", type: "", endpoint: .collection)

    @Test("lids declared by an add stand for the new id in later operations; results in order")
    func lids() async throws {
        let sources = try Library.sources()
        let service = Library.service(sources)
        let operations = try Self.operations(
            #"""
            {"atomic:operations":[
              {"op":"add","data":{"type":"authors","lid":"a","attributes":{"name":"Mary Shelley","born":1797}}},
              {"op":"add","data":{"type":"books","lid":"b","attributes":{"title":"Frankenstein","year":1818},
                "relationships":{"author":{"data":{"type":"authors","lid":"a"}},"reviews":{"data":[]}}}},
              {"op":"update","data":{"type":"books","lid":"b","attributes":{"year":1831}}},
              {"op":"add","ref":{"type":"books","lid":"b","relationship":"reviews"},"data":[{"type":"reviews","id":"2"}]},
              {"op":"remove","ref":{"type":"books","id":"3"}}
            ]}
            """#)
        let results = try await service.perform(operations, request: Self.request)
        #expect(results.results.count == 5)
        guard case .resource(let author)? = results.results[0].data, case .resource(let book)? = results.results[1].data
        else {
            Issue.record("no resources in \(results)")
            return
        }
        #expect(author.id == "3")
        #expect(book.relationships["author"]?.data == .one(ResourceIdentifier(type: "authors", id: "3")))
        let stored = try #require(try await sources.books.fetch(id: book.id ?? ""))
        #expect(stored.year == 1831 && stored.author == "3" && stored.reviews == ["2"])
        #expect(results.results[3].data == nil && results.results[4].data == nil)
        #expect(try await sources.books.fetch(id: "3") == nil)
    }

    @Test("a failing operation undoes the earlier ones and points into itself")
    func allOrNothing() async throws {
        let sources = try Library.sources()
        let service = Library.service(sources)
        let before = try await sources.books.list(ResourceListQuery()).models
        let operations = try Self.operations(
            #"""
            {"atomic:operations":[
              {"op":"add","data":{"type":"authors","lid":"a","attributes":{"name":"Mary Shelley"}}},
              {"op":"update","data":{"type":"books","id":"1","attributes":{"year":2001}}},
              {"op":"remove","ref":{"type":"books","id":"2"}},
              {"op":"update","ref":{"type":"books","id":"3","relationship":"reviews"},"data":[{"type":"reviews","id":"1"}]},
              {"op":"add","data":{"type":"books","attributes":{"title":5,"year":1818},
                "relationships":{"author":{"data":{"type":"authors","lid":"a"}},"reviews":{"data":[]}}}}
            ]}
            """#)
        await #expect {
            try await service.perform(operations, request: Self.request)
        } throws: { error in
            let errors = JSONAPIErrorObject.errors(describing: error)
            return errors.map(\.source?.pointer) == ["/atomic:operations/4/data/attributes/title"]
                && errors.first?.status == "422"
        }
        // The same books (a book deleted and restored is listed last by the in-memory source).
        let after = try await sources.books.list(ResourceListQuery()).models
        #expect(after.sorted { $0.id < $1.id } == before.sorted { $0.id < $1.id })
        #expect(sources.authors.count == 2)
    }

    /// Authors whose deletes fail: an undo of a create cannot happen.
    struct UndeletableAuthors: ResourceDataSource {
        let store: InMemoryDataSource<Library.Author>
        func list(_ query: ResourceListQuery) async throws -> ResourceList<Library.Author> {
            try await store.list(query)
        }
        func fetch(id: String) async throws -> Library.Author? { try await store.fetch(id: id) }
        func makeID() async throws -> String { try await store.makeID() }
        func create(_ model: Library.Author) async throws -> Library.Author { try await store.create(model) }
        func update(_ model: Library.Author) async throws -> Library.Author { try await store.update(model) }
        func delete(id: String) async throws -> Bool { throw JSONAPIHTTPError.forbidden("deletes are off") }
    }

    @Test("a write that cannot be undone is a 500 naming its operation, beside the failure")
    func failedUndo() async throws {
        let sources = try Library.sources()
        var service = Library.service(sources)
        service.serve(ResourceDeclaration(source: UndeletableAuthors(store: sources.authors)))
        let operations = try Self.operations(
            #"""
            {"atomic:operations":[
              {"op":"add","data":{"type":"authors","lid":"a","attributes":{"name":"Mary Shelley"}}},
              {"op":"update","data":{"type":"books","id":"1","attributes":{"year":2001}}},
              {"op":"update","data":{"type":"books","id":"2","attributes":{"year":"x"}}}
            ]}
            """#)
        await #expect {
            try await service.perform(operations, request: Self.request)
        } throws: { error in
            let errors = JSONAPIErrorObject.errors(describing: error)
            return errors.map(\.source?.pointer) == [
                "/atomic:operations/2/data/attributes/year", "/atomic:operations/0",
            ] && errors.map(\.status) == ["422", "500"] && errors.last?.code == "undo-failed"
                && JSONAPIHTTPError(errors).httpStatus == 500
        }
        // The book's update was undone; the author stays, as the answer says.
        #expect(try await sources.books.fetch(id: "1")?.year == 1965)
        #expect(sources.authors.count == 3)
    }

    @Test("a lid used before it is declared fails at that operation")
    func undeclaredLid() async throws {
        let service = Library.service(try Library.sources())
        let operations = try Self.operations(
            #"""
            {"atomic:operations":[
              {"op":"add","data":{"type":"books","attributes":{"title":"Emma","year":1815},
                "relationships":{"author":{"data":{"type":"authors","lid":"later"}},"reviews":{"data":[]}}}},
              {"op":"add","data":{"type":"authors","lid":"later","attributes":{"name":"Jane Austen"}}}
            ]}
            """#)
        await #expect {
            try await service.perform(operations, request: Self.request)
        } throws: { error in
            JSONAPIErrorObject.errors(describing: error).map(\.source?.pointer)
                == ["/atomic:operations/0/data/relationships/author/data"]
        }
    }

    @Test("an update or remove of an undeclared lid names the lid at its place")
    func updateOfUndeclaredLid() async throws {
        let service = Library.service(try Library.sources())
        let cases = [
            (#"{"op":"update","data":{"type":"books","lid":"nope","attributes":{"year":1831}}}"#, "/data/lid"),
            (#"{"op":"remove","ref":{"type":"books","lid":"nope"}}"#, "/ref"),
        ]
        for (operation, pointer) in cases {
            let operations = try Self.operations(#"{"atomic:operations":[\#(operation)]}"#)
            await #expect {
                try await service.perform(operations, request: Self.request)
            } throws: { error in
                let objects = JSONAPIErrorObject.errors(describing: error)
                return objects.map(\.source?.pointer) == ["/atomic:operations/0" + pointer]
                    && objects.first?.code == "unknown-lid" && objects.first?.detail?.contains("`nope`") == true
            }
        }
    }

    @Test("more operations than the limit is a 400")
    func limit() async throws {
        var service = Library.service(try Library.sources())
        service.maximumAtomicOperations = 1
        let operations = try Self.operations(
            #"{"atomic:operations":[{"op":"remove","ref":{"type":"books","id":"1"}},{"op":"remove","ref":{"type":"books","id":"2"}}]}"#
        )
        await #expect(throws: JSONAPIHTTPError.self) { try await service.perform(operations, request: Self.request) }
        service.maximumAtomicOperations = 0
        await #expect(throws: JSONAPIError.self) { try await service.perform(operations, request: Self.request) }
    }
}
