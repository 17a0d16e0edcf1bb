import JSONAPI
import JSONAPIServer

#if OpenAPI
    import JSONAPIOpenAPI
#endif

/// The example service: articles, people, comments and tags declared once on the resource layer
/// (``ExampleResources``, plain `Codable` models) and served whole by each front, started from the
/// data of an ``ExampleStore``; beside them `POST /imports`, the load benchmark's large write.
struct ExampleService: Sendable {
    /// The seeded data the service started from (the `Codable` baseline serves it too).
    let store: ExampleStore
    /// The declared resources: every collection, resource, related and relationship endpoint,
    /// Atomic Operations and, with the OpenAPI trait, the service's OpenAPI document.
    let resources: ResourceService
    /// The largest `page[size]` a collection request may ask for; a larger one is a 400.
    let maximumPageSize: Int
    /// Closes the database the resources are kept in, if any.
    private let closeStorage: @Sendable () async -> Void

    /// The service's configuration, the same for every framework: Atomic Operations on, a 1 MiB
    /// body limit.
    static func configuration(maximumBodyBytes: Int = 1 << 20) -> JSONAPIConfiguration {
        var configuration = JSONAPIConfiguration()
        configuration.supportedExtensions = [AtomicOperations.extensionURI]
        configuration.maximumBodyBytes = maximumBodyBytes
        return configuration
    }

    /// The service over `store`'s resources as they are now, kept in `storage` (SQLite in memory
    /// in a build with the `SQL` trait, else memory), with pages of up to
    /// `maximumPageSize` resources (clients that read large responses ask for more than the
    /// default), under `configuration`; with `streamedArticles` above 0, also that many generated
    /// articles as a streamed, read-only collection (`/streamed-articles`).
    ///
    /// - Throws: ``ExampleServer/InvalidOption`` when `maximumPageSize` is outside
    ///   ``ExampleServer/maximumPageSizes``; the resource layer's error when the declarations do
    ///   not hold together.
    init(
        store: ExampleStore, storage: ExampleStorage = .default,
        maximumPageSize: Int = ExampleServer.defaultMaximumPageSize,
        configuration: JSONAPIConfiguration = configuration(), streamedArticles: Int = 0
    ) async throws {
        guard ExampleServer.maximumPageSizes.contains(maximumPageSize) else {
            throw ExampleServer.InvalidOption(
                description:
                    "the maximum page size must be in \(ExampleServer.maximumPageSizes), not \(maximumPageSize)")
        }
        self.store = store
        self.maximumPageSize = maximumPageSize
        var (resources, closeStorage) = try await ExampleResources.service(
            store: store, storage: storage, maximumPageSize: maximumPageSize, configuration: configuration,
            streamedArticles: streamedArticles)
        self.closeStorage = closeStorage
        #if OpenAPI
            resources.serveOpenAPIDocument(
                title: "jsonapi-example-server", version: "1.0",
                description:
                    "A JSON:API 1.1 service of articles, people, comments and tags, with Atomic Operations.")
        #endif
        self.resources = resources
    }

    /// Closes the database the resources are kept in (a service on memory has nothing to close).
    /// A service dropped without it closes its database as it goes.
    func shutdown() async {
        await closeStorage()
    }
}

/// A document `POST /imports` refuses, described to the client through the core's error mapping.
struct ImportRefusal: Error, JSONAPIErrorConvertible {
    var detail: String
    var pointer: String

    var jsonapiErrors: [JSONAPIErrorObject] {
        [
            JSONAPIErrorObject(
                status: 422, code: "invalid-resource", title: "Invalid resource", detail: detail,
                source: .pointer(pointer))
        ]
    }
}

extension ExampleService {
    /// `POST /imports` with a compound document of any of the service's types: parsed (as the
    /// body arrives) and checked against JSON:API's rules by the front, then every primary
    /// resource's type checked against the service's types, every primary and included resource
    /// converted to a resource object, and how many there were answered. Stores nothing, so
    /// repeated requests cost the same (the load benchmark's large write).
    ///
    /// - Throws: ``ImportRefusal`` (422) at the first primary resource of a type the service
    ///   does not serve.
    func importDocument(_ document: Document) throws -> [UInt8] {
        let types = Set(resources.resourceTypes)
        var converted: [JSONAPIResourceObject] = []
        converted.reserveCapacity(document.primaryResources.count + document.included.count)
        for (index, view) in document.primaryResources.enumerated() {
            guard types.contains(view.type) else {
                throw ImportRefusal(detail: "no resource type `\(view.type)`", pointer: "/data/\(index)/type")
            }
            converted.append(JSONAPIResourceObject(view))
        }
        for view in document.included { converted.append(JSONAPIResourceObject(view)) }
        let meta: JSON.Object = [
            "articles": JSON(document.primaryResources.count), "resources": JSON(converted.count),
        ]
        var writer = JSONWriter()
        writer.beginObject()
        writer.key("meta")
        JSON.object(meta).write(to: &writer)
        writer.endObject()
        return try writer.finish()
    }
}
