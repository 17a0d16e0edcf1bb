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
                "/books", "/books/{id}", "/books/{id}/editor", "/books/{id}/publisher",
                "/books/{id}/relationships/contributors", "/books/{id}/relationships/editor",
                "/books/{id}/relationships/publisher", "/organizations", "/organizations/{id}", "/people",
                "/people/{id}",
            ])

        let list = encoded["paths"]["/books"]["get"]
        #expect(list["operationId"].string == "listBook")
        #expect(
            list["parameters"].elements.compactMap { $0["name"].string } == [
                "include", "fields[books]", "fields[organizations]", "fields[people]", "sort", "page[number]",
                "page[size]",
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
        #expect(
            single["get"]["parameters"].elements.compactMap { $0["name"].string } == [
                "include", "fields[books]", "fields[organizations]", "fields[people]",
            ])
        #expect(
            single["patch"]["requestBody"]["content"]["application/vnd.api+json"]["schema"]["$ref"].string
                == "#/components/schemas/BookUpdateDocument")
        #expect(single["delete"]["responses"]["204"]["description"].string == "Deleted.")

        // Relationship routes: to-many ones take POST and DELETE as well.
        let contributors = encoded["paths"]["/books/{id}/relationships/contributors"]
        #expect(contributors.keys == ["delete", "get", "parameters", "patch", "post"])
        // A request body is the linkage alone: no `included`, no links.
        let body = contributors["post"]["requestBody"]["content"]["application/vnd.api+json"]["schema"]
        #expect(body["properties"]["data"]["type"].string == "array")
        #expect(body["properties"].keys == ["data", "jsonapi", "meta"])
        #expect(body["additionalProperties"].bool == false)
        let editor = encoded["paths"]["/books/{id}/relationships/editor"]
        #expect(editor.keys == ["get", "parameters", "patch"])
        #expect(
            editor["get"]["responses"]["200"]["content"]["application/vnd.api+json"]["schema"]["$ref"].string
                == "#/components/schemas/BookEditorRelationshipDocument")
    }

    @Test func fieldsetsForAnyTypeArePerModel() throws {
        let encoded = try Encoded(document())
        let parameters = encoded["paths"]["/people"]["get"]["parameters"].elements
        let people = try #require(parameters.first { $0["name"].string == "fields[people]" })
        #expect(people["schema"]["type"].string == "array")
        #expect(people["allowEmptyValue"].bool == true)
        let fields = try #require(people["schema"]["items"].allowed)
        #expect(!fields.isEmpty)
        #expect(!parameters.contains { $0["name"].string == "fields" })
    }

    @Test func relatedResourceRoutes() throws {
        let encoded = try Encoded(document())
        let publisher = encoded["paths"]["/books/{id}/publisher"]
        #expect(publisher.keys == ["get", "parameters"])
        #expect(publisher["get"]["operationId"].string == "getBookPublisher")
        #expect(
            publisher["get"]["responses"]["200"]["content"]["application/vnd.api+json"]["schema"]["$ref"].string
                == "#/components/schemas/OrganizationDocument")
        // The related type's own rules: organizations take no `include`.
        #expect(
            publisher["get"]["parameters"].elements.compactMap { $0["name"].string } == [
                "fields[books]", "fields[organizations]", "fields[people]",
            ])
        // A union's members are of several types: no related route.
        #expect(encoded["paths"]["/books/{id}/contributors"].isAbsent)
    }

    @Test func createLinksToTheCreatedResource() throws {
        let encoded = try Encoded(document())
        let links = encoded["paths"]["/books"]["post"]["responses"]["201"]["links"]
        #expect(links.keys == ["deleteBook", "getBook", "updateBook"])
        #expect(links["getBook"]["operationId"].string == "getBook")
        #expect(links["getBook"]["parameters"]["id"].string == "$response.body#/data/id")
    }

    @Test func atomicOperations() throws {
        var paths = document().paths
        paths["/operations"] = .b(api.atomicOperationsPathItem())
        let document = OpenAPI.Document(
            openAPIVersion: .v3_1_1, info: .init(title: "Library", version: "1.0"), servers: [], paths: paths,
            components: api.components)
        try document.validate()
        let post = try Encoded(document)["paths"]["/operations"]["post"]
        let type = #"application/vnd.api+json; ext="https://jsonapi.org/ext/atomic""#
        #expect(JSONAPIComponents.atomicOperationsContentType.rawValue == type)
        let request = post["requestBody"]["content"][type]["schema"]
        #expect(request["required"].strings == ["atomic:operations"])
        #expect(request["additionalProperties"].bool == false)
        let operations = request["properties"]["atomic:operations"]
        #expect(operations["minItems"].int == 1)
        let kinds = operations["items"]["anyOf"].elements
        #expect(kinds.count == 5)
        #expect(
            kinds.map { $0["properties"]["op"].allowed ?? [] } == [
                ["add"], ["update"], ["remove"], ["add", "remove"], ["update"],
            ])
        #expect(post["responses"].keys == ["200", "204", "4XX", "5XX"])
        #expect(
            post["responses"]["200"]["content"][type]["schema"]["properties"]["atomic:results"]["type"].string
                == "array")
    }
}
