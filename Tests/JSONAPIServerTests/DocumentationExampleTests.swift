import JSONAPI
import JSONAPIServer
import Testing

/// The JSONAPIServer landing page's examples, written exactly as there.
@Suite("JSONAPIServer documentation examples")
struct DocumentationExampleTests {
    struct Author: Codable, Sendable, JSONAPIResource {
        static let resourceType = "authors"
        var id: String
        var name: String
    }

    struct Book: Codable, Sendable, JSONAPIResource {
        static let resourceType = "books"
        var id: String
        var title: String
        var year: Int
        var rating: Double?
        var author: Identifier<Author>
    }

    @Test func landingPage() async throws {
        var service = ResourceService()
        service.serve(ResourceDeclaration(source: InMemoryDataSource<Book>()))
        service.serve(ResourceDeclaration(source: InMemoryDataSource<Author>()))

        let response = try await service.respond(
            to: ResourceRequest(method: "GET", type: "books", endpoint: .collection, query: "include=author"))
        #expect(response.status == 200)
        #expect(response.body.map { String(decoding: $0, as: UTF8.self) }?.contains(#""included":[]"#) == true)
    }

    @Test func declarationDefaults() async throws {
        var books = ResourceDeclaration(source: InMemoryDataSource<Book>())
        #expect(books.fields.sortable == ["title", "year", "rating"])
        #expect(books.fields.includable == ["author"])
        books.fields.readOnly = ["rating"]
        books.fields.sortable = ["title", "year"]
        books.clientIDs = .allowed
        books.requiresIfMatch = true
        books.validation.length(\.title, 1...200)
        books.authorize = { action, request in
            if case .delete = action, request.userInfo["role"] as? String != "admin" { return .forbid() }
            return .allow
        }
        let problems = books.validation.problems(of: Book(id: "1", title: "", year: 1, rating: nil, author: "1"))
        #expect(problems.map(\.source?.pointer) == ["/data/attributes/title"])
        let request = ResourceRequest(method: "DELETE", type: "books", endpoint: .resource(id: "1"))
        #expect(try await books.authorize?(.delete(id: "1"), request) == .forbid())
        #expect(try await books.authorize?(.list, request) == .allow)
    }
}
