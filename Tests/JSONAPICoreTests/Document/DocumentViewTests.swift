import Testing

@testable @_spi(Backend) import JSONAPI
@testable import JSONAPITestSupport

@Suite("Document views")
struct DocumentViewTests {
    static let compound = #"""
        {
          "jsonapi": {"version": "1.1", "ext": ["https://jsonapi.org/ext/atomic"], "meta": {"x": 1}},
          "links": {"self": "http://example.com/articles", "next": {"href": "http://example.com/articles?page[offset]=2", "title": "Next", "hreflang": ["en", "de"], "meta": {"n": 2}}, "prev": null},
          "meta": {"total": 2, "big": 123456789012345678901234567890, "neg": -9223372036854775808, "u": 18446744073709551615},
          "data": [
            {"type": "articles", "id": "1",
             "attributes": {"title": "JSON:API paints my bikeshed!", "escaped": "caf\u00e9 \ud83d\ude00 \"q\"", "raw": "漢字 é",
                            "rating": 4.5, "exp": 1.5e3, "count": 42, "ok": true, "none": null,
                            "tags": ["a", "b"], "nested": {"deep": {"deeper": [1, {"x": "y"}]}}},
             "relationships": {
               "author": {"links": {"self": "http://example.com/articles/1/relationships/author", "related": "http://example.com/articles/1/author"},
                          "data": {"type": "people", "id": "9", "meta": {"role": "lead"}}},
               "comments": {"data": [{"type": "comments", "id": "5"}, {"type": "comments", "id": "12"}, {"type": "comments", "id": "404"}], "meta": {"count": 3}},
               "editor": {"data": null},
               "related": {"links": {"related": "/articles/1/related"}}
             },
             "links": {"self": "http://example.com/articles/1"},
             "meta": {"views": 10}},
            {"type": "articles", "id": "2", "attributes": {"title": "Second"},
             "relationships": {"author": {"data": {"type": "people", "id": "9"}}}}
          ],
          "included": [
            {"type": "people", "id": "9", "attributes": {"firstName": "Dan"},
             "relationships": {"articles": {"data": [{"type": "articles", "id": "1"}, {"type": "articles", "id": "2"}]}}},
            {"type": "comments", "id": "5", "attributes": {"body": "First!"}, "relationships": {"author": {"data": {"type": "people", "id": "2"}}}},
            {"type": "comments", "id": "12", "attributes": {"body": "I like XML better"}, "relationships": {"author": {"data": {"type": "people", "id": "9"}}}}
          ]
        }
        """#

    @Test("compound document: sections, lookup, attributes, relationships, links, meta, jsonapi")
    func compound() throws {
        let document = try parseEverywhere(Self.compound).get()
        #expect(document.diagnostics.isEmpty)
        #expect(document.primaryResources.count == 2)
        #expect(document.included.count == 3)
        #expect(document.allResources.count == 5)
        guard case .many(let primary) = document.primary else {
            Issue.record("expected many")
            return
        }
        let article = primary[0]
        #expect(article.type == "articles" && article.id == "1" && article.lid == nil && !article.isIncluded)
        let attributes = article.attributes
        #expect(attributes["title"]?.stringValue == "JSON:API paints my bikeshed!")
        #expect(attributes["escaped"]?.stringValue == "café 😀 \"q\"")
        #expect(attributes["raw"]?.stringValue == "漢字 é")
        #expect(attributes["rating"]?.doubleValue == 4.5)
        #expect(attributes["rating"]?.number == .double(4.5))
        #expect(attributes["exp"]?.doubleValue == 1500)
        #expect(attributes["count"]?.int64Value == 42)
        #expect(attributes["count"]?.number == .int(42))
        #expect(attributes["ok"]?.boolValue == true)
        #expect(attributes["none"]?.isNull == true)
        #expect(attributes.contains("none") && !attributes.contains("missing"))
        #expect(attributes["tags"]?.elements.compactMap(\.stringValue) == ["a", "b"])
        #expect(attributes["nested"]?["deep"]?["deeper"]?[1]?["x"]?.stringValue == "y")
        #expect(attributes["nested"]?["deep"]?["deeper"]?[5] == nil)
        #expect(attributes.keys.count == 10)
        #expect(attributes["tags"]?.rawJSON == #"["a", "b"]"#)

        let meta = try #require(document.meta)
        #expect(meta["big"]?.number == .decimal("123456789012345678901234567890"))
        #expect(meta["neg"]?.number == .int(Int64.min))
        #expect(meta["u"]?.number == .uint(UInt64.max))

        let author = try #require(article.relationship("author"))
        #expect(author.name == "author" && !author.isToMany)
        #expect(author.links?["related"]?.href == "http://example.com/articles/1/author")
        #expect(author.identifiers.first?.meta?["role"]?.stringValue == "lead")
        let dan = try #require(author.resolvedResource)
        #expect(dan.isIncluded && dan.attributes["firstName"]?.stringValue == "Dan")
        #expect(dan.relationship("articles")?.resolvedResources.map(\.id) == ["1", "2"])

        let comments = try #require(article.relationship("comments"))
        #expect(comments.isToMany)
        #expect(comments.identifiers.map(\.id) == ["5", "12", "404"])
        #expect(comments.resolvedResources.map(\.id) == ["5", "12"])  // 404 is not in the document
        #expect(comments.meta?["count"]?.int64Value == 3)
        guard case .null = try #require(article.relationship("editor")).linkage else {
            Issue.record("editor should be null")
            return
        }
        guard case .absent = try #require(article.relationship("related")).linkage else {
            Issue.record("related has no data")
            return
        }
        #expect(article.relationships.map(\.name) == ["author", "comments", "editor", "related"])
        #expect(article.links?["self"]?.href == "http://example.com/articles/1")
        #expect(article.meta?["views"]?.int64Value == 10)

        #expect(document.resource(type: "comments", id: "12")?.attributes["body"]?.stringValue == "I like XML better")
        #expect(document.resource(type: "comments", id: "13") == nil)
        #expect(document.resource(type: "nope", id: "1") == nil)
        #expect(document.resource(ResourceIdentifier(type: "people", id: "9"))?.id == "9")
        #expect(document.resources(ofType: "comments").map(\.id) == ["5", "12"])

        let next = try #require(document.links?["next"])
        #expect(next.href == "http://example.com/articles?page[offset]=2")
        #expect(next.title == "Next" && next.hreflang == ["en", "de"] && next.meta?["n"]?.int64Value == 2)
        #expect(document.links?["prev"] == nil && document.links?.contains("prev") == true)
        #expect(document.jsonapi?.version == "1.1")
        #expect(document.jsonapi?.extensions == ["https://jsonapi.org/ext/atomic"])
        #expect(document.statistics.linkageCount == 9)
        #expect(document.statistics.resolvedLinkageCount == 7)
    }

    @Test("error documents")
    func errors() throws {
        let document = try parseEverywhere(
            #"""
            {"errors": [{"id": "e1", "status": "422", "code": "too-short", "title": "Invalid Attribute",
                         "detail": "First name must contain at least two characters.",
                         "source": {"pointer": "/data/attributes/firstName"}, "links": {"about": "http://x/e"},
                         "meta": {"hint": "longer"}},
                        {"status": "400", "source": {"parameter": "include", "header": "Accept"}}]}
            """#
        ).get()
        #expect(document.hasErrors)
        let errors = document.errors
        #expect(errors.count == 2)
        #expect(errors[0].status == "422" && errors[0].code == "too-short" && errors[0].id == "e1")
        #expect(errors[0].source?.pointer == "/data/attributes/firstName")
        #expect(errors[0].links?["about"]?.href == "http://x/e")
        #expect(errors[0].meta?["hint"]?.stringValue == "longer")
        #expect(errors[1].source == ErrorObject.Source(pointer: nil, parameter: "include", header: "Accept"))
        guard case .absent = document.primary else {
            Issue.record("no primary data expected")
            return
        }
    }

    @Test("escaped ids and types resolve through the index")
    func escapedIdentifiers() throws {
        let document = try parseEverywhere(
            #"""
            {"data":{"type":"a\u0072ticles","id":"\u00e9\"1","relationships":{"self":{"data":{"type":"articles","id":"é\u00221"}}}}}
            """#
        ).get()
        #expect(document.primaryResources[0].type == "articles")
        #expect(document.primaryResources[0].id == "é\"1")
        #expect(document.resource(type: "articles", id: "é\"1") != nil)
        #expect(document.primaryResources[0].relationship("self")?.resolvedResource?.id == "é\"1")
    }

    @Test("zero-copy parsing and concurrent readers")
    func zeroCopyAndConcurrency() async throws {
        let bytes = Array(Self.compound.utf8)
        let count = try bytes.withUnsafeBytes { buffer in
            try Document.withParsing(buffer) { $0.allResources.count }
        }
        #expect(count == 5)
        let document = try Document(parsing: bytes)
        let titles = await withTaskGroup(of: String?.self) { group in
            for _ in 0..<32 {
                group.addTask { document.resource(type: "articles", id: "1")?.attributes["title"]?.stringValue }
            }
            var all: [String?] = []
            for await title in group { all.append(title) }
            return all
        }
        #expect(titles.count == 32 && titles.allSatisfy { $0 == "JSON:API paints my bikeshed!" })
    }

    @Test("a lenient meta that is not an object has no members, by count as by iteration")
    func metaArray() throws {
        let document = try Document(
            parsing: #"{"meta":[{"a":1},2]}"#, options: ParsingOptions(kind: .response, lenient: true))
        let meta = try #require(document.meta)
        #expect(meta.count == 0)
        #expect(meta.isEmpty)
        #expect(meta.keys.isEmpty)
        #expect(Array(meta).isEmpty)
        #expect(meta.jsonValue?.kind == .array)
    }
}

@Suite("Local ids")
struct LocalIdentifierTests {
    @Test("an identifier with only a lid resolves to the resource with that lid (1.1)")
    func localIdentifiers() throws {
        let document = try parseEverywhere(
            #"""
            {"data": {"type": "articles", "lid": "a1", "attributes": {"title": "New"},
                      "relationships": {"author": {"data": {"type": "people", "lid": "p1"}}}},
             "included": [{"type": "people", "lid": "p1", "attributes": {"name": "Ann"},
                           "relationships": {"articles": {"data": [{"type": "articles", "lid": "a1"}]}}}]}
            """#, options: ParsingOptions(kind: .createRequest, lenient: true)
        ).get()
        let article = document.primaryResources[0]
        #expect(article.relationship("author")?.resolvedResource?.attributes["name"]?.stringValue == "Ann")
        let person = document.included[0]
        #expect(person.relationship("articles")?.resolvedResources.first?.lid == "a1")
    }
}
