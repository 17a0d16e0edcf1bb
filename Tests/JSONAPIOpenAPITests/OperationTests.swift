import Foundation
import JSONAPI
import JSONAPIOpenAPI
import OpenAPIKit
import Testing

/// `JSONAPIComponents.paths(rules:)`: the routes of each type, as a whole OpenAPI document that
/// OpenAPIKit's own validator accepts.
@Suite struct OperationTests {
    let api = JSONAPIComponents(models: [Book.self, Organization.self, Person.self])

    func document() -> OpenAPI.Document {
        let paths = api.paths { type in
            type == "books"
                ? QueryRules(includePaths: ["publisher"], sortFields: ["title"], pagination: .pages())
                : QueryRules()
        }
        return OpenAPI.Document(
            openAPIVersion: .v3_1_1, info: .init(title: "Library", version: "1.0"), servers: [], paths: paths,
            components: api.components)
    }

    @Test func documentValidates() throws {
        // OpenAPIKit's validator: every reference resolves, path parameters are declared,
        // operation ids are unique, every operation has responses.
        try document().validate()
    }

    @Test func routesAndOperations() throws {
        let encoded = try Encoded(document())
        #expect(encoded["openapi"].string == "3.1.1")
        #expect(
            encoded["paths"].keys == [
                "/books", "/books/{id}", "/books/{id}/relationships/contributors", "/books/{id}/relationships/editor",
                "/books/{id}/relationships/publisher", "/organizations", "/organizations/{id}", "/people",
                "/people/{id}",
            ])

        let list = encoded["paths"]["/books"]["get"]
        #expect(list["operationId"].string == "listBook")
        #expect(
            list["parameters"].elements.compactMap { $0["name"].string } == [
                "include", "fields", "sort", "page[number]", "page[size]",
            ])
        #expect(
            list["responses"]["200"]["content"]["application/vnd.api+json"]["schema"]["$ref"].string
                == "#/components/schemas/BookCollectionDocument")
        #expect(
            list["responses"]["4XX"]["content"]["application/vnd.api+json"]["schema"]["$ref"].string
                == "#/components/schemas/JSONAPIErrorDocument")

        let create = encoded["paths"]["/books"]["post"]
        #expect(create["requestBody"]["required"].bool == true)
        #expect(
            create["requestBody"]["content"]["application/vnd.api+json"]["schema"]["$ref"].string
                == "#/components/schemas/BookCreateDocument")
        #expect(
            create["responses"]["201"]["content"]["application/vnd.api+json"]["schema"]["$ref"].string
                == "#/components/schemas/BookDocument")

        let single = encoded["paths"]["/books/{id}"]
        #expect(single["parameters"][0]["name"].string == "id")
        #expect(single["parameters"][0]["in"].string == "path")
        #expect(single["parameters"][0]["required"].bool == true)
        // One resource: include and fields, not the collection's sort and page.
        #expect(single["get"]["parameters"].elements.compactMap { $0["name"].string } == ["include", "fields"])
        #expect(
            single["patch"]["requestBody"]["content"]["application/vnd.api+json"]["schema"]["$ref"].string
                == "#/components/schemas/BookUpdateDocument")
        #expect(single["delete"]["responses"]["204"]["description"].string == "Deleted.")

        // Relationship routes: to-many ones take POST and DELETE as well.
        let contributors = encoded["paths"]["/books/{id}/relationships/contributors"]
        #expect(contributors.keys == ["delete", "get", "parameters", "patch", "post"])
        #expect(
            contributors["post"]["requestBody"]["content"]["application/vnd.api+json"]["schema"]["$ref"].string
                == "#/components/schemas/BookContributorsRelationshipDocument")
        let editor = encoded["paths"]["/books/{id}/relationships/editor"]
        #expect(editor.keys == ["get", "parameters", "patch"])
        #expect(
            editor["get"]["responses"]["200"]["content"]["application/vnd.api+json"]["schema"]["$ref"].string
                == "#/components/schemas/BookEditorRelationshipDocument")
    }
}
