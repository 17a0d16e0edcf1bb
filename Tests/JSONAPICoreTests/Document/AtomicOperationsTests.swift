import Foundation
import JSONAPI
import Testing

@testable import JSONAPITestSupport

/// The Atomic Operations extension: reading operations and results as typed views (with
/// located errors), and writing requests and responses.
@Suite("Atomic Operations")
struct AtomicOperationsTests {
    static let folder = "jsonapi-spec/ext-atomic/"

    static func document(_ name: String) throws -> Document {
        try Document(parsing: try corpusBytes(folder + name))
    }

    /// A compact description of an operation, to compare against what the example says.
    static func describe(_ operation: AtomicOperation) -> String {
        var parts = [operation.op.rawValue]
        if let ref = operation.ref { parts.append("ref=\(ref)") }
        if let href = operation.href { parts.append("href=\(href)") }
        switch operation.data {
        case .absent: parts.append("no-data")
        case .null: parts.append("null")
        case .resource(let resource):
            parts.append("resource=\(resource.identifier) \(resource.attributes.jsonValue?.jsonString() ?? "{}")")
            for relationship in resource.relationships {
                parts.append("\(relationship.name)->\(relationship.identifiers.map(\.identifier.description))")
            }
        case .identifier(let identifier): parts.append("identifier=\(identifier.identifier)")
        case .identifiers(let identifiers): parts.append("identifiers=\(identifiers.map(\.identifier.description))")
        }
        return parts.joined(separator: " ")
    }

