#if OpenAPI
    import Foundation
    import Hummingbird
    import HummingbirdTesting
    import JSONAPI
    import JSONAPIHummingbird
    import JSONAPIOpenAPI
    import JSONAPIServer
    import Testing

    @testable import JSONAPITestSupport

    /// The OpenAPI document a resource service writes from its declarations, served at
    /// `/openapi.json` and held to by the service under schemathesis (a third-party tester).
    @Suite struct ResourceServiceOpenAPITests {
        /// Declarations that use what the document must say: a hidden member, a read-only one,
        /// client ids allowed, a read-only type, Atomic Operations.
        static func service() throws -> ResourceService {
            let sources = try Library.sources()
            var service = Library.service(sources) { books in
                books.fields.readOnly = ["rating"]
            }
            var authors = ResourceDeclaration(source: sources.authors)
            authors.clientIDs = .allowed
            authors.fields.hidden = ["born"]
            service.serve(authors)
            var reviews = ResourceDeclaration(source: sources.reviews)
            reviews.operations = .readOnly
            service.serve(reviews)
            service.configuration.supportedExtensions = [AtomicOperations.extensionURI]
            service.serveOpenAPIDocument(title: "Library", version: "1.0")
            return service
        }

        @Test func schemathesisFromTheServedDocument() async throws {
            let service = try Self.service()
            let router = Router()
            router.add(middleware: JSONAPIMiddleware(configuration: service.configuration))
            router.addJSONAPIService(service, operations: "operations")
            let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)))
            try await app.test(.live) { client in
                let run = try await Schemathesis.run(port: try #require(client.port))
                #expect(run.isClean, "\(run.summary)")
            }
        }
    }
#endif
