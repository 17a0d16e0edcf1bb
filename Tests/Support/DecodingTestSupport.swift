import Foundation
import JSONAPI
import Testing

// Models of the JSON:API specification's running example (articles, people, comments), used
// across the decoding tests.

struct SpecPerson: Decodable, Equatable, JSONAPIResource {
    static let resourceType = "people"
    var id: String
    var firstName: String
    var lastName: String
    var twitter: String?
}

struct SpecComment: Decodable, Equatable, JSONAPIResource {
    static let resourceType = "comments"
    var id: String
    var body: String
    var author: SpecPerson?
}

struct SpecArticle: Decodable, Equatable, JSONAPIResource {
    static let resourceType = "articles"
    var id: String
    var title: String
    var author: SpecPerson
    var comments: [SpecComment]
}

/// The compound document of the specification (section "Compound Documents").
let specCompoundDocument = #"""
    {
      "data": [{
        "type": "articles",
        "id": "1",
        "attributes": { "title": "JSON:API paints my bikeshed!" },
        "links": { "self": "http://example.com/articles/1" },
        "relationships": {
          "author": {
            "links": {
              "self": "http://example.com/articles/1/relationships/author",
              "related": "http://example.com/articles/1/author"
            },
            "data": { "type": "people", "id": "9" }
          },
          "comments": {
            "links": {
              "self": "http://example.com/articles/1/relationships/comments",
              "related": "http://example.com/articles/1/comments"
            },
            "data": [
              { "type": "comments", "id": "5" },
              { "type": "comments", "id": "12" }
            ]
          }
        }
      }],
      "included": [{
        "type": "people",
        "id": "9",
        "attributes": { "firstName": "Dan", "lastName": "Gebhardt", "twitter": "dgeb" },
        "links": { "self": "http://example.com/people/9" }
      }, {
        "type": "comments",
        "id": "5",
        "attributes": { "body": "First!" },
        "relationships": { "author": { "data": { "type": "people", "id": "2" } } },
        "links": { "self": "http://example.com/comments/5" }
      }, {
        "type": "comments",
        "id": "12",
        "attributes": { "body": "I like XML better" },
        "relationships": { "author": { "data": { "type": "people", "id": "9" } } },
        "links": { "self": "http://example.com/comments/12" }
      }]
    }
    """#

/// Parses a document from text, failing the test with the parser's message.
func parse(_ text: String, options: ParsingOptions = ParsingOptions()) throws -> Document {
    try Document(parsing: text, options: options)
}

/// Decodes `T` from document text with a fresh decoder configured by `configure`.
func decode<T: Decodable>(
    _ type: T.Type, _ text: String, _ configure: (JSONAPIDecoder) -> Void = { _ in }
) throws -> T {
    let decoder = JSONAPIDecoder()
    configure(decoder)
    return try decoder.decode(T.self, from: Array(text.utf8))
}

/// The `DecodingError` thrown by `body`, or a test failure.
func decodingError<T>(_ body: () throws -> T) -> DecodingError? {
    do {
        let value = try body()
        Issue.record("expected a DecodingError, decoded \(value)")
        return nil
    } catch let error as DecodingError {
        return error
    } catch {
        Issue.record("expected a DecodingError, got \(type(of: error)): \(error)")
        return nil
    }
}

extension DecodingError {
    var debugDescription: String {
        switch self {
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .keyNotFound(_, let context),
            .dataCorrupted(let context):
            return context.debugDescription
        @unknown default:
            return "\(self)"
        }
    }

    var path: String {
        switch self {
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .keyNotFound(_, let context),
            .dataCorrupted(let context):
            return context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
        @unknown default:
            return ""
        }
    }
}
