import Testing

@testable @_spi(Backend) import JSONAPI
@testable import JSONAPITestSupport

/// The builder takes plain resource identifiers and `links` objects whole when they lie in one
/// chunk (`DocumentBuilder+WholeObjects.swift`). Fed a byte at a time, no object ever lies in
/// one chunk, so every document here is parsed both ways (and split everywhere) by
/// `parseEverywhere`, which requires the same records and the same diagnostics.
@Suite("Whole-object fast paths")
struct WholeObjectTests {
    /// A response with one article whose relationships hold `author` and `comments` as given.
    private func document(author: String, comments: String, articleLinks: String = #"{"self":"/articles/1"}"#)
        -> String
    {
        #"{"data":{"type":"articles","id":"1","links":\#(articleLinks),"relationships":{"#
            + #""author":{"links":{"self":"/articles/1/relationships/author","related":"/articles/1/author"},"data":\#(author)},"#
            + #""comments":{"data":\#(comments)}}},"included":[{"type":"people","id":"9"},"#
            + #"{"type":"comments","id":"5"},{"type":"comments","id":"12"}]}"#
    }

    private static let lenient: ParsingOptions = {
        var options = ParsingOptions()
        options.isLenient = true
        return options
    }()

    @Test("the literals' packed words spell their text")
    func packedLiterals() {
        for literal in [JSONLiteral.null, .true, .false] {
            let text = "\(literal.text)"
            var word: UInt64 = 0
            for (i, byte) in text.utf8.enumerated() { word |= UInt64(byte) << UInt64(i * 8) }
            #expect(literal.packedBytes == word && literal.length == text.utf8.count, "\(text)")
        }
    }

    @Test("plain identifiers in every member order and spacing resolve as the events would")
    func plainIdentifiers() throws {
        for author in [
            #"{"type":"people","id":"9"}"#, #"{"id":"9","type":"people"}"#, #"{ "type" : "people" , "id" : "9" }"#,
            "{\n\t\"type\":\r\n\"people\",\"id\":\"9\"\n}",
        ] {
            let text = document(
                author: author, comments: #"[{"type":"comments","id":"5"}, {"id":"12","type":"comments"}]"#)
            let parsed = try parseEverywhere(text).get()
            try #require(parsed.primaryResources.count == 1)
            let article = parsed.primaryResources[0]
            #expect(article.relationship("author")?.resolvedResources.map(\.id) == ["9"], "\(author)")
            #expect(article.relationship("comments")?.resolvedResources.map(\.id) == ["5", "12"], "\(author)")
        }
    }

    @Test("identifiers the fast path declines give the event path's records and problems")
    func declinedIdentifiers() {
        let authors = [
            #"{"type":"people","id":"9","meta":{"role":"editor"}}"#,  // a third member
            #"{"type":"people","id":"\u0039"}"#,  // an escape
            #"{"type":"people","id":"é"}"#,  // a non-ASCII id
            #"{"type":"peoplé","id":"9"}"#,  // a non-ASCII type name (declined)
            #"{"type":"peo ple","id":"9"}"#,  // an invalid type name
            #"{"type":"","id":"9"}"#,  // an empty type
            #"{"type":"people","type":"people","id":"9"}"#,  // a repeated member
            #"{"type":"people"}"#,  // no id
            #"{"id":"9","id":"9"}"#,  // no type
            #"{"type":"people","id":9}"#,  // a number id
            #"{"type":"people","id":""}"#,  // an empty id (valid JSON:API, no such resource)
            #"{"type":"people","lid":"x"}"#,  // a local id
            #"{}"#,
        ]
        for author in authors {
            for options in [ParsingOptions(), Self.lenient] {
                parseEverywhere(document(author: author, comments: "[]"), options: options)
            }
        }
    }

    @Test("ids with escapes or non-ASCII text are taken whole and resolve however they are spelled")
    func escapedIds() throws {
        // (spelling in the resource, spelling in linkage, the id)
        let ids = [
            (#"\u0039"#, "9", "9"), ("9", #"\u0039"#, "9"), ("é", #"\u00e9"#, "é"), (#"\u00E9"#, "é", "é"),
            (#"a\"b"#, #"a\u0022b"#, "a\"b"), (#"x\/y"#, "x/y", "x/y"), (#"\uD83D\uDE00"#, "😀", "😀"),
            (#"\n\t"#, #"\u000a\u0009"#, "\n\t"), ("日本", #"\u65e5\u672c"#, "日本"),
        ]
        for (resourceSpelling, linkageSpelling, id) in ids {
            for pretty in [false, true] {
                let space = pretty ? "\n      " : ""
                let text =
                    #"{"data":[{"type":"articles","id":"1","relationships":{"author":{"data":"#
                    + #"{\#(space)"type":"people",\#(space)"id":"\#(linkageSpelling)"}}}}],"#
                    + #""included":[{\#(space)"type":"people",\#(space)"id":"\#(resourceSpelling)"}]}"#
                let document = try parseEverywhere(text).get()
                try #require(document.primaryResources.count == 1)
                let article = document.primaryResources[0]
                #expect(article.relationship("author")?.resolvedResources.map(\.id) == [id], "\(text)")
                #expect(document.resource(type: "people", id: id) != nil, "\(text)")
            }
        }
        // Invalid ids: the same errors at the same offsets as the event path.
        for bad in [#"\x"#, #"\uD800"#, #"\u12"#, "\u{01}", #"\uDC00"#] {
            for place in 0..<2 {
                let identifier = #"{"type":"people","id":"\#(bad)"}"#
                let text =
                    place == 0
                    ? #"{"data":[{"type":"articles","id":"1","relationships":{"author":{"data":\#(identifier)}}}]}"#
                    : #"{"data":\#(identifier)}"#
                if case .success = parseEverywhere(text) { Issue.record("accepted \(text)") }
            }
        }
    }

    @Test("plain and declined links objects agree with the event path")
    func linksObjects() {
        let relationshipLinks = [
            #"{"self":"/a","related":"/b","first":"/c","last":"/d","prev":"/e","next":"/f"}"#, #"{}"#, #"{ }"#,
            #"{"self":"/a","custom":"/b"}"#,  // a name a relationship's links may not have
            #"{"self":"/a b"}"#,  // a link that is not a URI
            #"{"self":"relative/path"}"#,
            #"{"self":null}"#, #"{"self":{"href":"/a","meta":{"x":1}}}"#, #"{"self":"/\u0061"}"#,
            #"{"self":"/a","self":"/b"}"#,
            #"{"self":""}"#, #"{"self":{"href":""}}"#, #"{"self":{"meta":{"x":1}}}"#,  // empty links; no `href`
        ]
        for links in relationshipLinks {
            let text =
                #"{"data":{"type":"articles","id":"1","relationships":{"author":{"links":\#(links)}}}}"#
            for options in [ParsingOptions(), Self.lenient] { parseEverywhere(text, options: options) }
        }
        for links in [#"{"self":"/articles/1","alternate":"https://example.com/x"}"#, #"{"bad name":"/a"}"#] {
            for options in [ParsingOptions(), Self.lenient] {
                parseEverywhere(document(author: "null", comments: "[]", articleLinks: links), options: options)
            }
        }
    }

    @Test("relationship objects taken whole or declined agree with the event path, in every document kind")
    func relationshipObjects() {
        let relationships = [
            #"{"data":null}"#, #"{"data":[]}"#, #"{ "data" : [ ] , "links" : { } }"#,
            #"{"data":[{"type":"people","id":"9"},{"id":"8","type":"people"}],"links":{"related":"/x"}}"#,
            #"{"links":{"self":"/a"}}"#,  // no data: an error in requests
            #"{"links":{"self":"/a"},"meta":{"count":1}}"#,  // meta: declined
            #"{"data":null,"data":null}"#,  // a repeated member
            #"{"links":null,"data":null}"#, #"{"data":{"type":"people","id":"9"},"other":1}"#, #"{}"#,
            #"{"data":[{"type":"people","id":"9"},null]}"#, #"{"data":nul}"#, #"{"data":"9"}"#,
        ]
        for relationship in relationships {
            let text = #"{"data":{"type":"articles","id":"1","relationships":{"author":\#(relationship)}}}"#
            for kind in [ParsingOptions.Kind.response, .createRequest, .updateRequest] {
                for lenient in [false, true] {
                    var options = ParsingOptions()
                    options.kind = kind
                    options.isLenient = lenient
                    parseEverywhere(text, options: options)
                }
            }
        }
    }

    @Test("depth limits around a relationship's nested linkage agree with the event path")
    func relationshipDepth() {
        let text =
            #"{"data":{"type":"articles","id":"1","relationships":{"tags":{"data":[{"type":"tags","id":"1"}]}}}}"#
        for depth in 1...8 {
            var options = ParsingOptions()
            options.maximumDepth = depth
            parseEverywhere(text, options: options)
        }
    }

    @Test("a bad link in a relationship's links is still reported with its location")
    func badLinkReported() {
        let text = #"{"data":{"type":"articles","id":"1","relationships":{"author":{"links":{"self":"/a b"}}}}}"#
        guard case .failure(let error) = parseEverywhere(text) else {
            Issue.record("expected the bad link to be an error")
            return
        }
        #expect(error.diagnostics.contains { $0.pointer == "/data/relationships/author/links/self" })
    }

    @Test("attributes objects taken whole or declined agree with the event path")
    func attributesObjects() {
        let attributes = [
            #"{}"#, #"{ }"#, #"{"title":"Hi","n":-1.5e3,"ok":true,"no":false,"x":null}"#,
            #"{ "a" : [ 1 , "two" , [ ] , { } , { "b" : [ null ] } ] , "c" : { "d" : { "e" : 0 } } }"#,
            #"{"text":"caf\u00e9 \ud83d\ude00 \"quoted\" back\\slash","raw":"Łódź 한국어 🎉"}"#,
            #"{"type":"x"}"#, #"{"id":1}"#,  // reserved names
            #"{"author":"x"}"#,  // the name of a relationship too
            #"{"a":1,"a":2}"#,  // a repeated name
            #"{"a\u0062":1}"#, #"{"bad name":1}"#, #"{"@meta":1}"#, #"{"ext:field":1}"#,  // not plain
            #"{"nested":{"links":1}}"#, #"{"nested":[{"relationships":{}}]}"#,  // reserved inside values
            #"{"nested":{"bad name":1}}"#, #"{"nested":{"type":"fine","id":"fine"}}"#,
            #"{"n":01}"#, #"{"n":1.}"#, #"{"n":-}"#, #"{"n":1e}"#, #"{"n":tru}"#, #"{"n":nulls}"#,  // bad values
            #"{"s":"\x"}"#, #"{"s":"\ud800"}"#, "{\"s\":\"\u{01}\"}",  // bad escape, lone surrogate, control
            #"{"a":1,}"#, #"{"a":1 "b":2}"#, #"{"a" 1}"#, #"{"a":[1,]}"#, #"{"a":[1}"#, #"{"a":{"b":1]}"#,
            #"[]"#, #""attributes""#, #"null"#,
        ]
        for value in attributes {
            let text =
                #"{"data":{"type":"articles","id":"1","attributes":\#(value),"#
                + #""relationships":{"author":{"data":null}}}}"#
            for options in [ParsingOptions(), Self.lenient] { parseEverywhere(text, options: options) }
        }
        // A byte that is not UTF-8 inside an attribute string.
        var bytes = Array(#"{"data":{"type":"articles","id":"1","attributes":{"s":"ab"}}}"#.utf8)
        bytes.insert(0xFF, at: bytes.count - 5)
        for options in [ParsingOptions(), Self.lenient] { parseEverywhere(bytes, options: options) }
    }

    @Test("depth and string limits inside attributes agree with the event path")
    func attributesLimits() {
        let text = #"{"data":{"type":"articles","id":"1","attributes":{"a":[[{"b":[1]}]],"long":"123456789"}}}"#
        for depth in 1...9 {
            var options = ParsingOptions()
            options.maximumDepth = depth
            parseEverywhere(text, options: options)
        }
        for limit in [4, 8, 9, 10] {
            var options = ParsingOptions()
            options.maximumStringBytes = limit
            parseEverywhere(text, options: options)
        }
        // Nesting past the fast path's own 32 levels is declined, and the event path decides.
        let deep = String(repeating: "[", count: 40) + String(repeating: "]", count: 40)
        parseEverywhere(#"{"data":{"type":"articles","id":"1","attributes":{"deep":\#(deep)}}}"#)
    }

    @Test("limits still apply: a long id past maximumStringBytes, an identifier past maximumDepth")
    func limits() {
        var short = ParsingOptions()
        short.maximumStringBytes = 4
        let long = document(author: #"{"type":"ppl","id":"12345"}"#, comments: "[]")
        guard case .failure(let error) = parseEverywhere(long, options: short) else {
            Issue.record("expected stringTooLong")
            return
        }
        #expect(error.code == .stringTooLong)
        var shallow = ParsingOptions()
        shallow.maximumDepth = 5
        let deep = document(author: "null", comments: #"[{"type":"comments","id":"5"}]"#)
        guard case .failure(let depthError) = parseEverywhere(deep, options: shallow) else {
            Issue.record("expected depthLimitExceeded")
            return
        }
        #expect(depthError.code == .depthLimitExceeded)
    }

    // MARK: Whole resources

    /// A response whose primary data array starts with `resource`, followed by a plain article,
    /// and whose `included` holds `resource` again after a plain person (so the variant is
    /// read both as the first resource, where its type names are new, and later).
    private func resources(_ resource: String) -> String {
        #"{"data":[\#(resource),{"type":"articles","id":"2","attributes":{"title":"x"},"#
            + #""relationships":{"author":{"data":{"type":"people","id":"9"}}}}],"#
            + #""included":[{"type":"people","id":"9","attributes":{"name":"P"}},\#(resource)]}"#
    }

    /// Resource objects in the shapes the whole-resource path takes and the ones it must
    /// decline (each of which the event path has something to say about, or records another way).
    private static let resourceVariants = [
        // Taken: every member, in several orders and spacings.
        #"{"type":"articles","id":"1","attributes":{"title":"Hi","n":[1,{"a":null}]},"#
            + #""relationships":{"author":{"links":{"self":"/a"},"data":{"type":"people","id":"9"},"meta":{"m":1}},"#
            + #""comments":{"data":[{"type":"comments","id":"5"},{"type":"comments","id":"6"}],"meta":{"count":2}}},"#
            + #""links":{"self":"/articles/1"},"meta":{"revision":3,"links":{"relationships":[true]}}}"#,
        #"{"relationships":{"author":{"data":{"type":"people","id":"9"}}},"type":"articles","id":"1"}"#,
        #"{"id":"1","relationships":{"tags":{"data":[{"type":"tags","id":"t"}]}},"attributes":{},"type":"articles"}"#,
        "{ \"type\" : \"articles\" ,\n\t\"id\":\"1\", \"relationships\" : { } , \"meta\" : { } }\r\n",
        #"{"type":"articles","id":"1","relationships":{"author":{"meta":{"only":"meta"}}}}"#,
        #"{"type":"articles","id":"","attributes":{"abc":1,"axc":2,"abd":3}}"#,  // alike names, all different
        #"{"type":"articles","id":"1","attributes":{"author":1},"relationships":{"editor":{"data":null}}}"#,
        // Declined: the events decide.
        #"{}"#, #"{ }"#, #"{"type":"articles"}"#, #"{"id":"1"}"#, #"{"type":"articles","lid":"l1"}"#,
        #"{"type":"articles","id":"1","lid":"l1"}"#, #"{"type":"articles","id":"1","other":1}"#,
        #"{"type":"articles","id":"1","ext:member":1}"#, #"{"type":"articles","id":"1","@annotation":1}"#,
        #"{"type":"articles","type":"articles","id":"1"}"#, #"{"type":"articles","id":"1","id":"2"}"#,
        #"{"type":"articles","id":"1","attributes":{},"attributes":{}}"#,
        #"{"type":"articles","id":"1","links":{},"links":{}}"#, #"{"type":"articles","id":"1","meta":{},"meta":{}}"#,
        #"{"type":"articles","id":"1","relationships":{},"relationships":{}}"#,
        #"{"type":"articles","id":"1","attributes":{"a":1,"a":2}}"#,  // a repeated attribute
        #"{"type":"articles","id":"1","attributes":{"author":1},"relationships":{"author":{"data":null}}}"#,
        #"{"type":"articles","id":"1","relationships":{"author":{"data":null},"author":{"data":null}}}"#,
        #"{"type":"articles","id":"1","relationships":{"type":{"data":null}}}"#,
        #"{"type":"articles","id":"1","relationships":{"id":{"data":null}}}"#,
        #"{"type":"articles","id":"1","relationships":{"bad name":{"data":null}}}"#,
        #"{"type":"articles","id":"1","relationships":{"a\u0062":{"data":null}}}"#,
        #"{"type":"articles","id":"1","relationships":{"author":{}}}"#,
        #"{"type":"articles","id":"1","relationships":{"author":null}}"#,
        #"{"type":"articles","id":"1","relationships":{"author":{"links":{"self":"/a"}}}}"#,  // no data
        #"{"type":"articles","id":"1","relationships":{"author":{"meta":[]}}}"#,
        #"{"type":"articles","id":"1","relationships":{"author":{"meta":{"bad name":1}}}}"#,
        #"{"type":"articles","id":"1","relationships":[]}"#, #"{"type":"articles","id":"1","attributes":[]}"#,
        #"{"type":"articles","id":"1","meta":{"bad name":1}}"#, #"{"type":"articles","id":"1","meta":null}"#,
        #"{"type":"articles","id":"1","links":{"self":"/a b"}}"#,
        #"{"type":"peo ple","id":"1"}"#, #"{"type":"","id":"1"}"#, #"{"type":"art\u0069cles","id":"1"}"#,
        #"{"type":"articles","id":"\u0031"}"#, #"{"type":"articles","id":"é"}"#, #"{"type":"articles","id":1}"#,
        #"{"type":"articles","id":null}"#, #"{"type":7,"id":"1"}"#, #"{"type":"articles","id":"1",}"#,
        #"{"type":"articles","id":"1""attributes":{}}"#, #"{"type":"articles","id":"1"]"#, #"[]"#, #"null"#,
        #""articles""#,
    ]

    @Test("resources taken whole or declined agree with the event path, in every document kind")
    func wholeResources() {
        for resource in Self.resourceVariants {
            for kind in [ParsingOptions.Kind.response, .createRequest, .updateRequest, .relationshipUpdate] {
                for lenient in [false, true] {
                    var options = ParsingOptions()
                    options.kind = kind
                    options.isLenient = lenient
                    parseEverywhere(resources(resource), options: options)
                }
            }
        }
    }

    @Test("a resource with more than 64 fields, and one with a late repeat, agree with the event path")
    func manyFields() {
        let names = (0..<70).map { "f\($0)" }
        let attributes = names.map { #""\#($0)":\#($0.count)"# }.joined(separator: ",")
        parseEverywhere(resources(#"{"type":"articles","id":"1","attributes":{\#(attributes)}}"#))
        let repeated = names.prefix(40).map { #""\#($0)":1"# }.joined(separator: ",") + #","f17":2"#
        parseEverywhere(resources(#"{"type":"articles","id":"1","attributes":{\#(repeated)}}"#))
        let relationships = names.prefix(30).map { #""\#($0)":{"data":null}"# }.joined(separator: ",")
        parseEverywhere(
            resources(#"{"type":"articles","id":"1","attributes":{"f29":1},"relationships":{\#(relationships)}}"#))
    }

    @Test("depth and resource-count limits around whole resources agree with the event path")
    func wholeResourceLimits() {
        let resource =
            #"{"type":"articles","id":"1","attributes":{"a":[{"b":1}]},"#
            + #""relationships":{"tags":{"data":[{"type":"tags","id":"1"}],"meta":{"m":{"n":[2]}}}},"meta":{"x":[[1]]}}"#
        // Each member nested deepest on its own, so that no other member's limit hides its own.
        let deepest = [
            resource, #"{"type":"articles","id":"1","attributes":{"a":[{"b":1}]},"links":{"self":"/a"}}"#,
            #"{"type":"articles","id":"1","meta":{"x":[[1]]}}"#,
            #"{"type":"articles","id":"1","relationships":{"tags":{"data":null,"meta":{"m":{"n":[2]}}}}}"#,
            #"{"type":"articles","id":"1","attributes":{"a":1}}"#, #"{"type":"articles","id":"1","links":{}}"#,
            #"{"type":"articles","id":"1","relationships":{}}"#, #"{"type":"articles","id":"1","meta":{}}"#,
            #"{"type":"articles","id":"1"}"#,
        ]
        for depth in 1...10 {
            var options = ParsingOptions()
            options.maximumDepth = depth
            for resource in deepest { parseEverywhere(resources(resource), options: options) }
        }
        for count in 0...4 {
            var options = ParsingOptions()
            options.maximumResourceCount = count
            let outcome = parseEverywhere(resources(resource), options: options)
            if count < 4, case .success = outcome { Issue.record("\(count) resources allowed 4") }
        }
    }

    /// One rule of the grammar, broken once in an object the whole-object readers would take.
    struct BrokenRule: Sendable, CustomStringConvertible {
        var rule: String
        var kind: ParsingOptions.Kind = .response
        /// The second resource of `data` (the first is plain), or `data` itself for a request.
        var resource: String
        var pointer: String
        var message: String
        var description: String { rule }
    }

    static let brokenRules: [BrokenRule] = [
        BrokenRule(
            rule: "a relationship in a request needs data", kind: .createRequest,
            resource: #"{"type":"articles","relationships":{"author":{"links":{"self":"/a"}}}}"#,
            pointer: "/data/relationships/author", message: "a relationship in a request must contain `data`"),
        BrokenRule(
            rule: "a relationship object needs data, links or meta",
            resource: #"{"type":"articles","id":"2","relationships":{"author":{}}}"#,
            pointer: "/data/1/relationships/author",
            message: "a relationship object must contain at least one of `data`, `links`, `meta`"),
        BrokenRule(
            rule: "an identifier needs an id",
            resource: #"{"type":"articles","id":"2","relationships":{"author":{"data":{"type":"people"}}}}"#,
            pointer: "/data/1/relationships/author/data",
            message: "a resource identifier object must have an `id` member"),
        BrokenRule(
            rule: "an identifier needs a type",
            resource: #"{"type":"articles","id":"2","relationships":{"author":{"data":[{"id":"9"}]}}}"#,
            pointer: "/data/1/relationships/author/data/0", message: "a resource identifier object must have a `type`"),
        BrokenRule(
            rule: "an id is a string",
            resource: #"{"type":"articles","id":"2","relationships":{"author":{"data":{"type":"people","id":9}}}}"#,
            pointer: "/data/1/relationships/author/data/id", message: "`id` must be a string"),
        BrokenRule(
            rule: "no member twice in an identifier",
            resource:
                #"{"type":"articles","id":"2","relationships":{"author":{"data":{"type":"people","id":"9","id":"9"}}}}"#,
            pointer: "/data/1/relationships/author/data/id", message: "duplicate member `id`"),
        BrokenRule(
            rule: "a link is a string, a link object or null",
            resource: #"{"type":"articles","id":"2","relationships":{"author":{"data":null,"links":{"self":7}}}}"#,
            pointer: "/data/1/relationships/author/links/self",
            message: "a link must be a string, a link object or null"),
        BrokenRule(
            rule: "a link is a URI",
            resource: #"{"type":"articles","id":"2","relationships":{"author":{"data":null,"links":{"self":"a b"}}}}"#,
            pointer: "/data/1/relationships/author/links/self", message: "a link is not a valid URI"),
        BrokenRule(
            rule: "a relationship's links has only the names the rules give",
            resource: #"{"type":"articles","id":"2","relationships":{"author":{"data":null,"links":{"sel":"/a"}}}}"#,
            pointer: "/data/1/relationships/author/links/sel", message: "must not have a member named `sel`"),
        BrokenRule(
            rule: "a link object needs href", resource: #"{"type":"articles","id":"2","links":{"self":{"hre":"/a"}}}"#,
            pointer: "/data/1/links/self", message: "a link object must contain `href`"),
        BrokenRule(
            rule: "no attribute named id", resource: #"{"type":"articles","id":"2","attributes":{"id":1}}"#,
            pointer: "/data/1/attributes/id", message: "an attribute must not be named `id`"),
        BrokenRule(
            rule: "no relationship named type",
            resource: #"{"type":"articles","id":"2","relationships":{"type":{"data":null}}}"#,
            pointer: "/data/1/relationships/type", message: "a relationship must not be named `type`"),
        BrokenRule(
            rule: "member names obey the rules", resource: #"{"type":"articles","id":"2","attributes":{"a=b":1}}"#,
            pointer: "/data/1/attributes/a=b", message: "invalid attribute name"),
        BrokenRule(
            rule: "no links or relationships inside attribute values",
            resource: #"{"type":"articles","id":"2","attributes":{"a":{"links":1}}}"#,
            pointer: "/data/1/attributes/a/links", message: "must not have a member named `links`"),
        BrokenRule(
            rule: "no attribute twice", resource: #"{"type":"articles","id":"2","attributes":{"a":1,"a":2}}"#,
            pointer: "/data/1/attributes/a", message: "duplicate attribute `a`"),
        BrokenRule(
            rule: "fields share one namespace",
            resource: #"{"type":"articles","id":"2","attributes":{"a":1},"relationships":{"a":{"data":null}}}"#,
            pointer: "/data/1/relationships/a", message: "is both an attribute and a relationship"),
        BrokenRule(
            rule: "a resource in a response needs an id", resource: #"{"type":"articles","attributes":{"a":1}}"#,
            pointer: "/data/1", message: "a resource object must have an `id` member"),
        BrokenRule(
            rule: "a resource needs a type", resource: #"{"id":"2"}"#, pointer: "/data/1",
            message: "a resource object must have a `type` member"),
        BrokenRule(
            rule: "a type obeys the member-name rules", resource: #"{"type":"","id":"2"}"#, pointer: "/data/1/type",
            message: "invalid `type` value"),
    ]

    /// The readers restate no rule: they decline whatever a rule would object to, and the event
    /// path reports it. Each rule broken once gives its error, at its place, strict and lenient,
    /// however the bytes arrive (whole, where the readers run, or a byte at a time, where they
    /// never do).
    @Test("each rule broken once: the same error at the same place on both paths", arguments: brokenRules)
    func eachRuleBrokenOnce(_ broken: BrokenRule) {
        let plain = #"{"type":"articles","id":"1","attributes":{"a":1},"relationships":{"author":{"data":null}}}"#
        let text =
            broken.kind == .response
            ? #"{"data":[\#(plain),\#(broken.resource)]}"# : #"{"data":\#(broken.resource)}"#
        var strict = ParsingOptions()
        strict.kind = broken.kind
        switch parseEverywhere(text, options: strict) {
        case .success:
            Issue.record("\(broken.rule): accepted \(text)")
        case .failure(let error):
            #expect(error.pointer == broken.pointer && error.message.contains(broken.message), "\(error)")
        }
        var lenient = strict
        lenient.isLenient = true
        switch parseEverywhere(text, options: lenient) {
        case .success(let document):
            let found = document.diagnostics.filter {
                $0.pointer == broken.pointer && $0.message.contains(broken.message)
            }
            #expect(found.count == 1, "\(broken.rule): \(document.diagnostics)")
        case .failure(let error):
            Issue.record("\(broken.rule): lenient parse failed with \(error)")
        }
    }
}
