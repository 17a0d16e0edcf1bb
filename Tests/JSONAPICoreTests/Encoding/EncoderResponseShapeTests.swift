import JSONAPI
import Testing

@testable import JSONAPITestSupport

/// What a response says about relationships the model leaves empty and about related models
/// the request did not ask for: a nil to-one is `{"data": null}`, and `included` holds what
/// `include` asked for and nothing else.
@Suite("Encoder: empty to-one relationships and what is included")
struct EncoderResponseShapeTests {
    typealias F = EncoderFixtures

    struct Post: Encodable, JSONAPIResource {
        static let resourceType = "posts"
        var id: String
        var title: String
        var author: F.Person?
        var editor: Identifier<F.Person>?
        var tags: [Identifier<F.Tag>]?
        var reviewer: Field<Identifier<F.Person>> = .absent
    }

    /// The stream (compact) and the tree (sorted keys) encoders.
    static let encoders: [EncodingOptions] = {
        var sorted = EncodingOptions()
        sorted.sortsKeys = true
        return [EncodingOptions(), sorted]
    }()

    @Test(
        "a nil to-one is written as null linkage; a nil to-many and an absent Field are left out", arguments: encoders)
    func nilToOne(options: EncodingOptions) throws {
        let post = Post(id: "1", title: "T")
        let bytes = try JSONAPIEncoder(options: options).encode(post)
        #expect(
            text(bytes)
                == #"{"data":{"type":"posts","id":"1","attributes":{"title":"T"},"relationships":{"author":{"data":null},"editor":{"data":null}}}}"#
        )
        _ = try parseStrictly(bytes)
        // A create body says the same.
        #expect(text(try JSONAPIEncoder(options: options).encodeCreate(post)).contains(#""author":{"data":null}"#))
    }

    @Test("an update body leaves a nil optional out (Field.null clears)", arguments: encoders)
    func nilInAnUpdate(options: EncodingOptions) throws {
        var post = Post(id: "1", title: "T")
        #expect(
            text(try JSONAPIEncoder(options: options).encodeUpdate(post))
                == #"{"data":{"type":"posts","id":"1","attributes":{"title":"T"}}}"#)
        post.reviewer = .null
        #expect(
            text(try JSONAPIEncoder(options: options).encodeUpdate(post))
                == #"{"data":{"type":"posts","id":"1","attributes":{"title":"T"},"relationships":{"reviewer":{"data":null}}}}"#
        )
    }

    @Test("with no request everything present is included; for a request, only what it asked for", arguments: encoders)
    func includedOnlyWhenAsked(options: EncodingOptions) throws {
        let article = F.article()
        // No request: every related model present, once each.
        let whole = try jsonObject(try JSONAPIEncoder(options: options).encode(article))
        #expect(
            Set(try #require(whole["included"] as? [[String: Any]]).map { "\($0["type"] ?? "")/\($0["id"] ?? "")" })
                == ["people/9", "comments/5", "comments/12", "people/10"])

        // A request without `include`: linkage, no `included`.
        var answering = options
        answering.includesRelatedByDefault = false
        let plain = try jsonObject(try JSONAPIEncoder(options: answering).encode(article))
        #expect(plain["included"] == nil)

        // Exactly the paths asked for.
        var query = try JSONAPIQuery(parsing: "include=author", rules: QueryRules(includePaths: .any))
        var asked = options
        asked.apply(query)
        let json = try jsonObject(try JSONAPIEncoder(options: asked).encode(article))
        let included = try #require(json["included"] as? [[String: Any]])
        #expect(included.map { "\($0["type"] ?? "")/\($0["id"] ?? "")" } == ["people/9"])

        // Asked, nothing matched: an empty `included` (JSON:API 1.1).
        query = try JSONAPIQuery(parsing: "include=author", rules: QueryRules(includePaths: .any))
        var empty = options
        empty.apply(query)
        #expect(
            text(try JSONAPIEncoder(options: empty).encode(Post(id: "1", title: "T"))).hasSuffix(#","included":[]}"#))

        // The endpoint's opt-in for a request that did not ask: everything present.
        var everything = answering
        everything.includesRelatedByDefault = true
        let all = try jsonObject(try JSONAPIEncoder(options: everything).encode(article))
        let keys = Set(
            try #require(all["included"] as? [[String: Any]]).map { "\($0["type"] ?? "")/\($0["id"] ?? "")" })
        #expect(keys == ["people/9", "comments/5", "comments/12", "people/10"])
        // A request's `include` still wins over the opt-in.
        everything.apply(try JSONAPIQuery(parsing: "include=comments", rules: QueryRules(includePaths: .any)))
        let some = try jsonObject(try JSONAPIEncoder(options: everything).encode(article))
        #expect(
            Set(try #require(some["included"] as? [[String: Any]]).map { "\($0["type"] ?? "")/\($0["id"] ?? "")" })
                == ["comments/5", "comments/12"])
    }
}
