#if Hummingbird
    import Hummingbird
    import JSONAPI
    import JSONAPIHummingbird

    /// The example service served by Hummingbird 2: routes of ``JSONAPIResourceRoutes`` for every
    /// type, an Atomic Operations endpoint, and ``JSONAPIMiddleware`` in front of them all.
    enum HummingbirdFront {
        static func router(service: ExampleService, configuration: JSONAPIConfiguration) -> Router<BasicRequestContext>
        {
            let router = Router()
            router.add(middleware: JSONAPIMiddleware(configuration: configuration))
            for type in ResourceSchema.all.keys.sorted() {
                router.addJSONAPIResource(type, routes(type, service: service, configuration: configuration))
            }
            router.addJSONAPIOperations("operations", configuration: configuration) { operations, _, _ in
                try service.perform(operations)
            }
            return router
        }

        static func routes(
            _ type: String, service: ExampleService, configuration: JSONAPIConfiguration
        ) -> JSONAPIResourceRoutes<BasicRequestContext> {
            var routes = JSONAPIResourceRoutes<BasicRequestContext>()
            routes.collection = { request, _ in
                response(try service.list(type: type, rawQuery: request.uri.query ?? "", target: request.jsonapiTarget))
            }
            routes.resource = { request, context in
                response(try service.show(type: type, id: try id(context), rawQuery: request.uri.query ?? ""))
            }
            routes.related = { request, context in
                response(
                    try service.related(
                        type: type, id: try id(context), relationship: try relationship(context),
                        rawQuery: request.uri.query ?? ""))
            }
            routes.relationship = { request, context in
                response(
                    try service.relationship(
                        type: type, id: try id(context), relationship: try relationship(context),
                        rawQuery: request.uri.query ?? ""))
            }
            routes.create = { request, _ in
                let document = try await request.jsonapiDocument(kind: .createRequest, configuration: configuration)
                return response(try service.create(type: type, document: document))
            }
            routes.update = { request, context in
                let document = try await request.jsonapiDocument(kind: .updateRequest, configuration: configuration)
                return response(try service.update(type: type, id: try id(context), document: document))
            }
            routes.delete = { _, context in response(try service.delete(type: type, id: try id(context))) }
            let changes:
                [(
                    ExampleService.RelationshipChange,
                    WritableKeyPath<
                        JSONAPIResourceRoutes<BasicRequestContext>, JSONAPIResourceRoutes<BasicRequestContext>.Handler?
                    >
                )] = [
                    (.replace, \.replaceRelationship), (.add, \.addToRelationship), (.remove, \.removeFromRelationship),
                ]
            for (change, keyPath) in changes {
                routes[keyPath: keyPath] = { request, context in
                    let document = try await request.jsonapiDocument(
                        kind: .relationshipUpdate, configuration: configuration)
                    return response(
                        try service.changeRelationship(
                            type: type, id: try id(context), relationship: try relationship(context), change: change,
                            document: document))
                }
            }
            return routes
        }

        static func id(_ context: BasicRequestContext) throws -> String { try context.parameters.require("id") }

        static func relationship(_ context: BasicRequestContext) throws -> String {
            try context.parameters.require("relationship")
        }

        static func response(_ response: ServiceResponse) -> JSONAPIResponse {
            var headers = HTTPFields()
            if let location = response.location { headers[.location] = location }
            guard let body = response.body else { return .noContent(headers: headers) }
            return JSONAPIResponse(status: HTTPResponse.Status(code: response.status), bytes: body, headers: headers)
        }

        static func application(
            service: ExampleService, port: Int, configuration: JSONAPIConfiguration = ExampleService.configuration()
        ) -> some ApplicationProtocol {
            Application(
                router: router(service: service, configuration: configuration),
                configuration: .init(address: .hostname("127.0.0.1", port: port), serverName: "jsonapi-example-server"))
        }
    }
#endif
