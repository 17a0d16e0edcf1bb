import AsyncHTTPClient
import JSONAPI
import JSONAPIAsyncHTTPClient
import JSONAPIClient

/// The example service's resources as a client declares them.
struct Person: Codable, Hashable, Sendable, JSONAPIResource {
    static let resourceType = "people"
    var id: String
    var name: String
}

struct Tag: Codable, Hashable, Sendable, JSONAPIResource {
    static let resourceType = "tags"
    var id: String
    var name: String
}

struct Comment: Codable, Hashable, Sendable, JSONAPIResource {
    static let resourceType = "comments"
    var id: String
    var body: String
    var author: Identifier<Person>?
}

/// An article with its relationships as linkage only.
struct Article: Decodable, Sendable, JSONAPIResource {
    static let resourceType = "articles"
    var id: String
    var title: String
    var body: String?
    var createdAt: String?
    var author: Identifier<Person>?
    var comments: [Identifier<Comment>]?
    var tags: [Identifier<Tag>]?
}

/// An article with its author and tags resolved (they must be included, or in the store).
struct FullArticle: Decodable, Sendable, JSONAPIResource {
    static let resourceType = "articles"
    var id: String
    var title: String
    var body: String?
    var author: Person
    var tags: [Tag]
}

struct NewArticle: Encodable, Sendable, JSONAPIResource {
    static let resourceType = "articles"
    var id = ""
    var lid: String?
    var title: String
    var body: String?
    var author: Identifier<Person>?
}

struct ArticlePatch: Encodable, Sendable, JSONAPIResource {
    static let resourceType = "articles"
    var id: String
    var title: Field<String> = .absent
    var body: Field<String> = .absent
}

struct NewPerson: Encodable, Sendable, JSONAPIResource {
    static let resourceType = "people"
    var id = ""
    var lid: String?
    var name: String
}

/// The transports every client test runs through.
enum TransportKind: String, CaseIterable, Sendable, CustomStringConvertible {
    case asyncHTTPClient
    case urlSession

    var description: String { rawValue }

    func client(
        _ baseURL: String, configuration: JSONAPIClient.Configuration = JSONAPIClient.Configuration(),
        store: ResourceStore? = nil
    ) -> JSONAPIClient {
        switch self {
        case .asyncHTTPClient:
            JSONAPIClient(
                baseURL: baseURL, transport: AsyncHTTPClientTransport(client: .shared), configuration: configuration,
                store: store)
        case .urlSession:
            JSONAPIClient(
                baseURL: baseURL, transport: URLSessionTransport(), configuration: configuration, store: store)
        }
    }

    /// A client whose transport is wrapped in an ``ObservedTransport``, with the log of what it
    /// read of each body.
    func observedClient(
        _ baseURL: String, steering: BodySteering = .none,
        configuration: JSONAPIClient.Configuration = JSONAPIClient.Configuration()
    ) -> (client: JSONAPIClient, log: BodyLog) {
        switch self {
        case .asyncHTTPClient:
            let transport = ObservedTransport(AsyncHTTPClientTransport(client: .shared), steering: steering)
            return (JSONAPIClient(baseURL: baseURL, transport: transport, configuration: configuration), transport.log)
        case .urlSession:
            let transport = ObservedTransport(URLSessionTransport(), steering: steering)
            return (JSONAPIClient(baseURL: baseURL, transport: transport, configuration: configuration), transport.log)
        }
    }
}
