import Foundation
import JSONAPI
import JSONAPIOpenAPI
import JSONAPIServer
import OpenAPIKit
import Testing

/// `ResourceService.openAPIDocument`: what the declarations allow, and nothing else, as a
/// document OpenAPIKit's validator accepts.
@Suite struct ResourceServiceDocumentTests {
    struct Shelf: Codable, Sendable, JSONAPIResource {
        static let resourceType = "shelves"
        var id: String
        var label: String
        var capacity: Int32
        var audited: Bool?
        var secret: String?
        var books: [Identifier<Volume>]
    }

    struct Volume: Codable, Sendable, JSONAPIResource {
        static let resourceType = "volumes"
        var id: String
        var title: String
        var shelf: Identifier<Shelf>?
    }

    static func service(configure: (inout ResourceDeclaration<InMemoryDataSource<Shelf>>) -> Void = { _ in })
        -> ResourceService
    {
        var service = ResourceService()
        var shelves = ResourceDeclaration(source: InMemoryDataSource<Shelf>())
        shelves.fields.hidden = ["secret"]
        shelves.fields.readOnly = ["audited"]
        shelves.requiresIfMatch = true
        shelves.clientIDs = .required
        configure(&shelves)
        service.serve(shelves)
        var volumes = ResourceDeclaration(source: InMemoryDataSource<Volume>())
        volumes.operations = .readOnly
        service.serve(volumes)
        return service
    }

    static func schemas(_ encoded: Encoded) -> Encoded { encoded["components"]["schemas"] }

    @Test func documentValidates() throws {
        try Self.service().openAPIDocument(title: "Shelves", version: "1", operationsPath: "/operations").validate()
    }