    static let expectedOperations: [(file: String, operations: [String])] = [
        (
            "01-creating-resources-req-post.json",
            [#"add href=/blogPosts resource=articles/? {"title":"JSON API paints my bikeshed!"}"#]
        ),
        ("03-updating-resources-req-post.json", [#"update resource=articles/13 {"title":"To TDD or Not"}"#]),
        ("04-deleting-resources-req-post.json", ["remove ref=articles/13 no-data"]),
        (
            "05-updating-to-one-relationships-req-post.json",
            ["update ref=articles/13/relationships/author identifier=people/9"]
        ),
        ("06-updating-to-one-relationships-req-post.json", ["update ref=articles/13/relationships/author null"]),
        (
            "07-updating-to-many-relationships-req-post.json",
            [#"add ref=articles/1/relationships/comments identifiers=["comments/123"]"#]
        ),
        (
            "08-updating-to-many-relationships-req-post.json",
            [#"update ref=articles/1/relationships/tags identifiers=["tags/2", "tags/3"]"#]
        ),
        (
            "09-updating-to-many-relationships-req-post.json",
            [#"remove ref=articles/1/relationships/comments identifiers=["comments/12", "comments/13"]"#]
        ),
        (
            "10-processing-multiple-operations-req-post.json",
            [
                #"add resource=authors/acb2ebd6-ed30-4877-80ce-52a14d77d470 {"name":"dgeb"}"#,
                #"add resource=articles/bb3ad581-806f-4237-b748-f2ea0261845c {"title":"JSON API paints my bikeshed!"} author->["authors/acb2ebd6-ed30-4877-80ce-52a14d77d470"]"#,
            ]
        ),
    ]

    @Test(
        "every operations example reads as the operations it shows",
        .enabled(if: corpusURL != nil), arguments: expectedOperations.map(\.file))
    func operationsExamples(_ file: String) throws {
        let document = try Self.document(file)
        #expect(document.hasAtomicOperations && !document.hasAtomicResults)
        let operations = try document.atomicOperations()
        let expected = try #require(Self.expectedOperations.first { $0.file == file }).operations
        #expect(operations.map(Self.describe) == expected)
        #expect(operations.map(\.index) == Array(operations.indices))
        #expect(operations.map(\.pointer) == operations.indices.map { "/atomic:operations/\($0)" })
        #expect(try document.atomicResults().isEmpty)
    }

    @Test("the first creation example leaves out the id the server assigns")
    func creationWithoutID() throws {
        let operation = try Self.document("01-creating-resources-req-post.json").atomicOperations()[0]
        guard case .resource(let resource) = operation.data else {
            Issue.record("expected a resource")
            return
        }
        #expect(resource.type == "articles" && resource.id == nil && resource.lid == nil)
        #expect(resource.attributes["title"]?.stringValue == "JSON API paints my bikeshed!")
        #expect(operation.ref == nil && operation.meta == nil && !operation.targetsRelationship)
    }

    @Test("the results examples read as the created resources")
    func resultsExamples() throws {
        let single = try Self.document("02-responses-resp-200.json")
        let results = try single.atomicResults()
        #expect(try single.atomicOperations().isEmpty)
        #expect(results.count == 1)
        guard case .resource(let created) = results[0].data else {
            Issue.record("expected a resource")
            return
        }
        #expect(created.identifier == ResourceIdentifier(type: "articles", id: "13"))
        #expect(created.links?["self"]?.href == "http://example.com/blogPosts/13")
        #expect(created.attributes["title"]?.stringValue == "JSON API paints my bikeshed!")

        let multiple = try Self.document("11-processing-multiple-operations-resp-200.json").atomicResults()
        #expect(multiple.map(\.pointer) == ["/atomic:results/0", "/atomic:results/1"])
        guard case .resource(let author) = multiple[0].data, case .resource(let article) = multiple[1].data else {
            Issue.record("expected two resources")
            return
        }
        #expect(author.identifier == ResourceIdentifier(type: "authors", id: "acb2ebd6-ed30-4877-80ce-52a14d77d470"))
        #expect(author.attributes["name"]?.stringValue == "dgeb")
        #expect(article.id == "bb3ad581-806f-4237-b748-f2ea0261845c")
        let relationship = try #require(article.relationship("author"))
        guard case .absent = relationship.linkage else {
            Issue.record("the author relationship has only links")
            return
        }
        #expect(
            relationship.links?["related"]?.href
                == "http://example.com/articles/bb3ad581-806f-4237-b748-f2ea0261845c/author")
    }

    static let allExamples =
        expectedOperations.map(\.file) + [
            "02-responses-resp-200.json", "11-processing-multiple-operations-resp-200.json",
        ]

    @Test(
        "every example round-trips through the owned builders and the raw writer",
        .enabled(if: corpusURL != nil), arguments: allExamples)
    func roundTrip(_ file: String) throws {
        let document = try Self.document(file)
        // Raw: the document written back is the same document, with the same operations.
        let rewritten = try Document(parsing: document.jsonBytes(options: .pretty))
        #expect(DocumentEquivalence.differences(document, rewritten, ordered: true).isEmpty)
        // Owned: copying the views into builders and writing those gives equivalent JSON.
        let owned: [UInt8]
        if document.hasAtomicOperations {
            let request = try AtomicOperationsDocument(document)
            owned = try request.jsonBytes()
            let reread = try AtomicOperationsDocument(try Document(parsing: owned))
            #expect(reread == request)
            #expect(
                try Document(parsing: owned).atomicOperations().map(Self.describe)
                    == document.atomicOperations().map(Self.describe))
        } else {
            let response = try AtomicResultsDocument(document)
            owned = try response.jsonBytes()
            #expect(try AtomicResultsDocument(try Document(parsing: owned)) == response)
        }
        #expect(try Document(parsing: owned).jsonValue.isEquivalent(to: document.jsonValue))
    }

    // MARK: Rules

    /// The pointers of every problem reading `json` reports.
    static func problems(_ json: String, results: Bool = false) -> [String] {
        do {
            let document = try Document(parsing: json)
            if results { _ = try document.atomicResults() } else { _ = try document.atomicOperations() }
            return []
        } catch {
            let diagnostics =
                error.diagnostics.isEmpty
                ? [
                    Diagnostic(
                        severity: .error, code: error.code, message: error.message, offset: error.offset,
                        pointer: error.pointer)
                ]
                : error.diagnostics
            #expect(diagnostics.allSatisfy { $0.line > 0 && $0.column > 0 }, "\(diagnostics)")
            return diagnostics.map(\.pointer)
        }
    }

    @Test(
        "broken rules are reported with the pointer of the offending member",
        arguments: [
            (
                #"{"atomic:operations": [{"op": "add", "data": {"type": "a"}}, {"op": "delete"}]}"#,
                ["/atomic:operations/1/op"]
            ),
            (#"{"atomic:operations": [{"data": {"type": "a"}}]}"#, ["/atomic:operations/0"]),
            (#"{"atomic:operations": [{"op": 1}]}"#, ["/atomic:operations/0/op"]),
            (#"{"atomic:operations": []}"#, ["/atomic:operations"]),
            (#"{"atomic:operations": {"op": "add"}}"#, ["/atomic:operations"]),
            (#"{"atomic:operations": [1]}"#, ["/atomic:operations/0"]),
            (
                #"{"atomic:operations": [{"op": "remove", "ref": {"type": "a", "id": "1"}, "href": "/a/1"}]}"#,
                ["/atomic:operations/0/href"]
            ),
            (#"{"atomic:operations": [{"op": "remove", "ref": {"type": "a"}}]}"#, ["/atomic:operations/0/ref"]),
            (
                #"{"atomic:operations": [{"op": "remove", "ref": {"type": "a", "id": "1", "lid": "x"}}]}"#,
                ["/atomic:operations/0/ref"]
            ),
            (
                #"{"atomic:operations": [{"op": "remove", "ref": {"type": "a", "id": 1}}]}"#,
                ["/atomic:operations/0/ref/id"]
            ),
            (
                #"{"atomic:operations": [{"op": "remove", "ref": {"type": "a", "id": "1", "x": 1}}]}"#,
                ["/atomic:operations/0/ref/x"]
            ),
            (#"{"atomic:operations": [{"op": "remove", "ref": {"type": "a", "id": "1", "@x": 1, "e:x": 2}}]}"#, []),
            (#"{"atomic:operations": [{"op": "remove"}]}"#, ["/atomic:operations/0"]),
            (
                #"{"atomic:operations": [{"op": "remove", "href": "/a/1", "x-unknown": 42}]}"#,
                ["/atomic:operations/0/x-unknown"]
            ),
            (#"{"atomic:operations": [{"op": "remove", "href": "/a/1", "@x": 1, "e:x": 2}]}"#, []),
            (#"{"atomic:operations": [{"op": "remove", "href": "/a/1"}]}"#, []),
            (
                #"{"atomic:operations": [{"op": "add", "href": 5, "data": {"type": "a"}}]}"#,
                ["/atomic:operations/0/href"]
            ),
            (#"{"atomic:operations": [{"op": "update", "data": {"type": "a"}}]}"#, ["/atomic:operations/0/data"]),
            (#"{"atomic:operations": [{"op": "update", "data": {"type": "a", "lid": "l"}}]}"#, []),
            (#"{"atomic:operations": [{"op": "add", "data": [{"type": "a"}]}]}"#, ["/atomic:operations/0/data"]),
            (#"{"atomic:operations": [{"op": "add", "data": {"id": "1"}}]}"#, ["/atomic:operations/0/data"]),
            (
                #"{"atomic:operations": [{"op": "add", "data": {"type": "a", "attributes": {"id": 1}}}]}"#,
                ["/atomic:operations/0/data/attributes/id"]
            ),
            (
                #"{"atomic:operations": [{"op": "add", "ref": {"type": "a", "id": "1", "relationship": "r"}, "data": {"type": "b", "id": "2"}}]}"#,
                ["/atomic:operations/0/data"]
            ),
            (
                #"{"atomic:operations": [{"op": "update", "ref": {"type": "a", "id": "1", "relationship": "r"}, "data": [{"type": "b"}]}]}"#,
                ["/atomic:operations/0/data/0"]
            ),
            (
                #"{"atomic:operations": [{"op": "update", "ref": {"type": "a", "id": "1", "relationship": "r"}}]}"#,
                ["/atomic:operations/0"]
            ),
            (#"{"atomic:operations": [{"op": "remove", "href": "/a/1", "meta": []}]}"#, ["/atomic:operations/0/meta"]),
            (
                #"{"atomic:operations": [{"op": "remove", "href": "/a/1"}], "atomic:results": [{}], "errors": []}"#,
                ["/atomic:results", "/errors"]
            ),
            (#"{"data": null, "atomic:operations": [{"op": "remove", "href": "/a/1"}]}"#, ["/data"]),
        ])
    func operationRules(_ json: String, _ pointers: [String]) {
        #expect(Self.problems(json) == pointers)
    }

    @Test(
        "results follow their rules too",
        arguments: [
            (#"{"atomic:results": [{}, {"meta": {"a": 1}}, {"data": null}, {"data": []}, {"@x": 1}]}"#, [String]()),
            (#"{"atomic:results": [{"data": 1}]}"#, ["/atomic:results/0/data"]),
            (#"{"atomic:results": [{"data": {"type": "a"}}]}"#, ["/atomic:results/0/data"]),
            (
                #"{"atomic:results": [{"data": [{"type": "a", "id": "1"}, {"type": "a", "id": "1"}]}]}"#,
                ["/atomic:results/0/data/1"]
            ),
            (#"{"atomic:results": [{"other": 1}]}"#, ["/atomic:results/0/other"]),
            (#"{"atomic:results": ["x"]}"#, ["/atomic:results/0"]),
            (
                #"{"atomic:results": [], "atomic:operations": [{"op": "remove", "href": "/"}]}"#,
                ["/atomic:results", "/atomic:operations"]
            ),
        ])
    func resultRules(_ json: String, _ pointers: [String]) {
        #expect(Self.problems(json, results: true).sorted() == pointers.sorted())
    }

    @Test("a problem inside operation data is located in the outer document")
    func locatedProblem() throws {
        let json = """
            {"atomic:operations": [
              {"op": "add", "data": {"type": "a", "attributes": {"ok": 1}}},
              {"op": "add", "data": {"type": "a", "attributes": {"type": 1}}}
            ]}
            """
        let document = try Document(parsing: json)
        do {
            _ = try document.atomicOperations()
            Issue.record("expected an error")
        } catch {
            #expect(error.pointer == "/atomic:operations/1/data/attributes/type")
            #expect(error.line == 3)
            let member = try #require(json.range(of: #""type": 1"#))
            #expect(error.offset == json.utf8.distance(from: json.startIndex, to: member.lowerBound))
            let mapped = JSONAPIErrorDocument(describing: error)
            #expect(mapped.errors[0].source?.pointer == "/atomic:operations/1/data/attributes/type")
        }
    }

    /// Found by fuzzing (parse, write, parse again): the message quoted the value as spelled,
    /// so a pretty-printed document and its compact form reported different problems.
    @Test("a bad `op` is reported alike however the document is spelled")
    func badOperationCodeMessage() throws {
        func message(_ json: String) throws -> String? {
            do {
                _ = try Document(parsing: json).atomicOperations()
                return nil
            } catch {
                return error.message
            }
        }
        let pretty = try message(#"{"atomic:operations": [{"op": {"type": "a",\#n "id": "1"}}]}"#)
        let compact = try message(#"{"atomic:operations":[{"op":{"type":"a","id":"1"}}]}"#)
        #expect(pretty != nil && pretty == compact)
        #expect(pretty?.contains("found object") == true)
        let escaped = try message(#"{"atomic:operations":[{"op":"add2"}]}"#)
        #expect(escaped?.contains(#"found "add2""#) == true)
    }

    // MARK: Writing

    @Test("the request builder writes the operations the extension defines")
    func requestBuilder() throws {
        var request = AtomicOperationsDocument(
            jsonapi: JSONAPIImplementationInfo(extensions: [AtomicOperations.extensionURI]))
        request.add(JSONAPIResourceObject(type: "authors", lid: "a", attributes: ["name": "dgeb"]), meta: ["n": 1])
        request.add(
            JSONAPIResourceObject(
                type: "articles", lid: "b", attributes: ["title": "Hi"],
                relationships: ["author": .toOne(ResourceIdentifier(type: "authors", lid: "a"))]),
            href: "/blogPosts")
        request.update(JSONAPIResourceObject(type: "articles", id: "13", attributes: ["title": "To TDD"]))
        request.remove(ResourceIdentifier(type: "articles", id: "13"))
        let article = ResourceIdentifier(type: "articles", lid: "b")
        request.add([ResourceIdentifier(type: "tags", id: "2")], toRelationship: "tags", of: article)
        request.update(relationship: "author", of: article, to: .null)
        request.update(relationship: "author", of: article, to: .one(ResourceIdentifier(type: "people", id: "9")))
        request.update(relationship: "tags", of: article, to: .many([]))
        request.remove([ResourceIdentifier(type: "tags", id: "2")], fromRelationship: "tags", of: article)
        let expected = """
            {"jsonapi":{"version":"1.1","ext":["https://jsonapi.org/ext/atomic"]},"atomic:operations":[\
            {"op":"add","data":{"type":"authors","lid":"a","attributes":{"name":"dgeb"}},"meta":{"n":1}},\
            {"op":"add","href":"/blogPosts","data":{"type":"articles","lid":"b","attributes":{"title":"Hi"},\
            "relationships":{"author":{"data":{"type":"authors","lid":"a"}}}}},\
            {"op":"update","data":{"type":"articles","id":"13","attributes":{"title":"To TDD"}}},\
            {"op":"remove","ref":{"type":"articles","id":"13"}},\
            {"op":"add","ref":{"type":"articles","lid":"b","relationship":"tags"},"data":[{"type":"tags","id":"2"}]},\
            {"op":"update","ref":{"type":"articles","lid":"b","relationship":"author"},"data":null},\
            {"op":"update","ref":{"type":"articles","lid":"b","relationship":"author"},"data":{"type":"people","id":"9"}},\
            {"op":"update","ref":{"type":"articles","lid":"b","relationship":"tags"},"data":[]},\
            {"op":"remove","ref":{"type":"articles","lid":"b","relationship":"tags"},"data":[{"type":"tags","id":"2"}]}]}
            """
        #expect(try request.jsonString() == expected)
        let parsed = try Document(parsing: try request.jsonBytes())
        let operations = try parsed.atomicOperations()
        #expect(operations.map(\.op) == [.add, .add, .update, .remove, .add, .update, .update, .update, .remove])
        #expect(try AtomicOperationsDocument(parsed) == request)
        #expect(
            try request.jsonString(options: JSONWritingOptions(sortsKeys: true)).hasPrefix(
                #"{"atomic:operations":[{"data""#))
    }

    @Test("the results builder writes one result per operation")
    func resultsBuilder() throws {
        var response = AtomicResultsDocument()
        #expect(response.isEmpty)
        response.append(JSONAPIResourceObject(type: "articles", id: "13", attributes: ["title": "Hello"]))
        response.appendEmpty()
        response.appendEmpty(meta: ["skipped": true])
        response.results.append(.init(data: .resources([JSONAPIResourceObject(type: "tags", id: "1")])))
        response.results.append(.init(data: .null))
        #expect(!response.isEmpty)
        #expect(
            try response.jsonString()
                == #"{"atomic:results":[{"data":{"type":"articles","id":"13","attributes":{"title":"Hello"}}},{},{"meta":{"skipped":true}},{"data":[{"type":"tags","id":"1"}]},{"data":null}]}"#
        )
        let parsed = try Document(parsing: try response.jsonBytes())
        #expect(try AtomicResultsDocument(parsed) == response)
        #expect(AtomicResultsDocument(results: [.init(), .init()]).isEmpty)
    }
}
