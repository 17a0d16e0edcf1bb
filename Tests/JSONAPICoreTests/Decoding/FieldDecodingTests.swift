import Foundation
import JSONAPI
import Testing

@testable import JSONAPITestSupport

@Suite("Decoding absent versus null")
struct FieldDecodingTests {
    struct Person: Decodable, JSONAPIResource {
        static let resourceType = "people"
        var id: String
        var name: String
    }

    struct ArticlePatch: Decodable, JSONAPIResource {
        static let resourceType = "articles"
        var id: String
        var title: Field<String>
        var subtitle: Field<String>
        var wordCount: Field<Int>
        var author: Field<Identifier<Person>>
        var editor: Field<Identifier<Person>>
        var reviewer: Field<Person>
    }

    @Test func threeStates() throws {
        let text = #"""
            {"data":{"type":"articles","id":"1","attributes":{"title":"New","subtitle":null},
              "relationships":{"author":{"data":{"type":"people","id":"9"}},"editor":{"data":null},
                               "reviewer":{"data":{"type":"people","id":"9"}}}},
             "included":[{"type":"people","id":"9","attributes":{"name":"Dan"}}]}
            """#
        let patch = try decode(ArticlePatch.self, text, { _ in })
        #expect(patch.title == .value("New"))
        #expect(patch.subtitle == .null)
        #expect(patch.wordCount == .absent)
        #expect(patch.author == .value("9"))
        #expect(patch.editor == .null)
        #expect(patch.reviewer.wrapped?.name == "Dan")
        #expect(patch.wordCount.isAbsent && patch.subtitle.isNull && patch.title.wrapped == "New")
        #expect(patch.title.map { $0.count } == .value(3))
    }

    @Test func sparseFieldsets() throws {
        struct Sparse: Decodable, JSONAPIResource {
            static let resourceType = "articles"
            var id: String
            var title: Field<String>
            var body: Field<String>
        }
        let sparse = try decode(
            Sparse.self, #"{"data":{"type":"articles","id":"1","attributes":{"title":"Only this"}}}"#)
        #expect(sparse.title == .value("Only this"))
        #expect(sparse.body == .absent)
    }

    @Test func typeErrorsStillFail() throws {
        let error = decodingError {
            try decode(ArticlePatch.self, #"{"data":{"type":"articles","id":"1","attributes":{"wordCount":"many"}}}"#)
        }
        #expect(error?.jsonapiError?.pointer == "/data/attributes/wordCount")
    }

    /// The same model decodes with Foundation's `JSONDecoder` from plain JSON.
    @Test func worksWithJSONDecoder() throws {
        struct Plain: Decodable {
            var a: Field<Int>
            var b: Field<Int>
            var c: Field<Int>
            var d: Field<Int>?
        }
        let plain = try JSONDecoder().decode(Plain.self, from: Data(#"{"a":1,"b":null}"#.utf8))
        #expect(plain.a == .value(1))
        #expect(plain.b == .null)
        #expect(plain.c == .absent)
        #expect(plain.d == nil)
    }

    @Test func fieldsInArraysAndNestedObjects() throws {
        struct Settings: Decodable, Equatable {
            var theme: Field<String>
            var size: Field<Int>
        }
        struct Account: Decodable, JSONAPIResource {
            static let resourceType = "accounts"
            var id: String
            var settings: Settings
            var history: [Field<Int>]
        }
        let account = try decode(
            Account.self,
            #"{"data":{"type":"accounts","id":"1","attributes":{"settings":{"theme":null},"history":[1,null]}}}"#)
        #expect(account.settings == Settings(theme: .null, size: .absent))
        #expect(account.history == [.value(1), .null])
    }
}
