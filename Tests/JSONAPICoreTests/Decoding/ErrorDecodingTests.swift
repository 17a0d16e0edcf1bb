import Foundation
import JSONAPI
import Testing

@testable import JSONAPITestSupport

@Suite("Decoding errors")
struct ErrorDecodingTests {
    struct Email: Decodable, Equatable {
        var address: String
        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            let text = try container.decode(String.self)
            guard text.contains("@") else {
                throw DecodingError.dataCorruptedError(
                    in: container, debugDescription: "`\(text)` is not an email address")
            }
            address = text
        }
    }

    struct ValidationFailure: Error, Equatable {
        var field: String
    }

    struct Person: Decodable, JSONAPIResource {
        static let resourceType = "people"
        var id: String
        var name: String
        var email: Email
        var age: Int
        var address: Address?
    }

    struct Address: Decodable {
        var city: String
        var zip: String
        init(from decoder: any Decoder) throws {
            enum Keys: String, CodingKey { case city, zip }
            let container = try decoder.container(keyedBy: Keys.self)
            city = try container.decode(String.self, forKey: .city)
            zip = try container.decode(String.self, forKey: .zip)
            guard zip.count == 5 else { throw ValidationFailure(field: "zip") }
        }
    }

    static func person(_ attributes: String) -> String {
        """
        {"data": {
          "type": "people", "id": "7",
          "attributes": \(attributes)
        }}
        """
    }

    @Test func typeMismatchSaysExpectedFoundWhere() throws {
        let error = decodingError {
            try decode(Person.self, Self.person(#"{"name": 42, "email": "a@b", "age": 3}"#))
        }
        guard case .typeMismatch(let type, let context)? = error else {
            Issue.record("expected typeMismatch, got \(String(describing: error))")
            return
        }
        #expect(type is String.Type)
        #expect(context.codingPath.map(\.stringValue) == ["name"])
        #expect(context.debugDescription.contains("expected a string, found a number (42)"))
        #expect(context.debugDescription.contains("/data/attributes/name (line 3, column 26)"))
        let place = try #require(error?.jsonapiError)
        #expect(place.code == .typeMismatch)
        #expect(place.pointer == "/data/attributes/name")
        #expect(place.line == 3)
        #expect(place.column == 26)
        #expect(place.offset > 0)
    }

    @Test func missingKey() throws {
        let error = decodingError { try decode(Person.self, Self.person(#"{"name": "Ann", "email": "a@b"}"#)) }
        guard case .keyNotFound(let key, let context)? = error else {
            Issue.record("expected keyNotFound, got \(String(describing: error))")
            return
        }
        #expect(key.stringValue == "age")
        #expect(context.codingPath.isEmpty)
        #expect(context.debugDescription.contains("resource people/7 has no attribute or relationship `age`"))
        #expect(error?.jsonapiError?.pointer == "/data")
    }

    @Test func nullForNonOptional() throws {
        let error = decodingError { try decode(Person.self, Self.person(#"{"name": null, "email": "a@b", "age": 1}"#)) }
        #expect(error?.debugDescription.contains("expected a string, found null") == true)
    }

    @Test func customValidationGetsPathAndPointer() throws {
        let error = decodingError {
            try decode(Person.self, Self.person(#"{"name": "Ann", "email": "nope", "age": 3}"#))
        }
        guard case .dataCorrupted(let context)? = error else {
            Issue.record("expected dataCorrupted, got \(String(describing: error))")
            return
        }
        #expect(context.codingPath.map(\.stringValue) == ["email"])
        #expect(context.debugDescription.hasPrefix("`nope` is not an email address at /data/attributes/email (line 3"))
        #expect(error?.jsonapiError?.pointer == "/data/attributes/email")
        #expect(error?.jsonapiError?.code == .decodingFailed)
    }

    @Test func foreignErrorsKeepTheirIdentity() throws {
        let text = Self.person(#"{"name": "Ann", "email": "a@b", "age": 3, "address": {"city": "X", "zip": "123"}}"#)
        let error = decodingError { try decode(Person.self, text) }
        guard case .dataCorrupted(let context)? = error else {
            Issue.record("expected dataCorrupted, got \(String(describing: error))")
            return
        }
        #expect(context.underlyingError as? ValidationFailure == ValidationFailure(field: "zip"))
        #expect(context.codingPath.map(\.stringValue) == ["address"])
        #expect(context.debugDescription.contains("at /data/attributes/address (line 3"))
    }

    @Test func errorsInsideRelatedResourcesPointIntoIncluded() throws {
        struct Article: Decodable, JSONAPIResource {
            static let resourceType = "articles"
            var id: String
            var author: Person
        }
        let text = """
            {"data": {"type": "articles", "id": "1",
                      "relationships": {"author": {"data": {"type": "people", "id": "7"}}}},
             "included": [
               {"type": "people", "id": "7", "attributes": {"name": "Ann", "email": "a@b", "age": "old"}}
             ]}
            """
        let error = decodingError { try decode(Article.self, text) }
        #expect(error?.path == "author.age")
        #expect(error?.jsonapiError?.pointer == "/included/0/attributes/age")
        #expect(error?.jsonapiError?.line == 4)
        #expect(error?.debugDescription.contains(#"expected an integer (Int), found a string ("old")"#) == true)
    }

    @Test func arrayElementErrors() throws {
        struct Tagged: Decodable, JSONAPIResource {
            static let resourceType = "t"
            var id: String
            var tags: [String]
        }
        let error = decodingError {
            try decode(Tagged.self, #"{"data":{"type":"t","id":"1","attributes":{"tags":["a",2]}}}"#)
        }
        #expect(error?.path == "tags.[1]")
        #expect(error?.jsonapiError?.pointer == "/data/attributes/tags/1")
        let list = try decode([Tagged].self, #"{"data":[{"type":"t","id":"1","attributes":{"tags":[]}}]}"#)
        #expect(list.first?.tags == [])
        let second = decodingError {
            try decode(
                [Tagged].self,
                #"{"data":[{"type":"t","id":"1","attributes":{"tags":[]}},{"type":"t","id":"2","attributes":{"tags":{}}}]}"#
            )
        }
        #expect(second?.path == "[1].tags")
        #expect(second?.jsonapiError?.pointer == "/data/1/attributes/tags")
    }

    @Test func errorDocumentsThrowTheErrors() throws {
        let text = #"""
            {"jsonapi": {"version": "1.1"},
             "errors": [
              {"id": "e1", "status": "422", "code": "too-short", "title": "Invalid Attribute",
               "detail": "First name must contain at least two characters.",
               "source": {"pointer": "/data/attributes/firstName"},
               "links": {"about": "https://example.com/errors/too-short"},
               "meta": {"minimum": 2}},
              {"status": "403", "title": "Forbidden", "source": {"header": "Authorization"}}
             ],
             "meta": {"requestId": "abc"}}
            """#
        for attempt in 0..<3 {
            do {
                switch attempt {
                case 0: _ = try decode(Person.self, text)
                case 1: _ = try decode([Person].self, text)
                default: _ = try decode(CompoundDocument<[Person], NoMeta, NoLinks>.self, text)
                }
                Issue.record("expected DocumentErrors")
            } catch let failure as DocumentErrors {
                #expect(failure.errors.count == 2)
                let first = try #require(failure.errors.first)
                #expect(first.id == "e1")
                #expect(first.status == "422")
                #expect(first.code == "too-short")
                #expect(first.title == "Invalid Attribute")
                #expect(first.detail == "First name must contain at least two characters.")
                #expect(first.source?.pointer == "/data/attributes/firstName")
                #expect(first.links?["about"]?.href == "https://example.com/errors/too-short")
                #expect(first.meta?["minimum"]?.int64Value == 2)
                #expect(failure.errors[1].source?.header == "Authorization")
                #expect(failure.status == 422)
                #expect(failure.meta?["requestId"]?.stringValue == "abc")
                #expect(failure.jsonapi?.version == "1.1")
                #expect(failure.description.contains("422 too-short Invalid Attribute"))
            }
        }
    }

    @Test func errorDescriptionMentionsLocation() throws {
        let error = decodingError {
            try decode(Person.self, Self.person(#"{"name": "A", "email": "a@b", "age": true}"#))
        }
        let description = try #require(error?.debugDescription)
        #expect(description.contains("expected an integer (Int), found a boolean (true)"))
        #expect(description.contains("line 3"))
        #expect(description.contains("/data/attributes/age"))
    }
}
