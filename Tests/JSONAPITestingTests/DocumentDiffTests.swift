import JSONAPI
import JSONAPITesting
import Testing

@Suite("Document diffs")
struct DocumentDiffTests {
    @Test("member order, number spelling and string escapes do not matter")
    func equivalent() throws {
        let a = #"{"data": {"type": "articles", "id": "1", "attributes": {"n": 1, "x": 2.50, "s": "é/"}}}"#
        let b = #"{"data": {"attributes": {"s": "\u00e9\/", "x": 2.5e0, "n": 1.0}, "id": "1", "type": "articles"}}"#
        #expect(try documentDiff(a, b) == nil)
        #expect(try documentDiff(Array(a.utf8), Array(b.utf8)) == nil)
        #expect(expectEquivalentDocuments(a, b))
    }

    @Test("each differing place is listed with its JSON Pointer and both values")
    func differences() throws {
        let actual =
            #"{"data": {"type": "articles", "id": "1", "attributes": {"title": "Hi", "a/b": 1, "extra": true}}}"#
        let expected =
            #"{"data": {"type": "articles", "id": "2", "attributes": {"title": "Hello", "a/b": 2, "tags": []}}}"#
        let differences = JSONDifference.between(
            try Document(parsing: actual, options: ParsingOptions(kind: .response, lenient: true)),
            try Document(parsing: expected, options: ParsingOptions(kind: .response, lenient: true)))
        #expect(
            differences == [
                JSONDifference(pointer: "/data/id", actual: #""1""#, expected: #""2""#),
                JSONDifference(pointer: "/data/attributes/title", actual: #""Hi""#, expected: #""Hello""#),
                JSONDifference(pointer: "/data/attributes/a~1b", actual: "1", expected: "2"),
                JSONDifference(pointer: "/data/attributes/tags", actual: nil, expected: "[]"),
                JSONDifference(pointer: "/data/attributes/extra", actual: "true", expected: nil),
            ])
        let diff = try #require(try documentDiff(actual, expected))
        #expect(diff.hasPrefix("documents differ at 5 places:\n"))
        #expect(diff.contains("  /data/attributes/tags: actual absent, expected []"))
    }

    @Test("arrays are compared element by element; extra elements on either side are listed")
    func arrays() throws {
        let differences = JSONDifference.between(
            try Document(parsing: #"{"meta": {"list": [1, 2, 3]}}"#).jsonValue,
            try Document(parsing: #"{"meta": {"list": [1, 5]}}"#).jsonValue)
        #expect(
            differences.map(\.description) == [
                "/meta/list/1: actual 2, expected 5",
                "/meta/list/2: actual 3, expected absent",
            ])
    }

    @Test("numbers differ by value, types differ, big integers compare exactly")
    func numbers() throws {
        #expect(try documentDiff(#"{"meta": {"n": 1}}"#, #"{"meta": {"n": 1.5}}"#) != nil)
        #expect(try documentDiff(#"{"meta": {"n": 1}}"#, #"{"meta": {"n": "1"}}"#) != nil)
        #expect(try documentDiff(#"{"meta": {"n": 100}}"#, #"{"meta": {"n": 1e2}}"#) == nil)
        #expect(
            try documentDiff(#"{"meta": {"n": 123456789012345678901}}"#, #"{"meta": {"n": 123456789012345678902}}"#)
                != nil)
        #expect(
            try documentDiff(#"{"meta": {"n": 123456789012345678901}}"#, #"{"meta": {"n": 1.23456789012345678901e20}}"#)
                == nil)
    }

    @Test("expectEquivalentDocuments records the diff as an issue")
    func recordsIssue() throws {
        withKnownIssue {
            expectEquivalentDocuments(#"{"meta": {"a": 1}}"#, #"{"meta": {"a": 2}}"#)
        } matching: { issue in
            issue.comments.contains { $0.rawValue.contains("/meta/a: actual 1, expected 2") }
        }
        withKnownIssue {
            expectEquivalentDocuments(#"{"meta": "#, #"{}"#)
        }
    }
}
