import Testing

@testable @_spi(Backend) import JSONAPI
@testable import JSONAPITestSupport

/// The member-name rules live in one table, `JSONAPIRules`, which the event path and the
/// whole-object readers both read. Each test here changes nothing but the table (one `add`) and
/// checks that the document's outcome changes the same way whether it is parsed whole (where
/// the whole-object readers take the resources) or a byte at a time (where only the events
/// run): `parseEverywhere` requires the same records and diagnostics from both.
@Suite("JSON:API rules table")
struct JSONAPIRulesTests {
    private static func options(_ change: (inout JSONAPIRules) -> Void) -> ParsingOptions {
        var options = ParsingOptions()
        change(&options.rules)
        return options
    }

    private static func messages(_ result: Result<Document, JSONAPIError>) -> [String] {
        switch result {
        case .success(let document): document.diagnostics.map(\.message)
        case .failure(let error): [error.message] + error.diagnostics.map(\.message)
        }
    }

    /// A compound document in the plain shape the whole-object readers take: one article with an
    /// attribute and a relationship, and the included person.
    private static func document(attribute: String = "title", relationship: String = "author", links: String = "")
        -> String
    {
        #"{"data":[{"type":"articles","id":"1","attributes":{"\#(attribute)":"Hi","body":{"a":1}},"#
            + #""relationships":{"\#(relationship)":{\#(links)"data":{"type":"people","id":"9"}}}}],"#
            + #""included":[{"type":"people","id":"9","attributes":{"name":"Ann"}}]}"#
    }

    @Test("the standard table is the specification's: every set holds the names 1.1 gives it")
    func standardTable() {
        let rules = JSONAPIRules.standard
        #expect(Set(rules.names(in: .topLevel)) == ["data", "errors", "meta", "jsonapi", "links", "included"])
        #expect(
            Set(rules.names(in: .resource)) == ["type", "id", "lid", "attributes", "relationships", "links", "meta"])
        #expect(Set(rules.names(in: .identifier)) == ["type", "id", "lid", "meta"])
        #expect(Set(rules.names(in: .relationship)) == ["data", "links", "meta"])
        #expect(
            Set(rules.names(in: .linkObject)) == ["href", "rel", "describedby", "title", "type", "hreflang", "meta"])
        #expect(
            Set(rules.names(in: .error)) == ["id", "links", "status", "code", "title", "detail", "source", "meta"])
        #expect(Set(rules.names(in: .errorSource)) == ["pointer", "parameter", "header"])
        #expect(Set(rules.names(in: .jsonapi)) == ["version", "ext", "profile", "meta"])
        #expect(
            Set(rules.names(in: .topLevelLinks))
                == ["self", "related", "describedby", "first", "last", "prev", "next"])
        #expect(Set(rules.names(in: .relationshipLinks)) == ["self", "related", "first", "last", "prev", "next"])
        #expect(Set(rules.names(in: .errorLinks)) == ["about", "type"])
        #expect(Set(rules.names(in: .reservedFieldNames)) == ["type", "id"])
        #expect(Set(rules.names(in: .reservedInAttributeValues)) == ["relationships", "links"])
    }

    @Test("a name added to the reserved field names is refused as an attribute and a relationship on every path")
    func reservedFieldName() throws {
        let standard = parseEverywhere(Self.document(attribute: "kind"))
        #expect(Self.messages(standard).isEmpty)
        let rules = Self.options { $0.add("kind", to: .reservedFieldNames) }

        let attribute = parseEverywhere(Self.document(attribute: "kind"), options: rules)
        #expect(Self.messages(attribute).contains { $0.contains("an attribute must not be named `kind`") })
        let relationship = parseEverywhere(Self.document(relationship: "kind"), options: rules)
        #expect(Self.messages(relationship).contains { $0.contains("a relationship must not be named `kind`") })
        #expect(Self.messages(parseEverywhere(Self.document(), options: rules)).isEmpty)
    }

    @Test("a link name added for relationships is accepted on every path, and refused without it")
    func relationshipLinkName() throws {
        let links = #""links":{"describedby":"/schemas/author","self":"/articles/1/relationships/author"},"#
        let standard = parseEverywhere(Self.document(links: links))
        #expect(
            Self.messages(standard).contains {
                $0.contains("a relationship's `links` object must not have a member named `describedby`")
            })
        let extended = parseEverywhere(
            Self.document(links: links), options: Self.options { $0.add("describedby", to: .relationshipLinks) })
        #expect(Self.messages(extended).isEmpty)
    }

    @Test("a name added to those reserved inside attribute values is refused there on every path")
    func reservedInAttributeValues() throws {
        let text = #"{"data":{"type":"articles","id":"1","attributes":{"body":{"blocks":[{"meta":1}]}}}}"#
        #expect(Self.messages(parseEverywhere(text)).isEmpty)
        let refused = parseEverywhere(text, options: Self.options { $0.add("meta", to: .reservedInAttributeValues) })
        #expect(
            Self.messages(refused).contains {
                $0.contains("an object inside an attribute value must not have a member named `meta`")
            })
    }

    @Test("a member added to an object is read as that member on every path")
    func addedMember() throws {
        // A resource identifier whose `ref` means `id`: the whole-object reader looks the key up
        // in the table, so it takes the identifier; the events do the same.
        let text =
            #"{"data":{"type":"articles","id":"1","relationships":{"author":{"data":{"type":"people","ref":"9"}}}}}"#
        #expect(!Self.messages(parseEverywhere(text)).isEmpty)
        let document = try parseEverywhere(text, options: Self.options { $0.add("ref", to: .identifier, as: .id) })
            .get()
        #expect(document.diagnostics.isEmpty)
        let author = document.primaryResources.first?.relationship("author")?.identifiers.first
        #expect(author?.type == "people" && author?.id == "9")
    }

    @Test("duplicate members are found for every member of the table, the last ones included")
    func duplicates() {
        for name in ["version", "ext", "profile", "meta"] {
            let value = name == "version" ? #""1.1""# : (name == "meta" ? "{}" : "[]")
            let text = #"{"meta":{},"jsonapi":{"\#(name)":\#(value),"\#(name)":\#(value)}}"#
            #expect(
                Self.messages(parseEverywhere(text)).contains { $0.contains("duplicate member `\(name)`") }, "\(name)")
        }
    }

    @Test("quoted keys match only whole names, and only when the sixteen bytes are in the buffer")
    func quotedKeys() {
        let rules = JSONAPIRules.standard
        func key(_ text: String, padded: Bool = true) -> DocumentBuilder.Member? {
            let bytes = Array(text.utf8) + (padded ? Array(repeating: UInt8(ascii: " "), count: 16) : [])
            return bytes.withUnsafeBytes { buffer in
                rules.quotedKey(buffer.baseAddress!, at: 0, count: buffer.count, in: .resource)?.member
            }
        }
        #expect(key(#""type":"#) == .type)
        #expect(key(#""relationships":"#) == .relationships)
        #expect(key(#""types":"#) == nil)
        #expect(key(#""typ":"#) == nil)
        #expect(key(#""ty\u0070e":"#) == nil)
        #expect(key(#""type":"#, padded: false) == nil)
    }
}
