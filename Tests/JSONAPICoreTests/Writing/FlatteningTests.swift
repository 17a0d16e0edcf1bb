import Foundation
import JSONAPI
import JSONAPIGenerator
import Testing

/// Resources and documents as plain nested JSON, related resources embedded to a depth.
@Suite("Flattening")
struct FlatteningTests {
    static let document = #"""
        {"data": [{"type": "articles", "id": "1", "attributes": {"title": "Hi", "tags": ["a"]},
                   "relationships": {"author": {"data": {"type": "people", "id": "9"}},
                                     "comments": {"data": [{"type": "comments", "id": "5"}, {"type": "comments", "id": "6"}]},
                                     "editor": {"data": null}, "site": {"links": {"related": "/site"}}}},
                  {"type": "articles", "id": "2", "relationships": {"author": {"data": {"type": "people", "id": "404"}}}}],
         "included": [{"type": "people", "id": "9", "attributes": {"name": "Dan"},
                       "relationships": {"articles": {"data": [{"type": "articles", "id": "1"}]}}},
                      {"type": "comments", "id": "5", "attributes": {"body": "First"},
                       "relationships": {"author": {"data": {"type": "people", "id": "9"}}}},
                      {"type": "comments", "id": "6", "attributes": {"body": "Second"}}]}
        """#

    static func flattened(_ resource: ResourceObject, depth: Int) -> String {
        String(decoding: resource.flattenedJSON(depth: depth), as: UTF8.self)
    }

    @Test("depth 0 gives identifiers, each level embeds related resources, cycles stop at the depth")
    func depths() throws {
        let document = try Document(parsing: Self.document)
        let article = document.primaryResources[0]
        #expect(
            Self.flattened(article, depth: 0)
                == #"{"type":"articles","id":"1","title":"Hi","tags":["a"],"author":{"type":"people","id":"9"},"comments":[{"type":"comments","id":"5"},{"type":"comments","id":"6"}],"editor":null}"#
        )
        #expect(
            Self.flattened(article, depth: 1)
                == #"{"type":"articles","id":"1","title":"Hi","tags":["a"],"author":{"type":"people","id":"9","name":"Dan","articles":[{"type":"articles","id":"1"}]},"comments":[{"type":"comments","id":"5","body":"First","author":{"type":"people","id":"9"}},{"type":"comments","id":"6","body":"Second"}],"editor":null}"#
        )
        // Two levels: the author's articles include this article again, whose own relationships
        // are identifiers at the bottom.
        let two = Self.flattened(article, depth: 2)
        #expect(
            two.contains(
                #""articles":[{"type":"articles","id":"1","title":"Hi","tags":["a"],"author":{"type":"people","id":"9"}"#
            ))
        #expect(Self.flattened(article, depth: -3) == Self.flattened(article, depth: 0))
        // A related resource the document does not hold stays an identifier at any depth.
        #expect(
            Self.flattened(document.primaryResources[1], depth: 5)
                == #"{"type":"articles","id":"2","author":{"type":"people","id":"404"}}"#)
        // Every output is valid JSON and the same under a deep depth (the graph is finite).
        for depth in 0...6 {
            let bytes = article.flattenedJSON(depth: depth, options: .pretty)
            #expect(throws: Never.self) { try JSONSerialization.jsonObject(with: Data(bytes)) }
        }
    }

    @Test("a document flattens its primary data and keeps its other top-level members")
    func documents() throws {
        let document = try Document(parsing: Self.document)
        let primary = String(decoding: document.flattenedPrimaryDataJSON(depth: 0), as: UTF8.self)
        #expect(primary.hasPrefix(#"[{"type":"articles","id":"1","title":"Hi""#))
        #expect(primary.hasSuffix(#"{"type":"articles","id":"2","author":{"type":"people","id":"404"}}]"#))
        let whole = String(decoding: document.flattenedJSON(depth: 0), as: UTF8.self)
        #expect(whole == #"{"data":"# + primary + "}")

        let one = try Document(parsing: #"{"data":{"type":"a","id":"1","lid":"l","attributes":{"x":{"y":[1]}}}}"#)
        #expect(
            String(decoding: one.flattenedJSON(), as: UTF8.self)
                == #"{"data":{"type":"a","id":"1","lid":"l","x":{"y":[1]}}}"#)

        // A page keeps its meta and links (and any other top-level member), in document order.
        let page = try Document(
            parsing: #"""
                {"meta":{"totalPages":13},"data":[{"type":"a","id":"1","relationships":{"b":{"data":{"type":"b","id":"2"}}}}],
                 "included":[{"type":"b","id":"2","attributes":{"n":1}}],
                 "links":{"next":"/a?page[number]=2"},"jsonapi":{"version":"1.1"}}
                """#)
        #expect(
            String(decoding: page.flattenedJSON(), as: UTF8.self)
                == #"{"meta":{"totalPages":13},"data":[{"type":"a","id":"1","b":{"type":"b","id":"2","n":1}}],"links":{"next":"/a?page[number]=2"},"jsonapi":{"version":"1.1"}}"#
        )

        let errors = try Document(parsing: #"{"errors":[{"status":"404"},{"title":"x"}]}"#)
        #expect(
            String(decoding: errors.flattenedJSON(), as: UTF8.self) == #"{"errors":[{"status":"404"},{"title":"x"}]}"#)

        let empty = try Document(parsing: #"{"data":null}"#)
        #expect(String(decoding: empty.flattenedJSON(), as: UTF8.self) == #"{"data":null}"#)
        let metaOnly = try Document(parsing: #"{"meta":{"a":1}}"#)
        #expect(String(decoding: metaOnly.flattenedJSON(), as: UTF8.self) == #"{"meta":{"a":1}}"#)
        #expect(String(decoding: metaOnly.flattenedPrimaryDataJSON(), as: UTF8.self) == "null")

        let linkage = try Document(
            parsing: #"{"data":[{"type":"tags","id":"2"}]}"#, options: ParsingOptions(kind: .relationshipUpdate))
        #expect(
            String(decoding: linkage.flattenedPrimaryDataJSON(), as: UTF8.self) == #"[{"type":"tags","id":"2"}]"#)
        let toOne = try Document(
            parsing: #"{"data":{"type":"tags","id":"2"}}"#, options: ParsingOptions(kind: .relationshipUpdate))
        #expect(String(decoding: toOne.flattenedPrimaryDataJSON(), as: UTF8.self) == #"{"type":"tags","id":"2"}"#)
    }

    @Test("a generated document flattens to valid JSON at every depth")
    func generated() throws {
        let bytes = CompoundDocumentGenerator(resources: 300, seed: 5).generate()
        let document = try Document(parsing: bytes)
        for depth in 0...3 {
            let flat = document.flattenedPrimaryDataJSON(depth: depth)
            let parsed = try #require(try JSONSerialization.jsonObject(with: Data(flat)) as? [[String: Any]])
            #expect(parsed.count == document.primaryResources.count)
            #expect(parsed.allSatisfy { $0["type"] as? String == "articles" })
        }
    }
}
