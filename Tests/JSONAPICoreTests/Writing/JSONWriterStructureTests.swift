import Foundation
import JSONAPI
import Testing

@testable import JSONAPITestSupport

@Suite("Encoding: JSONWriter structure, pretty printing, misuse")
struct EncodingWriterStructureTests {
    typealias Support = EncodingTestSupport

    @Test func documentationExampleWritesCompactText() throws {
        var writer = JSONWriter()
        writer.beginObject()
        writer.key("data")
        writer.beginObject()
        writer.key("type")
        writer.string("articles")
        writer.key("id")
        writer.string("1")
        writer.key("attributes")
        writer.beginObject()
        writer.key("title")
        writer.string("JSON:API paints my \"bikeshed\"!")
        writer.key("rating")
        try writer.number(4.5)
        writer.key("views")
        writer.number(1024)
        writer.key("tags")
        writer.beginArray()
        writer.endArray()
        writer.endObject()
        writer.endObject()
        writer.endObject()
        let json = try writer.finish()
        #expect(
            String(decoding: json, as: UTF8.self)
                == #"{"data":{"type":"articles","id":"1","attributes":{"title":"JSON:API paints my \"bikeshed\"!","#
                + #""rating":4.5,"views":1024,"tags":[]}}}"#)
        #expect(json == writer.bytes)
        #expect(writer.isComplete)
        #expect(writer.depth == 0)
        #expect(writer.misuse == nil)
    }

    @Test func scalarsAtTopLevel() throws {
        #expect(try Support.written { $0.null() } == "null")
        #expect(try Support.written { $0.bool(true) } == "true")
        #expect(try Support.written { $0.bool(false) } == "false")
        #expect(try Support.written { $0.string("") } == #""""#)
        #expect(try Support.written { $0.number(0) } == "0")
    }

    @Test func commasBetweenElementsAndMembers() throws {
        let text = try Support.written { w in
            w.beginArray()
            w.number(1)
            w.null()
            w.beginArray()
            w.endArray()
            w.beginObject()
            w.key("a")
            w.bool(false)
            w.key("b")
            w.beginObject()
            w.endObject()
            w.endObject()
            w.string("x")
            w.endArray()
        }
        #expect(text == #"[1,null,[],{"a":false,"b":{}},"x"]"#)
    }

    @Test func prettyPrintingExactText() throws {
        let text = try Support.written(JSONWritingOptions(prettyPrinted: true)) { w in
            w.beginObject()
            w.key("name")
            w.string("Ada")
            w.key("tags")
            w.beginArray()
            w.string("a")
            w.number(2)
            w.endArray()
            w.key("empty")
            w.beginObject()
            w.endObject()
            w.key("none")
            w.beginArray()
            w.endArray()
            w.key("nested")
            w.beginObject()
            w.key("ok")
            w.bool(true)
            w.endObject()
            w.endObject()
        }
        let expected = """
            {
              "name": "Ada",
              "tags": [
                "a",
                2
              ],
              "empty": {},
              "none": [],
              "nested": {
                "ok": true
              }
            }
            """
        #expect(text == expected)
    }

    @Test func prettyPrintingWithOtherIndents() throws {
        let four = try Support.written(JSONWritingOptions(prettyPrinted: true, indent: 4)) { w in
            w.beginArray()
            w.beginArray()
            w.null()
            w.endArray()
            w.endArray()
        }
        #expect(four == "[\n    [\n        null\n    ]\n]")
        let zero = try Support.written(JSONWritingOptions(prettyPrinted: true, indent: 0)) { w in
            w.beginObject()
            w.key("a")
            w.number(1)
            w.endObject()
        }
        #expect(zero == "{\n\"a\": 1\n}")
        let negative = try Support.written(JSONWritingOptions(prettyPrinted: true, indent: -3)) { w in
            w.beginArray()
            w.number(1)
            w.endArray()
        }
        #expect(negative == "[\n1\n]")
        #expect(try Support.written(JSONWritingOptions(prettyPrinted: true)) { $0.number(7) } == "7")
    }

