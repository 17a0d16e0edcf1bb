import JSONAPI
import JSONAPIClient
import Testing

/// The client examples of the porting guide (Porting.md, "Porting from aveine/JsonAPI" and
/// "Porting from envoy/JSONAPIModel"), copied as they are written there. They talk to a server
/// on the internet, so they are compiled, not run: the guide cannot name an API that does not
/// exist. (The requests themselves are run by the client's other tests.)
@Suite("Porting guide: the client")
struct PortingGuideClientTests {
    struct Article: Decodable, JSONAPIResource {
        static let resourceType = "articles"
        var id: String
        var title: String
    }

    struct Employee: Decodable, JSONAPIResource {
        static let resourceType = "employees"
        var id: String
    }

    struct Location: Decodable, JSONAPIResource {
        static let resourceType = "locations"
        var id: String
        var employees: [Employee]
    }

    /// "Porting from aveine/JsonAPI".
    static func fromAveine() async throws -> (DecodedResponse<[Article]>, Article) {
        let client = JSONAPIClient(baseURL: "https://api.com", transport: URLSessionTransport())
        let articles = client.resources(Article.self)
        let featured = try await articles.list(JSONAPIQuery().filtered("featured", equals: "true").including("authors"))
        let article = try await articles.get(id: "1").value
        return (featured, article)
    }

    /// "Porting from envoy/JSONAPIModel".
    static func fromEnvoy() async throws -> Location? {
        let store = ResourceStore(maximumResources: 10_000)
        let client = JSONAPIClient(baseURL: "https://api.example.com", transport: URLSessionTransport(), store: store)
        _ = try await client.resources(Location.self).list(JSONAPIQuery().including("employees"))
        let location = try store.model(Location.self, id: "loc-12345")
        return location
    }

    @Test("the examples compile")
    func examplesCompile() {
        let examples: [String: Any] = ["aveine": Self.fromAveine, "envoy": Self.fromEnvoy]
        #expect(examples.count == 2)
    }
}
