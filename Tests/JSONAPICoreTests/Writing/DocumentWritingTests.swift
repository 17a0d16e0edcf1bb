import Foundation
import JSONAPI
import JSONAPIGenerator
import Testing

@testable import JSONAPITestSupport

/// Parsed documents (and their views) written back out: parse -> write -> parse gives the same
/// document in every format, and the output is JSON that Python accepts.
@Suite("Document writing")
struct DocumentWritingTests {
    /// Every valid document of the corpus, with the kind to parse it as.
    static let validCorpus: [CorpusTests.IndexRow] =
        CorpusTests.jsonapiTests.filter(\.valid) + CorpusTests.specDocuments

    static let formats: [(name: String, options: JSONWritingOptions)] = [
        ("compact", .compact), ("pretty", .pretty), ("sorted", JSONWritingOptions(sortsKeys: true)),
        ("pretty sorted", JSONWritingOptions(prettyPrinted: true, indent: 4, sortsKeys: true)),
    ]

    @Test("the corpus is found", .enabled(if: corpusURL != nil))
    func corpusIsThere() {
        #expect(Self.validCorpus.count > 90)
    }

    @Test("parse -> write -> parse gives the same document", arguments: validCorpus)
    func roundTrip(_ row: CorpusTests.IndexRow) throws {
        let options = ParsingOptions(kind: row.kind)
        let document = try Document(parsing: try corpusBytes(row.file), options: options)
        for format in Self.formats {
            let bytes = document.jsonBytes(options: format.options)
            let reparsed: Document
            do {
                reparsed = try Document(parsing: bytes, options: options)
            } catch {
                Issue.record("\(format.name): the output does not parse: \(error)")
                continue
            }
            let differences = DocumentEquivalence.differences(
                document, reparsed, ordered: !format.options.sortsKeys)
            #expect(differences.isEmpty, "\(format.name): \(differences)")
            // Writing is idempotent: the output written again is byte for byte the same.
            #expect(reparsed.jsonBytes(options: format.options) == bytes, "\(format.name) is not a fixed point")
        }
        let compact = document.jsonBytes()
        #expect(!compact.contains(UInt8(ascii: "\n")), "compact output has a line feed")
    }

