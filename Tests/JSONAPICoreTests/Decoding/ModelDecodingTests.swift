import Foundation
import JSONAPI
import Testing

@testable import JSONAPITestSupport

/// A custom id type, decoded through `LosslessStringConvertible`.
struct Slug: LosslessStringConvertible, Decodable, Hashable, Sendable {
    var value: String
    init?(_ description: String) {
        guard description.hasPrefix("s-") else { return nil }
        value = description
    }
    var description: String { value }
    init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let slug = Slug(text) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "not a slug"))
        }
        self = slug
    }
}

@Suite("Decoding models")
struct ModelDecodingTests {
    struct Book: Decodable, Equatable, JSONAPIResource {
        static let resourceType = "books"
        var id: String
        var type: String
        var title: String
        var pages: Int
    }

    @Test func singleResource() throws {
        let book = try decode(
            Book.self,
            #"{"data":{"type":"books","id":"b1","attributes":{"title":"Dune","pages":412}}}"#)
        #expect(book == Book(id: "b1", type: "books", title: "Dune", pages: 412))
    }

    @Test func arrayOfResources() throws {
        let books = try decode(
            [Book].self,
            #"""
            {"data":[{"type":"books","id":"1","attributes":{"title":"A","pages":1}},
                     {"type":"books","id":"2","attributes":{"pages":2,"title":"B"}}]}
            """#)
        #expect(books.map(\.title) == ["A", "B"])
        #expect(books.map(\.pages) == [1, 2])
    }

    @Test func optionalResource() throws {
        let none = try decode(Book?.self, #"{"data":null}"#)
        #expect(none == nil)
        let some = try decode(Book?.self, #"{"data":{"type":"books","id":"9","attributes":{"title":"X","pages":3}}}"#)
        #expect(some?.id == "9")
    }

    @Test func emptyArray() throws {
        #expect(try decode([Book].self, #"{"data":[]}"#).isEmpty)
    }

    @Test func wrongPrimaryShapeFails() throws {
        let error = decodingError {
            try decode([Book].self, #"{"data":{"type":"books","id":"1","attributes":{"title":"A","pages":1}}}"#)
        }
        #expect(error?.debugDescription.contains("expected an array of resources, found a single resource") == true)
        let other = decodingError { try decode(Book.self, #"{"data":[]}"#) }
        #expect(other?.debugDescription.contains("expected a single resource") == true)
        let null = decodingError { try decode(Book.self, #"{"data":null}"#) }
        guard case .valueNotFound? = null else {
            Issue.record("expected valueNotFound, got \(String(describing: null))")
            return
        }
    }

    @Test func wrongResourceTypeFails() throws {
        let error = decodingError {
            try decode(Book.self, #"{"data":{"type":"films","id":"1","attributes":{"title":"A","pages":1}}}"#)
        }
        #expect(error?.debugDescription.contains("expected a `books` resource") == true)
        #expect(error?.debugDescription.contains("found a `films` resource (films/1)") == true)
        // A primary resource of another type: told apart from other mismatches (409 for a server).
        #expect(error?.jsonapiError?.code == .resourceTypeConflict)
        #expect(error?.jsonapiError?.pointer == "/data")
    }

    struct IntID: Decodable, JSONAPIResource {
        static let resourceType = "things"
        var id: Int
        var lid: String?
    }

    struct UUIDID: Decodable, JSONAPIResource {
        static let resourceType = "things"
        var id: UUID
    }

    struct SlugID: Decodable, JSONAPIResource {
        static let resourceType = "things"
        var id: Slug
    }

    struct UInt8ID: Decodable, JSONAPIResource {
        static let resourceType = "things"
        var id: UInt8
    }

    @Test func idTypes() throws {
        #expect(try decode(IntID.self, #"{"data":{"type":"things","id":"0042"}}"#).id == 42)
        #expect(try decode(IntID.self, #"{"data":{"type":"things","id":"-7"}}"#).id == -7)
        let uuid = "7D444840-9DC0-11D1-B245-5FFDCE74FAD2"
        #expect(try decode(UUIDID.self, #"{"data":{"type":"things","id":"\#(uuid)"}}"#).id == UUID(uuidString: uuid))
        #expect(try decode(SlugID.self, #"{"data":{"type":"things","id":"s-hello"}}"#).id.value == "s-hello")
        let escaped = try decode(IntID.self, #"{"data":{"type":"things","id":"\u0031\u0032"}}"#)
        #expect(escaped.id == 12)
    }

    @Test func badIdsFailWithLocation() throws {
        let notInt = decodingError { try decode(IntID.self, #"{"data":{"type":"things","id":"abc"}}"#) }
        #expect(notInt?.debugDescription.contains(#"found "abc""#) == true)
        #expect(notInt?.jsonapiError?.pointer == "/data/id")
        #expect(notInt?.path == "id")
        let tooBig = decodingError { try decode(UInt8ID.self, #"{"data":{"type":"things","id":"300"}}"#) }
        #expect(tooBig != nil)
        let notSlug = decodingError { try decode(SlugID.self, #"{"data":{"type":"things","id":"nope"}}"#) }
        #expect(notSlug?.debugDescription.contains("not a valid Slug") == true)
        let notUUID = decodingError { try decode(UUIDID.self, #"{"data":{"type":"things","id":"x"}}"#) }
        #expect(notUUID?.debugDescription.contains("expected a UUID") == true)
    }

    @Test func lidInCreateRequest() throws {
        let options = ParsingOptions(kind: .createRequest)
        let document = try parse(#"{"data":{"type":"things","lid":"tmp-1"}}"#, options: options)
        struct NoID: Decodable, JSONAPIResource {
            static let resourceType = "things"
            var id: String?
            var lid: String?
        }
        let new = try JSONAPIDecoder().decode(NoID.self, from: document)
        #expect(new.id == nil)
        #expect(new.lid == "tmp-1")
    }

    struct Remapped: Decodable, JSONAPIResource {
        static let resourceType = "books"
        var identifier: String
        var name: String
        var kind: String

        enum CodingKeys: String, CodingKey {
            case identifier = "id"
            case name = "title"
            case kind = "type"
        }
    }

    @Test func codingKeysRemap() throws {
        let book = try decode(Remapped.self, #"{"data":{"type":"books","id":"1","attributes":{"title":"Emma"}}}"#)
        #expect(book.identifier == "1")
        #expect(book.name == "Emma")
        #expect(book.kind == "books")
    }

    struct WithMetaAndLinks: Decodable, JSONAPIResource {
        static let resourceType = "books"
        struct Meta: Decodable, Equatable {
            var revision: Int
        }
        var id: String
        var meta: Meta?
        var links: Links?
    }

    struct WithRawMeta: Decodable, JSONAPIResource {
        static let resourceType = "books"
        var id: String
        var meta: JSONObject
        var links: JSONValue
    }

    @Test func resourceMetaAndLinks() throws {
        let text = #"""
            {"data":{"type":"books","id":"1","meta":{"revision":7,"tags":["a"]},
                     "links":{"self":"http://x/books/1","describedby":{"href":"http://x/schema"}}}}
            """#
        let book = try decode(WithMetaAndLinks.self, text)
        #expect(book.meta == WithMetaAndLinks.Meta(revision: 7))
        #expect(book.links?["self"]?.href == "http://x/books/1")
        #expect(book.links?["describedby"]?.href == "http://x/schema")
        let raw = try decode(WithRawMeta.self, text)
        #expect(raw.meta["revision"]?.int64Value == 7)
        #expect(raw.meta["tags"]?[0]?.stringValue == "a")
        #expect(raw.links["self"]?.stringValue == "http://x/books/1")
        let bare = try decode(WithMetaAndLinks.self, #"{"data":{"type":"books","id":"1"}}"#)
        #expect(bare.meta == nil)
        #expect(bare.links == nil)
    }

    /// An attribute named `meta` wins over the resource's `meta`.
    @Test func attributeNamedMetaWins() throws {
        struct Note: Decodable, JSONAPIResource {
            static let resourceType = "notes"
            var id: String
            var meta: String
        }
        let note = try decode(
            Note.self, #"{"data":{"type":"notes","id":"1","attributes":{"meta":"text"},"meta":{"x":1}}}"#)
        #expect(note.meta == "text")
    }

    /// A wrapper type that is not a resource reads the whole document (as Japx users write).
    @Test func wrapperTypesReadTheDocument() throws {
        struct Response<T: Decodable>: Decodable {
            var data: T
            var meta: [String: Int]?
        }
        let response = try decode(
            Response<[Book]>.self,
            #"{"data":[{"type":"books","id":"1","attributes":{"title":"A","pages":5}}],"meta":{"total":1}}"#)
        #expect(response.data.first?.pages == 5)
        #expect(response.meta == ["total": 1])
    }

    /// `included` is reachable from a document wrapper as a list of resources.
    @Test func includedFromWrapper() throws {
        struct Response: Decodable {
            var data: [SpecArticle]
            var included: [SpecComment]?
        }
        let text = #"""
            {"data":[],"included":[{"type":"comments","id":"1","attributes":{"body":"x"}}]}
            """#
        let response = try decode(Response.self, text)
        #expect(response.included?.first?.body == "x")
    }

    @Test func decodeFromDataAndDocument() throws {
        let text = #"{"data":{"type":"books","id":"b1","attributes":{"title":"Dune","pages":412}}}"#
        let decoder = JSONAPIDecoder()
        #expect(try decoder.decode(Book.self, from: Data(text.utf8)).title == "Dune")
        let document = try parse(text)
        #expect(try decoder.decode(Book.self, from: document).pages == 412)
        #expect(try document.decode(Book.self).id == "b1")
        #expect(try decoder.decode(Book.self, from: text).title == "Dune")
        #expect(try decoder.decode([Book].self, from: #"{"data":[]}"#).isEmpty)
    }

    /// A document parsed by the decoder keeps its settings, so the typed views decode as the
    /// decoder does; a call's own options still win.
    @Test func documentsParsedByADecoderKeepItsSettings() throws {
        let text = #"{"data":{"type":"books","id":"b1","attributes":{"book-title":"Dune","page_count":412}}}"#
        struct KebabBook: Decodable, JSONAPIResource {
            static let resourceType = "books"
            var id: String
            var bookTitle: String
        }
        let decoder = JSONAPIDecoder()
        decoder.keyDecodingStrategy = .convertFromKebabCase
        let document = try decoder.document(from: text)
        #expect(try document.primary(as: KebabBook.self).element(at: 0).bookTitle == "Dune")
        #expect(try document.resource(KebabBook.self, id: "b1")?.bookTitle == "Dune")
        #expect(try document.decode(KebabBook.self).bookTitle == "Dune")
        #expect(document.decodingOptions.parsing.kind == decoder.parsingOptions.kind)
        // Passed options replace the document's.
        #expect(throws: DecodingError.self) {
            try document.primary(as: KebabBook.self, options: DecodingOptions()).element(at: 0)
        }
        // A document parsed directly has the defaults.
        #expect(throws: DecodingError.self) { try parse(text).primary(as: KebabBook.self).element(at: 0) }
    }

    /// `decodeReporting` takes a `String` as `decode` does, and reports what bytes report.
    @Test func decodeReportingFromAStringReportsAsFromBytes() throws {
        struct Book: Decodable, Equatable, JSONAPIResource {
            static let resourceType = "books"
            var id: String
            var pages: Int?
        }
        let decoder = JSONAPIDecoder()
        decoder.tolerance = .lenient
        let text = #"""
            {"data": [{"type": "books", "id": "b1", "attributes": {"pages": "many"}},
                      {"type": "books", "id": "b2", "attributes": {"pages": 412}}]}
            """#
        let fromString = try decoder.decodeReporting([Book].self, from: text)
        let fromBytes = try decoder.decodeReporting([Book].self, from: Array(text.utf8))
        #expect(fromString.value == [Book(id: "b1", pages: nil), Book(id: "b2", pages: 412)])
        #expect(fromString.value == fromBytes.value)
        #expect(fromString.problems == fromBytes.problems)
        #expect(fromString.problems.map(\.pointer) == ["/data/0/attributes/pages"])
        #expect(fromString.problems.first?.line == 1)
        #expect(try decoder.decodeReporting(Book?.self, from: #"{"data": null}"#).value == nil)

        // Invalid text fails as invalid bytes do.
        let error = decodingError { try decoder.decodeReporting([Book].self, from: #"{"data": ["#) }
        guard case .dataCorrupted(let context)? = error else {
            Issue.record("expected dataCorrupted, got \(String(describing: error))")
            return
        }
        #expect(context.underlyingError is JSONAPIError)
    }

    @Test func invalidJSONIsADecodingError() throws {
        let error = decodingError { try decode(Book.self, #"{"data":"#) }
        guard case .dataCorrupted(let context)? = error else {
            Issue.record("expected dataCorrupted")
            return
        }
        #expect(context.underlyingError is JSONAPIError)
    }

    @Test func lenientParsingOption() throws {
        let text = #"{"data":{"type":"books","id":1,"attributes":{"title":"A","pages":1}}}"#
        #expect(throws: DecodingError.self) { try decode(Book.self, text) }
        let book = try decode(Book.self, text) { $0.parsingOptions = ParsingOptions(kind: .response, lenient: true) }
        #expect(book.id == "1")
    }
}
