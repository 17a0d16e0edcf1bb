import Foundation
import JSONAPI
import JSONAPIOpenAPI
import OpenAPIKit
import Testing

/// A polymorphic relationship's target: people or organizations.
enum Contributor: ResourceUnion {
    case person(Person)
    case organization(Organization)

    static let members: [ResourceUnionMember<Contributor>] = [
        .member(Person.self, Contributor.person), .member(Organization.self, Contributor.organization),
    ]
}

/// `organizations`, a member of ``Contributor``.
struct Organization: Decodable, JSONAPIResource {
    static let resourceType = "organizations"
    var id: Int
    var legalName: String
    var founded: Date
    var tags: [String]
    var address: Address?
    var kind: Kind
    var logo: Data?

    struct Address: Decodable {
        var streetName: String
        var postalCode: String?
    }

    enum Kind: String, Decodable, CaseIterable {
        case company, charity
    }
}

/// A model with a union to-many relationship, a resolved to-one and a required to-one.
struct Book: Decodable, JSONAPIResource {
    static let resourceType = "books"
    var id: String
    var title: String
    var pageCount: Int
    var rating: Double?
    var contributors: [Contributor]
    var publisher: Identifier<Organization>
    var editor: Person?
}

/// The structure of the schemas generated for a model, read from their JSON.
@Suite struct ResourceSchemaTests {
    let api = JSONAPIComponents(models: [Book.self, Organization.self, Person.self])

    private func schema(_ name: String, in api: JSONAPIComponents? = nil) throws -> Encoded {
        let components = (api ?? self.api).components
        let schema = try #require(components.schemas[OpenAPI.ComponentKey(rawValue: name) ?? "_"], "no schema \(name)")
        return try Encoded(schema)
    }

