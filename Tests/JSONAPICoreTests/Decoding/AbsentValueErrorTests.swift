import Foundation
import JSONAPI
import Testing

@testable import JSONAPITestSupport

/// A member that is absent is `keyNotFound` (naming the missing key), never `valueNotFound`,
/// whose standard description says "Expected value of type … but found null instead"; a real
/// `null` is `valueNotFound` with the type that was wanted. Either way our message, with its
/// place in the document, is the context's `debugDescription` and is in every description.
@Suite("Errors for absent values")
struct AbsentValueErrorTests {
    struct Person: Decodable, JSONAPIResource {
        static let resourceType = "people"
        var id: String
        var name: String
    }

    struct Tag: Decodable, JSONAPIResource {
        static let resourceType = "tags"
        var id: String
    }

    struct Article: Decodable, JSONAPIResource {
        static let resourceType = "articles"
        var id: String
        var author: Person
    }

    struct Gallery: Decodable, JSONAPIResource {
        static let resourceType = "galleries"
        var id: String
        var tags: [Identifier<Tag>]
    }

    /// Reads two elements from an array attribute and two from a to-many relationship, through
    /// unkeyed containers.
    struct Pair: Decodable {
        var first: Int
        var second: Int
        init(from decoder: any Decoder) throws {
            var container = try decoder.unkeyedContainer()
            first = try container.decode(Int.self)
            second = try container.decode(Int.self)
        }
    }

    struct TagPair: Decodable {
        var first: Identifier<Tag>
        var second: Identifier<Tag>
        init(from decoder: any Decoder) throws {
            var container = try decoder.unkeyedContainer()
            first = try container.decode(Identifier<Tag>.self)
            second = try container.decode(Identifier<Tag>.self)
        }
    }

    struct Measured: Decodable, JSONAPIResource {
        static let resourceType = "measures"
        var id: String
        var pair: Pair
    }

    struct Tagged: Decodable, JSONAPIResource {
        static let resourceType = "tagged"
        var id: String
        var tags: TagPair
    }

