import Testing

@testable @_spi(Backend) import JSONAPI

@Suite("DocumentParser")
struct DocumentParserTests {
    @Test("a copied parser is independent of the original (copy on write)")
    func copiedParser() throws {
        var first = DocumentParser()
        try first.feed(Array(#"{"data":{"type":"a","id":""#.utf8))
        var second = first
        try first.feed(Array(#"1"}}"#.utf8))
        try second.feed(Array(#"2"}}"#.utf8))
        #expect(try first.finish().primaryResources.first?.id == "1")
        #expect(try second.finish().primaryResources.first?.id == "2")
    }

    @Test("feeding after an error, or after finish, throws instead of continuing")
    func misuse() throws {
        var parser = DocumentParser()
        #expect(throws: JSONAPIError.self) { try parser.feed(Array("{]".utf8)) }
        #expect(throws: JSONAPIError.self) { try parser.feed(Array("}".utf8)) }
        var done = DocumentParser()
        try done.feed(Array(#"{"meta":{}}"#.utf8))
        _ = try done.finish()
        #expect(throws: JSONAPIError.self) { try done.feed(Array(" ".utf8)) }
    }

    @Test("the document limit stops a growing stream at the chunk that crosses it")
    func limit() throws {
        var options = ParsingOptions()
        options.maximumDocumentBytes = 100
        var parser = DocumentParser(options: options)
        try parser.feed(Array(#"{"meta":{"a":""#.utf8))
        let error = #expect(throws: JSONAPIError.self) {
            try parser.feed([UInt8](repeating: UInt8(ascii: "x"), count: 200))
        }
        #expect(error?.code == .documentTooLarge)
    }
}