    @Test func componentNames() throws {
        let names = try #require(api.names(for: Book.self))
        #expect(names.resource == "Book")
        #expect(names.document == "BookDocument")
        #expect(names.collectionDocument == "BookCollectionDocument")
        #expect(names.createDocument == "BookCreateDocument")
        #expect(names.updateDocument == "BookUpdateDocument")
        #expect(
            names.relationshipDocuments == [
                "contributors": "BookContributorsRelationshipDocument",
                "publisher": "BookPublisherRelationshipDocument", "editor": "BookEditorRelationshipDocument",
            ])
        let keys = Set(api.components.schemas.keys.map(\.rawValue))
        for name in [
            "JSONAPIMeta", "JSONAPILink", "JSONAPITopLevelLinks", "JSONAPIResourceLinks", "JSONAPIRelationshipLinks",
            "JSONAPIObject", "JSONAPIErrorObject", "JSONAPIErrorDocument", "Organization", "Person",
            "PersonCollectionDocument",
        ] {
            #expect(keys.contains(name), "missing \(name)")
        }
        #expect(api.names(for: Article.self) == nil)
    }

    @Test func responseResourceObject() throws {
        let book = try schema("Book")
        #expect(book["type"].string == "object")
        #expect(book["additionalProperties"].bool == false)
        #expect(book.required == ["id", "type"])
        #expect(book["properties"]["type"].allowed == ["books"])
        #expect(book["properties"]["id"]["type"].string == "string")
        #expect(book["properties"]["links"]["$ref"].string == "#/components/schemas/JSONAPIResourceLinks")
        #expect(book["properties"]["meta"]["$ref"].string == "#/components/schemas/JSONAPIMeta")

        // Responses may leave any field out (sparse fieldsets): nothing required.
        let attributes = book["properties"]["attributes"]
        #expect(attributes.required == [])
        #expect(attributes["additionalProperties"].bool == false)
        #expect(attributes["properties"].keys == ["pageCount", "rating", "title"])
        #expect(attributes["properties"]["title"]["type"].string == "string")
        #expect(attributes["properties"]["pageCount"]["type"].string == "integer")
        // An optional attribute also allows null.
        let rating = attributes["properties"]["rating"]["anyOf"]
        #expect(rating[0]["type"].string == "number")
        #expect(rating[1]["type"].string == "null")

        let relationships = book["properties"]["relationships"]
        #expect(relationships["properties"].keys == ["contributors", "editor", "publisher"])
        let contributors = relationships["properties"]["contributors"]
        #expect(contributors["minProperties"].int == 1)
        #expect(contributors.required == [])
        #expect(contributors["properties"]["links"]["$ref"].string == "#/components/schemas/JSONAPIRelationshipLinks")
        let linkage = contributors["properties"]["data"]
        #expect(linkage["type"].string == "array")
        // A union's linkage names any of its member types.
        #expect(linkage["items"]["properties"]["type"].allowed == ["people", "organizations"])
        #expect(linkage["items"].required == ["id", "type"])
        // A required to-one is an identifier; an optional one may be null.
        let publisher = relationships["properties"]["publisher"]["properties"]["data"]
        #expect(publisher["properties"]["type"].allowed == ["organizations"])
        let editor = relationships["properties"]["editor"]["properties"]["data"]["oneOf"]
        #expect(editor[0]["properties"]["type"].allowed == ["people"])
        #expect(editor[1]["type"].string == "null")
    }

    @Test func responsesCanRequireEveryField() throws {
        let strict = JSONAPIComponents(
            models: [Book.self, Organization.self, Person.self],
            options: JSONAPISchemaOptions(requiresFieldsInResponses: true))
        let book = try schema("Book", in: strict)
        #expect(book.required == ["attributes", "id", "relationships", "type"])
        #expect(book["properties"]["attributes"].required == ["pageCount", "title"])
        #expect(book["properties"]["relationships"].required == ["contributors", "publisher"])
    }

    @Test func attributeValueShapes() throws {
        let attributes = try schema("Organization")["properties"]["attributes"]["properties"]
        #expect(attributes["founded"]["type"].string == "string")
        #expect(attributes["founded"]["format"].string == "date-time")
        #expect(attributes["tags"]["type"].string == "array")
        #expect(attributes["tags"]["items"]["type"].string == "string")
        #expect(attributes["kind"].allowed == ["company", "charity"])
        let address = attributes["address"]["anyOf"][0]
        #expect(address["type"].string == "object")
        #expect(address.required == ["streetName"])
        #expect(address["properties"]["postalCode"]["anyOf"][1]["type"].string == "null")
        #expect(attributes["logo"]["anyOf"][0]["contentEncoding"].string == "base64")
        // An integer id is a string of digits.
        let id = try schema("Organization")["properties"]["id"]
        #expect(id["type"].string == "string")
        #expect(id["pattern"].string == "^-?[0-9]+$")
    }

    @Test func memberNamesFollowTheKeyStrategy() throws {
        var options = JSONAPISchemaOptions()
        options.encoding.keyEncodingStrategy = .convertToSnakeCase
        options.encoding.dateEncodingStrategy = .secondsSince1970
        let snake = JSONAPIComponents(models: [Organization.self, Book.self, Person.self], options: options)
        let organization = try schema("Organization", in: snake)
        let attributes = organization["properties"]["attributes"]["properties"]
        #expect(attributes.keys == ["address", "founded", "kind", "legal_name", "logo", "tags"])
        #expect(attributes["address"]["anyOf"][0]["properties"].keys == ["postal_code", "street_name"])
        // Dates as the encoder writes them: seconds, a number.
        #expect(attributes["founded"]["type"].string == "number")
        let book = try schema("Book", in: snake)
        #expect(book["properties"]["attributes"]["properties"].keys == ["page_count", "rating", "title"])
    }

    @Test func createBody() throws {
        let document = try schema("BookCreateDocument")
        #expect(document.required == ["data"])
        #expect(document["properties"].keys == ["data", "jsonapi", "meta"])
        let book = document["properties"]["data"]
        #expect(book.required == ["attributes", "relationships", "type"])
        #expect(book["properties"]["id"]["type"].string == "string")
        #expect(book["properties"]["lid"]["type"].string == "string")
        #expect(book["properties"]["links"].isAbsent)
        #expect(book["properties"]["attributes"].required == ["pageCount", "title"])
        // A required to-one must be given; a to-many need not be.
        let relationships = book["properties"]["relationships"]
        #expect(relationships.required == ["publisher"])
        let publisher = relationships["properties"]["publisher"]
        #expect(publisher.required == ["data"])
        #expect(publisher["properties"].keys == ["data", "meta"])
        // In a request, linkage may name a new resource by its local id.
        let identifier = publisher["properties"]["data"]
        #expect(identifier["allOf"][0]["properties"]["type"].allowed == ["organizations"])
        #expect(identifier["allOf"][0].required == ["type"])
        #expect(identifier["allOf"][1]["anyOf"][0].required == ["id"])
        #expect(identifier["allOf"][1]["anyOf"][1].required == ["lid"])
    }

    @Test func createBodyWithoutLocalIdentifiers() throws {
        let api = JSONAPIComponents(
            models: [Book.self, Organization.self, Person.self],
            options: JSONAPISchemaOptions(allowsLocalIdentifiers: false))
        let book = try schema("BookCreateDocument", in: api)["properties"]["data"]
        #expect(book["properties"]["lid"].isAbsent)
        let publisher = book["properties"]["relationships"]["properties"]["publisher"]["properties"]["data"]
        #expect(publisher.required == ["id", "type"])
    }

    @Test func updateBody() throws {
        let book = try schema("BookUpdateDocument")["properties"]["data"]
        #expect(book.required == ["id", "type"])
        #expect(book["properties"]["attributes"].required == [])
        #expect(book["properties"]["relationships"].required == [])
        #expect(book["properties"]["relationships"]["properties"]["contributors"].required == ["data"])
    }

    @Test func documentsAndIncluded() throws {
        let single = try schema("BookDocument")
        #expect(single.required == ["data"])
        #expect(single["additionalProperties"].bool == false)
        #expect(single["properties"].keys == ["data", "included", "jsonapi", "links", "meta"])
        #expect(single["properties"]["data"]["oneOf"][0]["$ref"].string == "#/components/schemas/Book")
        #expect(single["properties"]["data"]["oneOf"][1]["type"].string == "null")
        #expect(single["properties"]["links"]["$ref"].string == "#/components/schemas/JSONAPITopLevelLinks")
        // `included`: one of the resource objects of the related types.
        let included = single["properties"]["included"]["items"]["oneOf"]
        #expect(
            included.elements.compactMap { $0["$ref"].string }.sorted() == [
                "#/components/schemas/Organization", "#/components/schemas/Person",
            ])
        let collection = try schema("BookCollectionDocument")
        #expect(collection["properties"]["data"]["items"]["$ref"].string == "#/components/schemas/Book")

        // A model with no relationships: `included` may only be empty.
        let person = try schema("PersonDocument")
        #expect(person["properties"]["included"]["maxItems"].int == 0)
    }

    @Test func relatedTypeWithoutModel() throws {
        // Books link to organizations and people; with only books given, those are described
        // as resource objects of their types.
        let api = JSONAPIComponents(models: [Book.self])
        let included = try schema("BookDocument", in: api)["properties"]["included"]["items"]
        #expect(Set(included["properties"]["type"].allowed ?? []) == ["organizations", "people"])
        #expect(included.required == ["id", "type"])
    }

    @Test func relationshipDocuments() throws {
        let contributors = try schema("BookContributorsRelationshipDocument")
        #expect(contributors.required == ["data"])
        #expect(contributors["properties"]["data"]["type"].string == "array")
        #expect(
            contributors["properties"]["data"]["items"]["properties"]["type"].allowed == [
                "people", "organizations",
            ])
        let editor = try schema("BookEditorRelationshipDocument")
        #expect(editor["properties"]["data"]["oneOf"][1]["type"].string == "null")
    }

    @Test func standaloneSchemasHaveNoReferences() throws {
        let text = try String(
            decoding: JSONEncoder().encode(JSONAPISchemas.resourceObject(for: Book.self)), as: UTF8.self)
        #expect(!text.contains("$ref"))
        let create = try Encoded(JSONAPISchemas.createDocument(for: Book.self))
        #expect(create["properties"]["data"]["properties"]["attributes"].required == ["pageCount", "title"])
        let update = try Encoded(JSONAPISchemas.updateDocument(for: Book.self))
        #expect(update["properties"]["data"].required == ["id", "type"])
    }

    @Test func errorDocument() throws {
        let document = try Encoded(JSONAPISchemas.errorDocument)
        #expect(document.required == ["errors"])
        #expect(document["additionalProperties"].bool == false)
        #expect(document["properties"].keys == ["errors", "jsonapi", "links", "meta"])
        let error = document["properties"]["errors"]["items"]
        #expect(error["additionalProperties"].bool == false)
        #expect(error.required == [])
        #expect(error["properties"].keys == ["code", "detail", "id", "links", "meta", "source", "status", "title"])
        #expect(error["properties"]["source"]["properties"].keys == ["header", "parameter", "pointer"])
        #expect(error["properties"]["source"]["properties"]["pointer"]["pattern"].string == "^(?:/(?:[^~/]|~0|~1)*)*$")
        #expect(error["properties"]["links"]["properties"].keys == ["about", "type"])
    }
}