    @Test func routesFollowTheOperations() throws {
        let encoded = try Encoded(
            Self.service().openAPIDocument(title: "Shelves", version: "1", operationsPath: "/operations"))
        let paths = encoded["paths"]
        #expect(paths["/shelves"].keys?.contains("post") == true)
        #expect(paths["/shelves/{id}"]["patch"].isAbsent == false)
        // Read-only type: reads only.
        #expect(paths["/volumes"]["post"].isAbsent)
        #expect(paths["/volumes/{id}"]["patch"].isAbsent)
        #expect(paths["/volumes/{id}"]["delete"].isAbsent)
        #expect(paths["/volumes/{id}"]["get"].isAbsent == false)
        #expect(paths["/volumes/{id}/relationships/shelf"]["patch"].isAbsent)
        #expect(paths["/volumes/{id}/relationships/shelf"]["get"].isAbsent == false)
        // If-Match where the declaration requires it.
        let ifMatch = paths["/shelves/{id}"]["patch"]["parameters"].elements.first { $0["name"].string == "If-Match" }
        #expect(ifMatch?["in"].string == "header")
        #expect(ifMatch?["required"].bool == true)
        #expect(
            paths["/volumes/{id}"]["get"]["parameters"].elements.contains { $0["name"].string == "If-Match" } == false)
        // Atomic Operations: adds of shelves only.
        #expect(paths["/operations"]["post"].isAbsent == false)
        let unlisted = try Encoded(
            Self.service { $0.operations = .readOnly }.openAPIDocument(
                title: "Shelves", version: "1", operationsPath: "/operations"))
        #expect(unlisted["paths"]["/operations"].isAbsent)
    }

    /// The document lists exactly the routes of the service's table (`ResourceService.routes`,
    /// `methods(type:endpoint:)`), for every combination of operations a declaration can serve.
    @Test func routesAreTheServiceTable() throws {
        let single: [ResourceOperations] = [.list, .read, .create, .update, .delete, .changeRelationships]
        for mask in 0..<(1 << single.count) {
            var operations: ResourceOperations = []
            for (bit, operation) in single.enumerated() where mask & (1 << bit) != 0 { operations.insert(operation) }
            let service = Self.service { $0.operations = operations }
            let document = service.openAPIDocument(title: "Shelves", version: "1")
            var listed: Set<String> = []
            for (path, item) in document.paths {
                guard case .b(let item) = item else { continue }
                for endpoint in item.endpoints {
                    listed.insert("\(endpoint.method.rawValue.uppercased()) \(path.rawValue)")
                }
            }
            var served: Set<String> = []
            for type in service.resourceTypes {
                let relationships = service.description(of: type)?.shape.relationships.map(\.name) ?? []
                for route in service.routes(type: type) {
                    let names = route.path == .collection || route.path == .resource ? [""] : relationships
                    for name in names {
                        let endpoint: ResourceRequest.Endpoint =
                            switch route.path {
                            case .collection: .collection
                            case .resource: .resource(id: "")
                            case .related: .related(id: "", relationship: name)
                            case .relationship: .relationship(id: "", relationship: name)
                            }
                        guard service.methods(type: type, endpoint: endpoint).contains(route.method) else { continue }
                        let path = route.path.template(type: type).replacingOccurrences(
                            of: "{relationship}", with: name)
                        served.insert("\(route.method) \(path)")
                    }
                }
            }
            #expect(listed == served, "operations \(operations.rawValue)")
        }
    }

    @Test func bodiesFollowTheFields() throws {
        let schemas = Self.schemas(try Encoded(Self.service().openAPIDocument(title: "Shelves", version: "1")))
        let response = schemas["Shelf"]["properties"]
        #expect(response["attributes"]["properties"].keys == ["audited", "capacity", "label"])
        let create = schemas["ShelfCreateDocument"]["properties"]["data"]
        #expect(create["properties"]["attributes"]["properties"].keys == ["capacity", "label"])
        // Client ids required.
        #expect(create["required"].strings?.contains("id") == true)
        let update = schemas["ShelfUpdateDocument"]["properties"]["data"]
        #expect(update["properties"]["attributes"]["properties"].keys == ["capacity", "label"])
        // An Int32 attribute is bounded as Int32 is.
        let capacity = create["properties"]["attributes"]["properties"]["capacity"]
        #expect(capacity["maximum"].int == Int(Int32.max))
        #expect(capacity["minimum"].int == Int(Int32.min))

        let forbidden = Self.schemas(
            try Encoded(Self.service { $0.clientIDs = .forbidden }.openAPIDocument(title: "Shelves", version: "1")))
        #expect(forbidden["ShelfCreateDocument"]["properties"]["data"]["properties"]["id"].isAbsent)
    }

    /// Limits declared as validation rules are stated where the attribute is; a closure check is
    /// not (it cannot be read).
    @Test func validationBoundsAreStated() throws {
        let service = Self.service { shelves in
            shelves.validation.length(\.label, 1...40)
            shelves.validation.range(\.capacity, 0...500)
            shelves.validation.check(\.label, "not `x`") { $0 != "x" }
        }
        #expect(
            service.description(of: "shelves")?.shape.attributes.first { $0.name == "label" }?.value.bounds
                == ValueBounds(length: 1...40))
        let document = service.openAPIDocument(title: "Shelves", version: "1")
        try document.validate()
        let schemas = Self.schemas(try Encoded(document))
        for name in ["Shelf", "ShelfCreateDocument", "ShelfUpdateDocument"] {
            var attributes = schemas[name]["properties"]
            if name != "Shelf" { attributes = attributes["data"]["properties"] }
            attributes = attributes["attributes"]["properties"]
            #expect(attributes["label"]["minLength"].int == 1, "\(name)")
            #expect(attributes["label"]["maxLength"].int == 40, "\(name)")
            // Narrower than Int32's own range, which it replaces.
            #expect(attributes["capacity"]["minimum"].int == 0, "\(name)")
            #expect(attributes["capacity"]["maximum"].int == 500, "\(name)")
        }
        // Without the rules: Int32's range, no length.
        let plain = Self.schemas(try Encoded(Self.service().openAPIDocument(title: "Shelves", version: "1")))
        #expect(plain["Shelf"]["properties"]["attributes"]["properties"]["label"]["maxLength"].isAbsent)
        #expect(plain["Shelf"]["properties"]["attributes"]["properties"]["capacity"]["maximum"].int == Int(Int32.max))
    }

    /// A source that refuses U+0000 in text, as a database's does; otherwise the in-memory one.
    struct TextRefusingSource: ResourceDataSource {
        let base = InMemoryDataSource<Shelf>()
        var refusesNullCharacterInText: Bool { true }
        func list(_ query: ResourceListQuery) async throws -> ResourceList<Shelf> { try await base.list(query) }
        func fetch(id: String) async throws -> Shelf? { try await base.fetch(id: id) }
        func makeID() async throws -> String { try await base.makeID() }
        func create(_ model: Shelf) async throws -> Shelf { try await base.create(model) }
        func update(_ model: Shelf) async throws -> Shelf { try await base.update(model) }
        func delete(id: String) async throws -> Bool { try await base.delete(id: id) }
    }

    /// A plain string attribute of a source that refuses U+0000 carries a pattern without it,
    /// beside its length; a string with a format and a number carry none.
    @Test func textWithoutNullCharacterIsStated() throws {
        var service = ResourceService()
        var shelves = ResourceDeclaration(source: TextRefusingSource())
        shelves.validation.length(\.label, 1...40)
        shelves.clientIDs = .allowed
        service.serve(shelves)
        service.serve(ResourceDeclaration(source: InMemoryDataSource<Volume>()))
        let document = service.openAPIDocument(title: "Shelves", version: "1")
        try document.validate()
        let schemas = Self.schemas(try Encoded(document))
        let attributes = schemas["Shelf"]["properties"]["attributes"]["properties"]
        let pattern = try #require(attributes["label"]["pattern"].string)
        #expect(attributes["label"]["maxLength"].int == 40)
        #expect(attributes["capacity"]["pattern"].isAbsent)
        let regex = try NSRegularExpression(pattern: pattern)
        func matches(_ text: String) -> Bool {
            regex.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
        }
        #expect(matches("Fiction") && matches("") && matches("two\nlines"))
        #expect(!matches("A\u{0}B") && !matches("\u{0}"))
        // A client's id too: not empty, without U+0000.
        let idPattern = try #require(
            schemas["ShelfCreateDocument"]["properties"]["data"]["properties"]["id"]["pattern"].string)
        let ids = try NSRegularExpression(pattern: idPattern)
        func isID(_ text: String) -> Bool {
            ids.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
        }
        #expect(isID("shelf-1") && !isID("") && !isID("a\u{0}"))
        // The in-memory source stores any text: no pattern.
        let plain = Self.schemas(try Encoded(Self.service().openAPIDocument(title: "Shelves", version: "1")))
        #expect(plain["Shelf"]["properties"]["attributes"]["properties"]["label"]["pattern"].isAbsent)
    }

    @Test func filtersAreTyped() throws {
        let encoded = try Encoded(Self.service().openAPIDocument(title: "Shelves", version: "1"))
        let filter = encoded["paths"]["/shelves"]["get"]["parameters"].elements.first { $0["name"].string == "filter" }
        let properties = try #require(filter)["schema"]["properties"]
        // Hidden and non-scalar members are not filterable; `audited` is (read-only is readable),
        // and so is the id.
        #expect(properties.keys == ["audited", "capacity", "id", "label"])
        #expect(properties["id"]["type"].string == "string")
        #expect(properties["capacity"]["type"].string == "integer")
        #expect(properties["audited"]["type"].string == "boolean")
    }

    @Test func servedBytesAreTheDocument() throws {
        var service = Self.service()
        #expect(try service.openAPIJSON(operationsPath: nil) == nil)
        service.serveOpenAPIDocument(title: "Shelves", version: "1")
        let bytes = try #require(try service.openAPIJSON(operationsPath: "/operations"))
        let encoded = try Encoded(json: Data(bytes))
        #expect(encoded["info"]["title"].string == "Shelves")
        #expect(encoded["paths"]["/operations"].isAbsent == false)
    }
}