    @Test func rawValueCompactIsVerbatim() throws {
        let raw = Array(#"{ "a" : [1, 2],"b":"x, y" }"#.utf8)
        let text = try Support.written { w in
            w.beginArray()
            raw.withUnsafeBytes { w.rawValue($0) }
            "true".utf8.withContiguousStorageIfAvailable { w.rawValue(UnsafeRawBufferPointer($0)) }
            w.endArray()
        }
        #expect(text == #"[{ "a" : [1, 2],"b":"x, y" },true]"#)
    }

    @Test func rawValuePrettyIsReindented() throws {
        let raw = Array(#"{ "a" : [1, -2.5e3, "q\"]{,:"],"b":{ },"c":[ ] ,"d":{"e":null}}"#.utf8)
        let text = try Support.written(JSONWritingOptions(prettyPrinted: true)) { w in
            w.beginObject()
            w.key("raw")
            raw.withUnsafeBytes { w.rawValue($0) }
            w.key("after")
            w.bool(true)
            w.endObject()
        }
        let expected = """
            {
              "raw": {
                "a": [
                  1,
                  -2.5e3,
                  "q\\"]{,:"
                ],
                "b": {},
                "c": [],
                "d": {
                  "e": null
                }
              },
              "after": true
            }
            """
        #expect(text == expected)
        // The same value written member by member pretty prints identically.
        let direct = try Support.written(JSONWritingOptions(prettyPrinted: true)) { w in
            w.beginObject()
            w.key("raw")
            w.beginObject()
            w.key("a")
            w.beginArray()
            w.number(1)
            try w.number(text: "-2.5e3")
            w.string("q\"]{,:")
            w.endArray()
            w.key("b")
            w.beginObject()
            w.endObject()
            w.key("c")
            w.beginArray()
            w.endArray()
            w.key("d")
            w.beginObject()
            w.key("e")
            w.null()
            w.endObject()
            w.endObject()
            w.key("after")
            w.bool(true)
            w.endObject()
        }
        #expect(direct == expected)
    }

    @Test func rawEscapedKeyAndString() throws {
        let text = try Support.written { w in
            w.beginObject()
            #"k\n"#.utf8.withContiguousStorageIfAvailable { w.key(rawEscaped: UnsafeRawBufferPointer($0)) }
            #"v\u0001\""#.utf8.withContiguousStorageIfAvailable { w.string(rawEscaped: UnsafeRawBufferPointer($0)) }
            w.endObject()
        }
        #expect(text == #"{"k\n":"v\u0001\""}"#)
    }

    @Test func sortedObjectDocumentationExample() throws {
        var writer = JSONWriter()
        try writer.object(sortedBy: [
            (key: "title", write: { w in w.string("Hello") }),
            (key: "id", write: { w in w.number(1) }),
        ])
        #expect(writer.bytes == Array(#"{"id":1,"title":"Hello"}"#.utf8))
    }

    @Test func sortedObjectOrdersByUTF8() throws {
        var writer = JSONWriter()
        try writer.object(sortedBy: [
            (key: "title", write: { w in w.string("Hello") }),
            (key: "id", write: { w in w.number(1) }),
            (key: "é", write: { w in w.null() }),
            (key: "Z", write: { w in w.bool(true) }),
            (key: "a", write: { w in try w.number(0.5) }),
            (key: "", write: { w in w.string("empty") }),
        ])
        #expect(
            String(decoding: try writer.finish(), as: UTF8.self)
                == #"{"":"empty","Z":true,"a":0.5,"id":1,"title":"Hello","é":null}"#)
    }

    @Test func sortedObjectNestsAndPropagatesErrors() throws {
        var writer = JSONWriter()
        writer.beginArray()
        try writer.object(sortedBy: [
            (
                key: "b",
                write: { w in
                    try w.object(sortedBy: [(key: "y", write: { $0.number(2) }), (key: "x", write: { $0.number(1) })])
                }
            ),
            (key: "a", write: { w in w.null() }),
        ])
        writer.endArray()
        #expect(String(decoding: try writer.finish(), as: UTF8.self) == #"[{"a":null,"b":{"x":1,"y":2}}]"#)

        var failing = JSONWriter()
        #expect {
            try failing.object(sortedBy: [
                (key: "a", write: { w in w.null() }),
                (key: "n", write: { w in try w.number(Double.nan) }),
            ])
        } throws: { error in
            (error as? JSONAPIError)?.code == .encodingFailed
        }
        #expect(failing.depth == 1)
        #expect(String(decoding: failing.bytes, as: UTF8.self) == #"{"a":null,"n":"#)
    }

    @Test func determinism() throws {
        var generator = Support.SeededGenerator(seed: 42)
        for _ in 0..<50 {
            let value = Support.Value.random(depth: 4, using: &generator)
            for options in [JSONWritingOptions(), JSONWritingOptions(prettyPrinted: true, escapesSlashes: true)] {
                var first = JSONWriter(options: options)
                try value.write(to: &first)
                var second = JSONWriter(options: options, reservingCapacity: 1 << 16)
                try value.write(to: &second)
                #expect(try first.finish() == second.finish())
            }
        }
    }

    @Test func resetReusesTheWriter() throws {
        var writer = JSONWriter()
        writer.beginArray()
        writer.beginObject()
        writer.number(1)  // misuse
        writer.reset()
        #expect(writer.bytes.isEmpty)
        #expect(writer.misuse == nil)
        #expect(writer.depth == 0)
        writer.string("again")
        #expect(String(decoding: try writer.finish(), as: UTF8.self) == #""again""#)
    }

    // MARK: Misuse

    /// Expects `finish()` to throw `.encodingFailed` and the bytes to be `expectedBytes`.
    private func expectMisuse(
        _ expectedBytes: String, sourceLocation: SourceLocation = #_sourceLocation, _ body: (inout JSONWriter) -> Void
    ) {
        var writer = JSONWriter()
        body(&writer)
        #expect(String(decoding: writer.bytes, as: UTF8.self) == expectedBytes, sourceLocation: sourceLocation)
        do {
            _ = try writer.finish()
            Issue.record("finish() did not throw", sourceLocation: sourceLocation)
        } catch {
            #expect(error.code == .encodingFailed, sourceLocation: sourceLocation)
        }
    }

    @Test func valueWhereKeyExpectedIsDroppedAndReported() {
        expectMisuse(#"{"a":1}"#) { w in
            w.beginObject()
            w.string("no key")
            w.key("a")
            w.number(1)
            w.endObject()
        }
        var writer = JSONWriter()
        writer.beginObject()
        writer.number(5)
        #expect(writer.misuse?.code == .encodingFailed)
        #expect(writer.misuse?.message.contains("member name") == true)
        #expect(writer.misuse?.offset == 1)
    }

    @Test func keyOutsideObjectOrTwiceIsReported() {
        expectMisuse("[]") { w in
            w.beginArray()
            w.key("a")
            w.endArray()
        }
        expectMisuse(#"{"a":1}"#) { w in
            w.beginObject()
            w.key("a")
            w.key("b")
            w.number(1)
            w.endObject()
        }
        expectMisuse("") { w in w.key("top") }
    }

    @Test func unbalancedEndsAreReported() {
        expectMisuse("[]") { w in
            w.beginArray()
            w.endArray()
            w.endArray()
        }
        expectMisuse("[]") { w in
            w.beginArray()
            w.endObject()
            w.endArray()
        }
        expectMisuse("{}") { w in
            w.beginObject()
            w.endArray()
            w.endObject()
        }
        expectMisuse("") { w in w.endObject() }
        expectMisuse(#"{"k":null}"#) { w in
            w.beginObject()
            w.key("k")
            w.endObject()  // the key has no value: not closed
            w.null()
            w.endObject()
        }
    }

    @Test func secondTopLevelValueIsReported() {
        expectMisuse("1") { w in
            w.number(1)
            w.number(2)
        }
    }

    @Test func incompleteDocumentsThrowOnFinish() {
        expectMisuse("") { _ in }
        expectMisuse("[{") { w in
            w.beginArray()
            w.beginObject()
        }
        var writer = JSONWriter()
        writer.beginArray()
        #expect(!writer.isComplete)
        #expect(writer.misuse == nil)
        #expect(writer.depth == 1)
    }

    @Test func deepNestingDoesNotCrash() throws {
        var writer = JSONWriter()
        for _ in 0..<10_000 { writer.beginArray() }
        for _ in 0..<10_000 { writer.endArray() }
        let bytes = try writer.finish()
        #expect(bytes.count == 20_000)
        #expect(bytes.first == UInt8(ascii: "["))
        #expect(bytes.last == UInt8(ascii: "]"))
    }
}
