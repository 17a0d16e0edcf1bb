import Foundation
import JSONAPI
import Testing

@testable import JSONAPITestSupport

/// Owned links (`JSONAPILink`, `JSONAPILinks`) as `Encodable` values: written by
/// `JSONAPIEncoder` as `write(to:)` writes them, in both of its encoders, and through Foundation's.
@Suite("Encoder: owned links")
struct EncoderLinksTests {
    struct Tag: Codable, JSONAPIResource {
        static let resourceType = "tags"
        var id: String
        var name: String
    }

    static let links: JSONAPILinks = [
        "self": "/tags?page[number]=2",
        "next": JSONAPILink(href: "/tags?page[number]=3", meta: ["page": 3]),
        "describedby": JSONAPILink(href: "/schema", type: "application/schema+json", hreflang: ["en"]),
        "related": JSONAPILink(href: "/about", rel: "help", title: "About", hreflang: ["en", "de"]),
    ]

    static let linksJSON =
        #"{"self":"/tags?page[number]=2","next":{"href":"/tags?page[number]=3","meta":{"page":3}},"#
        + #""describedby":{"href":"/schema","type":"application/schema+json","hreflang":"en"},"#
        + #""related":{"href":"/about","rel":"help","title":"About","hreflang":["en","de"]}}"#

    @Test func topLevelLinksAreWrittenInOrderByBothEncoders() throws {
        let tags = [Tag(id: "1", name: "swift")]
        // Compact and unsorted: the streaming encoder.
        let streamed = text(try JSONAPIEncoder().encode(tags, links: Self.links))
        #expect(streamed.hasSuffix(#","links":"# + Self.linksJSON + "}"))
        // Sorted: the tree encoder; the members of each object in key order.
        var options = EncodingOptions()
        options.formatting.sortsKeys = true
        let sorted = try Document(parsing: try JSONAPIEncoder(options: options).encode(tags, links: Self.links))
        #expect(sorted.links?.names == ["describedby", "next", "related", "self"])
        #expect(sorted.links?["next"]?.meta?["page"]?.int64Value == 3)
        #expect(sorted.links?["related"]?.hreflang == ["en", "de"])
        // The same as the writer's output.
        #expect(try Self.links.jsonString() == Self.linksJSON)
    }

    @Test func aKeyStrategyLeavesLinkNamesAsTheyAre() throws {
        let encoder = JSONAPIEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        let links: JSONAPILinks = ["relatedPosts": "/posts"]
        let written = text(try encoder.encode([Tag(id: "1", name: "x")], links: links))
        #expect(written.hasSuffix(#""links":{"relatedPosts":"/posts"}}"#))
    }

    @Test func foundationEncoderWritesTheSameObject() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .withoutEscapingSlashes
        let foundation = try JSONSerialization.jsonObject(with: encoder.encode(Self.links)) as? NSDictionary
        let ours = try JSONSerialization.jsonObject(with: Data(Self.linksJSON.utf8)) as? NSDictionary
        #expect(foundation != nil && foundation == ours)
        #expect(String(decoding: try encoder.encode(JSONAPILink(href: "/a")), as: UTF8.self) == #""/a""#)
    }
}
