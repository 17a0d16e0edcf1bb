import JSONAPI
import Testing

@testable import JSONAPITestSupport

/// The index keeps a short key (a type, an id's length and up to six id bytes) in one word, so
/// 6-byte ids such as `000000` and `000002` fill every field of it. Every way of parsing must
/// keep such ids apart: two resources, not a duplicate, and a lookup of one never finds the other.
@Suite("Differential: six-digit ids of one type")
struct SixDigitIDTests {
    /// Every way the library parses: strict and lenient, whole, 1-byte chunks and chunks of 5
    /// bytes.
    static func everyParse(
        _ text: String, lenient: Bool? = nil, _ body: (Document, String) throws -> Void,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let bytes = Array(text.utf8)
        for isLenient in lenient.map({ [$0] }) ?? [false, true] {
            let options = ParsingOptions(kind: .response, lenient: isLenient)
            for chunk in [nil, 1, 5] as [Int?] {
                let name = "\(isLenient ? "lenient" : "strict"), chunk \(chunk.map(String.init) ?? "whole")"
                let document = try parseDocument(bytes, options: options, chunkSize: chunk)
                try body(document, name)
            }
        }
    }

    @Test("`000000` and `000002` are two resources, in strict and lenient mode")
    func sixDigitZeroIDs() throws {
        try Self.everyParse(#"{"data":[{"type":"things","id":"000000"},{"type":"things","id":"000002"}]}"#) {
            document, name in
            #expect(document.diagnostics.isEmpty, "\(name)")
            #expect(document.resource(type: "things", id: "000000")?.recordIndex == 0, "\(name)")
            #expect(document.resource(type: "things", id: "000002")?.recordIndex == 1, "\(name)")
            #expect(document.resource(type: "things", id: "000002")?.id == "000002", "\(name)")
            #expect(document.resource(type: "things", id: "000001") == nil, "\(name)")
            #expect(document.resource(type: "things", id: "00000") == nil, "\(name)")
            #expect(document.resource(type: "things", id: "0000000") == nil, "\(name)")
        }
    }

    @Test("linkage between `000000` and `000002` resolves to the right records")
    func sixDigitZeroLinkage() throws {
        let text = #"""
            {"data":[{"type":"things","id":"000000","relationships":{"next":{"data":{"type":"things","id":"000002"}}}},
            {"type":"things","id":"000002","relationships":{"previous":{"data":{"type":"things","id":"000000"}},
            "all":{"data":[{"type":"things","id":"000002"},{"type":"things","id":"000001"},{"type":"things","id":"000000"}]}}}],
            "included":[{"type":"things","id":"000001"}]}
            """#
        try Self.everyParse(text) { document, name in
            let first = try #require(document.resource(type: "things", id: "000000"), "\(name)")
            let second = try #require(document.resource(type: "things", id: "000002"), "\(name)")
            #expect(first.recordIndex == 0 && second.recordIndex == 1, "\(name)")
            #expect(first.relationship("next")?.resolvedResource?.id == "000002", "\(name)")
            #expect(second.relationship("previous")?.resolvedResource?.id == "000000", "\(name)")
            #expect(second.relationship("all")?.resolvedResources.map(\.recordIndex) == [1, 2, 0], "\(name)")
            #expect(document.diagnostics.isEmpty, "\(name)")
        }
    }

    @Test("a real duplicate among 6-digit ids is still one: the first occurrence wins")
    func sixDigitDuplicate() throws {
        let text =
            #"{"data":[{"type":"things","id":"000000"},{"type":"things","id":"000002"},{"type":"things","id":"000000"}]}"#
        let error = #expect(throws: JSONAPIError.self) { try Document(parsing: text) }
        #expect(error?.code == .duplicateResource)
        #expect(error?.diagnostics.count == 1)
        #expect(error?.offset == text.utf8.count - 2 - 31)  // the third object
        try Self.everyParse(text, lenient: true) { document, name in
            #expect(document.diagnostics.map(\.code) == [.duplicateResource], "\(name)")
            #expect(document.resource(type: "things", id: "000000")?.recordIndex == 0, "\(name)")
            #expect(document.resource(type: "things", id: "000002")?.recordIndex == 1, "\(name)")
        }
    }

    @Test("20 sequential 6-digit ids", arguments: [0, 100_000, 999_990])
    func sequentialIDs(start: Int) throws {
        let ids = (start..<start + 20).map { n in
            let digits = String(n)
            return String(repeating: "0", count: max(0, 6 - digits.count)) + digits
        }
        let linkage = ids.map { #"{"type":"things","id":"\#($0)"}"# }.joined(separator: ",")
        let resources = ids.map { #"{"type":"things","id":"\#($0)"}"# }.joined(separator: ",")
        let text = #"""
            {"data":[{"type":"lists","id":"1","relationships":{"items":{"data":[\#(linkage)]}}}],"included":[\#(resources)]}
            """#
        try Self.everyParse(text) { document, name in
            #expect(document.diagnostics.isEmpty, "\(name): \(document.diagnostics)")
            for (offset, id) in ids.enumerated() {
                let found = document.resource(type: "things", id: id)
                #expect(found?.recordIndex == offset + 1 && found?.id == id, "\(name): \(id)")
            }
            let items = document.primaryResources.first?.relationship("items")?.resolvedResources
            #expect(items?.map(\.id) == ids, "\(name)")
            #expect(items?.map(\.recordIndex) == Array(1...20), "\(name)")
        }
    }
}