    @Test("python3 -m json.tool accepts every output", .enabled(if: corpusURL != nil))
    func pythonAcceptsOutput() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "jsonapi-writer-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        var files: [URL] = []
        for (index, row) in Self.validCorpus.enumerated() {
            let document = try Document(parsing: try corpusBytes(row.file), options: ParsingOptions(kind: row.kind))
            for (formatIndex, format) in Self.formats.enumerated() {
                let file = directory.appendingPathComponent("\(index)-\(formatIndex).json")
                try Data(document.jsonBytes(options: format.options)).write(to: file)
                files.append(file)
            }
        }
        guard let rejected = DocumentEquivalence.rejectedByPythonJSONTool(files) else {
            withKnownIssue("python3 is not available") { throw CocoaError(.fileNoSuchFile) }
            return
        }
        #expect(rejected.isEmpty, "json.tool rejected: \(rejected)")
    }

    @Test("a generated compound document round-trips in every format")
    func generatedDocument() throws {
        let bytes = CompoundDocumentGenerator(resources: 600, seed: 11).generate()
        let options = ParsingOptions()
        let document = try Document(parsing: bytes, options: options)
        // The generator writes compact JSON, so compact output is the input itself.
        #expect(document.jsonBytes() == bytes)
        for format in Self.formats {
            let reparsed = try Document(parsing: document.jsonBytes(options: format.options), options: options)
            let differences = DocumentEquivalence.differences(document, reparsed, ordered: !format.options.sortsKeys)
            #expect(differences.isEmpty, "\(format.name): \(differences.prefix(5))")
        }
    }

    // MARK: Formats

    static let sample = #"""
        { "data" : { "type" : "articles", "id" : "1",
            "attributes" : { "title" : "Say \"hi\"\t{ [ , : ] }", "zeta" : [ 1 , 2.50 , -3e2 ] ,
                             "\u0061lpha" : { "b" : true , "a" : null } , "empty" : { }, "none": [ ] },
            "relationships" : { "author" : { "data" : { "type" : "people" , "id" : "9" } } } } ,
          "meta" : { "z" : 1 , "a" : "x" } }
        """#

    @Test("compact output drops the whitespace between tokens and keeps strings byte for byte")
    func compactOutput() throws {
        let document = try Document(parsing: Self.sample)
        let expected = #"""
            {"data":{"type":"articles","id":"1","attributes":{"title":"Say \"hi\"\t{ [ , : ] }","zeta":[1,2.50,-3e2],"\u0061lpha":{"b":true,"a":null},"empty":{},"none":[]},"relationships":{"author":{"data":{"type":"people","id":"9"}}}},"meta":{"z":1,"a":"x"}}
            """#
        #expect(document.jsonString() == expected)
    }

    @Test("sorted keys order every object by unescaped name, at every depth")
    func sortedOutput() throws {
        let document = try Document(parsing: Self.sample)
        let expected = #"""
            {"data":{"attributes":{"\u0061lpha":{"a":null,"b":true},"empty":{},"none":[],"title":"Say \"hi\"\t{ [ , : ] }","zeta":[1,2.50,-3e2]},"id":"1","relationships":{"author":{"data":{"id":"9","type":"people"}}},"type":"articles"},"meta":{"a":"x","z":1}}
            """#
        #expect(document.jsonString(options: JSONWritingOptions(sortsKeys: true)) == expected)
    }

    @Test("pretty output is indented like JSONWriter's own")
    func prettyOutput() throws {
        let document = try Document(parsing: #"{"meta":{"b":[1,{"c":[]}],"a":{}}}"#)
        let expected = """
            {
              "meta": {
                "b": [
                  1,
                  {
                    "c": []
                  }
                ],
                "a": {}
              }
            }
            """
        #expect(document.jsonString(options: .pretty) == expected)
        let sorted = document.jsonString(options: JSONWritingOptions(prettyPrinted: true, sortsKeys: true))
        #expect(
            sorted
                == expected.replacingOccurrences(
                    of: "\"b\": [\n      1,\n      {\n        \"c\": []\n      }\n    ],\n    \"a\": {}",
                    with: "\"a\": {},\n    \"b\": [\n      1,\n      {\n        \"c\": []\n      }\n    ]"))
    }

    @Test("equal keys keep their order when sorted")
    func sortedDuplicateKeys() throws {
        let document = try Document(
            parsing: #"{"meta":{"b":2,"a":1,"b":3,"a":0}}"#, options: ParsingOptions(kind: .response, lenient: true))
        #expect(
            document.meta?.jsonString(options: JSONWritingOptions(sortsKeys: true)) == #"{"a":1,"a":0,"b":2,"b":3}"#)
    }

    // MARK: Views

    @Test("each view writes its own part of the document")
    func viewsWriteThemselves() throws {
        let document = try Document(
            parsing: #"""
                {"data": [{"type": "articles", "id": "1", "attributes": {"title": "A"},
                           "relationships": {"author": {"data": {"type": "people", "id": "9", "meta": {"m": 1}},
                                                         "links": {"related": "/articles/1/author"}}},
                           "links": {"self": "/articles/1"}, "meta": {"rank": 1}, "@ext": {"kept": true}}],
                 "included": [{"type": "people", "id": "9", "attributes": {"name": "Dan"}}],
                 "links": {"next": {"href": "/articles?page=2", "meta": {"page": 2}}},
                 "jsonapi": {"version": "1.1"}}
                """#)
        let article = document.primaryResources[0]
        #expect(
            article.jsonString()
                == #"{"type":"articles","id":"1","attributes":{"title":"A"},"relationships":{"author":{"data":{"type":"people","id":"9","meta":{"m":1}},"links":{"related":"/articles/1/author"}}},"links":{"self":"/articles/1"},"meta":{"rank":1},"@ext":{"kept":true}}"#
        )
        #expect(article.attributes.jsonString() == #"{"title":"A"}"#)
        #expect(article.meta?.jsonString() == #"{"rank":1}"#)
        #expect(article.links?.jsonString() == #"{"self":"/articles/1"}"#)
        let author = try #require(article.relationship("author"))
        #expect(
            author.jsonString()
                == #"{"data":{"type":"people","id":"9","meta":{"m":1}},"links":{"related":"/articles/1/author"}}"#)
        #expect(author.identifiers[0].jsonString() == #"{"type":"people","id":"9","meta":{"m":1}}"#)
        #expect(document.included.jsonString() == #"[{"type":"people","id":"9","attributes":{"name":"Dan"}}]"#)
        #expect(
            document.primaryResources.jsonString(options: JSONWritingOptions(sortsKeys: true)).hasPrefix(#"[{"@ext""#))
        #expect(document.links?.jsonString() == #"{"next":{"href":"/articles?page=2","meta":{"page":2}}}"#)
        #expect(document.jsonapi?.jsonString() == #"{"version":"1.1"}"#)
        #expect(document.resource(type: "people", id: "9")?.attributes["name"]?.jsonString() == #""Dan""#)
        // An absent object writes as {}.
        #expect(document.included[0].meta == nil)
        #expect(document.resource(type: "people", id: "9")?.attributes.jsonString() == #"{"name":"Dan"}"#)
        let bare = try Document(parsing: #"{"data":{"type":"a","id":"1"}}"#)
        #expect(bare.primaryResources[0].attributes.jsonString() == "{}")
    }

    @Test("views compose into a bigger document through one writer")
    func composeViews() throws {
        let document = try Document(parsing: #"{"data":{"type":"a","id":"1","attributes":{"x":[1, 2]}}}"#)
        var writer = JSONWriter(options: .init(prettyPrinted: true))
        writer.beginObject()
        writer.key("copy")
        document.primaryResources[0].attributes["x"]?.write(to: &writer)
        writer.key("owned")
        JSON(["y": 2]).write(to: &writer)
        writer.endObject()
        #expect(
            String(decoding: try writer.finish(), as: UTF8.self)
                == "{\n  \"copy\": [\n    1,\n    2\n  ],\n  \"owned\": {\n    \"y\": 2\n  }\n}")
    }

    @Test("documents parsed in place write the same bytes")
    func borrowedDocument() throws {
        let bytes = Array(Self.sample.utf8)
        let expected = try Document(parsing: bytes).jsonBytes()
        let written = try bytes.withUnsafeBytes { buffer in
            try Document.withParsing(buffer) { $0.jsonBytes() }
        }
        #expect(written == expected)
    }

    // MARK: Equivalence

    @Test("equivalence ignores whitespace, decodes strings and compares numbers by text")
    func equivalence() throws {
        func value(_ json: String) throws -> JSONValue {
            try #require(try Document(parsing: #"{"meta":{"v":\#(json)}}"#).meta?["v"])
        }
        #expect(try value(#"{"a": [1, "\u00e9\/"], "b": null}"#).isEquivalent(to: value(#"{"b":null,"a":[1,"é/"]}"#)))
        #expect(try !value(#"{"a":1,"b":2}"#).isEquivalent(to: value(#"{"b":2,"a":1}"#), ignoringMemberOrder: false))
        #expect(try !value("1.0").isEquivalent(to: value("1")))
        #expect(try !value("[1,2]").isEquivalent(to: value("[2,1]")))
        #expect(try !value(#"{"a":1}"#).isEquivalent(to: value(#"{"a":1,"b":1}"#)))
        #expect(try !value("true").isEquivalent(to: value("false")))
        #expect(try !value(#""x""#).isEquivalent(to: value(#"["x"]"#)))
        #expect(try value(#""\ud83d\ude00""#).isEquivalent(to: value(#""😀""#)))
    }

    @Test("deep nesting is written and compared without recursion")
    func deepNesting() throws {
        let depth = 1_000  // 2,000 levels: pretty output grows with the square of the depth
        let text =
            #"{"meta":{"v":"# + String(repeating: #"[{"a":"#, count: depth) + "1"
            + String(repeating: "}]", count: depth) + "}}"
        var options = ParsingOptions()
        options.maximumDepth = depth * 2 + 10
        let document = try Document(parsing: text, options: options)
        for format in Self.formats {
            let reparsed = try Document(parsing: document.jsonBytes(options: format.options), options: options)
            #expect(document.jsonValue.isEquivalent(to: reparsed.jsonValue))
        }
    }
}