    /// Checks every description of `error`: the context's `debugDescription` starts with
    /// `message` and names `pointer`; `String(describing:)` and `String(reflecting:)` carry it;
    /// nothing claims a `null` of type `Any`.
    func expectDescriptions(
        of error: DecodingError, start message: String, pointer: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        guard let context = Self.context(of: error) else {
            Issue.record("no context in \(error)", sourceLocation: sourceLocation)
            return
        }
        #expect(
            context.debugDescription.hasPrefix(message), "\(context.debugDescription)", sourceLocation: sourceLocation)
        let place = pointer.isEmpty ? "the document root" : pointer
        #expect(context.debugDescription.contains(" at \(place) (line "), sourceLocation: sourceLocation)
        #expect(error.jsonapiError?.pointer == pointer, sourceLocation: sourceLocation)
        for description in [String(describing: error), String(reflecting: error), error.localizedDescription] {
            #expect(
                !description.contains("Expected value of type Any"), "\(description)", sourceLocation: sourceLocation)
            #expect(!description.contains("but found null"), "\(description)", sourceLocation: sourceLocation)
        }
        #expect(String(describing: error).contains(message), sourceLocation: sourceLocation)
        #expect(String(reflecting: error).contains(message), sourceLocation: sourceLocation)
    }

    static func context(of error: DecodingError) -> DecodingError.Context? {
        switch error {
        case .keyNotFound(_, let context), .valueNotFound(_, let context), .typeMismatch(_, let context),
            .dataCorrupted(let context):
            return context
        @unknown default:
            return nil
        }
    }

    /// The key of a `keyNotFound` error, or a test failure.
    func missingKey(_ error: DecodingError?, sourceLocation: SourceLocation = #_sourceLocation) -> (any CodingKey)? {
        guard case .keyNotFound(let key, _)? = error else {
            Issue.record("expected keyNotFound, got \(String(describing: error))", sourceLocation: sourceLocation)
            return nil
        }
        return key
    }

    @Test func aToOneRelationshipWithoutData() throws {
        let text = #"""
            {"data": {"type": "articles", "id": "1",
                      "relationships": {"author": {"links": {"related": "/articles/1/author"}}}}}
            """#
        let error = try #require(decodingError { try decode(Article.self, text) })
        #expect(missingKey(error)?.stringValue == "data")
        #expect(Self.context(of: error)?.codingPath.map(\.stringValue) == ["author"])
        expectDescriptions(
            of: error, start: "relationship `author` has no `data` (only links or meta)",
            pointer: "/data/relationships/author")
        // A server maps it to a missing member, which is what it is.
        let object = JSONAPIErrorObject(decodingError: error, relationshipNames: ["author"])
        #expect(object.code == "missing-member")
        #expect(object.detail == "the member `data` is missing")
        #expect(object.source?.pointer == "/data/relationships/author")
    }

    @Test func aToManyRelationshipWithoutData() throws {
        let text = #"""
            {"data": {"type": "galleries", "id": "1", "relationships": {"tags": {"meta": {"count": 3}}}}}
            """#
        let error = try #require(decodingError { try decode(Gallery.self, text) })
        #expect(missingKey(error)?.stringValue == "data")
        expectDescriptions(
            of: error, start: "relationship `tags` has no `data` (only links or meta)",
            pointer: "/data/relationships/tags")
    }

    @Test(arguments: [false, true])
    func aDocumentWithoutPrimaryData(many: Bool) throws {
        let text = #"{"meta": {"total": 0}}"#
        let error = try #require(
            decodingError {
                many ? try decode([Article].self, text).count : try decode(Article.self, text).id.count
            })
        #expect(missingKey(error)?.stringValue == "data")
        expectDescriptions(of: error, start: "the document has no primary data (`data` member)", pointer: "")
    }

    @Test func anArrayWithTooFewElements() throws {
        let text = #"{"data": {"type": "measures", "id": "1", "attributes": {"pair": [4]}}}"#
        let error = try #require(decodingError { try decode(Measured.self, text) })
        let key = missingKey(error)
        #expect(key?.intValue == 1)
        #expect(Self.context(of: error)?.codingPath.map(\.stringValue) == ["pair"])
        expectDescriptions(
            of: error, start: "the array has no element 1 (it has 1)", pointer: "/data/attributes/pair")
    }

    @Test func aToManyRelationshipWithTooFewElements() throws {
        let text = #"""
            {"data": {"type": "tagged", "id": "1", "relationships": {"tags": {"data": [{"type": "tags", "id": "7"}]}}}}
            """#
        let error = try #require(decodingError { try decode(Tagged.self, text) })
        #expect(missingKey(error)?.intValue == 1)
        #expect(Self.context(of: error)?.codingPath.map(\.stringValue) == ["tags"])
        expectDescriptions(
            of: error, start: "the list has no element 1 (it has 1)", pointer: "/data/relationships/tags")
    }

    /// A real `null` is `valueNotFound`, with the type that was wanted (never `Any`).
    @Test func aNullIsValueNotFoundWithTheWantedType() throws {
        let nullAuthor = #"{"data": {"type": "articles", "id": "1", "relationships": {"author": {"data": null}}}}"#
        let error = try #require(decodingError { try decode(Article.self, nullAuthor) })
        guard case .valueNotFound(let type, let context) = error else {
            Issue.record("expected valueNotFound, got \(error)")
            return
        }
        #expect(ObjectIdentifier(type) == ObjectIdentifier(Person.self))
        #expect(context.debugDescription.hasPrefix("relationship `author` is null"))
        #expect(String(describing: error).contains("Person"))
        #expect(!String(describing: error).contains("type Any"))

        let nullData = try #require(decodingError { try decode(Article.self, #"{"data": null}"#) })
        guard case .valueNotFound(let primaryType, let primaryContext) = nullData else {
            Issue.record("expected valueNotFound, got \(nullData)")
            return
        }
        #expect(ObjectIdentifier(primaryType) == ObjectIdentifier(Article.self))
        #expect(primaryContext.debugDescription.hasPrefix("primary data is null"))

        let nullName = #"{"data": {"type": "people", "id": "1", "attributes": {"name": null}}}"#
        let attribute = try #require(decodingError { try decode(Person.self, nullName) })
        guard case .valueNotFound(let attributeType, let attributeContext) = attribute else {
            Issue.record("expected valueNotFound, got \(attribute)")
            return
        }
        #expect(ObjectIdentifier(attributeType) == ObjectIdentifier(String.self))
        #expect(attributeContext.debugDescription.hasPrefix("expected a string, found null"))
    }

    struct Address: Decodable {
        var city: String
    }

    struct Located: Decodable, JSONAPIResource {
        static let resourceType = "places"
        var id: String
        var address: Address
    }

    /// A `null` where a struct's `init(from:)` asks for a container is a missing struct, not a
    /// missing `CodingKeys` (all the container itself knows).
    @Test(arguments: [
        (#"{"data": {"type": "places", "id": "1", "attributes": {"address": null}}}"#, "Address"),
        (#"{"data": {"type": "measures", "id": "1", "attributes": {"pair": null}}}"#, "Pair"),
    ])
    func aNullWhereAStructIsWantedNamesTheStruct(text: String, typeName: String) throws {
        let error = try #require(
            decodingError {
                typeName == "Address" ? try decode(Located.self, text).id : try decode(Measured.self, text).id
            })
        guard case .valueNotFound(let type, let context) = error else {
            Issue.record("expected valueNotFound, got \(error)")
            return
        }
        #expect("\(type)" == typeName)
        #expect(context.codingPath.map(\.stringValue) == [typeName == "Address" ? "address" : "pair"])
        #expect(String(describing: error).contains("Expected value of type \(typeName) but found null"))
        #expect(error.jsonapiError?.pointer.hasPrefix("/data/attributes/") == true)
    }

    /// Lenient decoding calls an absent value a missing value, as before.
    @Test func lenientDecodingCallsThemMissingValues() throws {
        let text = #"""
            {"data": [{"type": "articles", "id": "1", "relationships": {"author": {"meta": {}}}},
                      {"type": "measures", "id": "2", "attributes": {"pair": [4]}}]}
            """#
        var options = DecodingOptions()
        options.tolerance = .lenient
        let articles = try JSONAPIDecoder(options: options).decodeReporting([Article].self, from: text)
        #expect(articles.value.isEmpty)
        #expect(articles.problems.map(\.kind) == [.missingValue, .wrongResourceType])
        #expect(articles.problems.first?.pointer == "/data/0/relationships/author")
    }
}
