import Foundation
import JSONAPI
import Testing

@testable import JSONAPITestSupport

/// The README's "Writing JSON:API" example of `JSON` members, identifier meta and the
/// `jsonapi` object, compiled and run as written there.
@Suite("README examples: writing")
struct EncoderReadmeExampleTests {
    struct Tag: Codable, JSONAPIResource {
        static let resourceType = "tags"
        var id: String
    }

    @Test("JSON members, identifier meta and the jsonapi object")
    func freeFormMetaAndJSONAPI() throws {
        let encoder = JSONAPIEncoder()
        encoder.keyEncodingStrategy = .convertToKebabCase

        // From the README:
        struct Note: Codable, JSONAPIResource {
            static let resourceType = "notes"
            var id: String
            var extra: JSON  // any JSON value
            var tags: [Identifier<Tag>]
        }
        let note = Note(
            id: "1", extra: ["score": 0.5, "big": .decimal("18446744073709551616")],
            tags: [Identifier(id: "7", meta: ["primary": true])])
        let info = JSONAPIImplementationInfo(
            version: "1.1", profiles: ["https://example.com/profiles/flags"], meta: ["build": "7f9c"])
        let bytes = try encoder.encode(note, jsonapi: info)
        let back = try JSONAPIDecoder().decode(Note.self, from: bytes)  // back.extra == note.extra
        let primary = back.tags[0].meta?["primary"]?.boolValue  // true
        let sameInfo = try Document(parsing: bytes).jsonapi.map(JSONAPIImplementationInfo.init) == info  // true

        // What the README's comments say.
        #expect(text(bytes).contains(#""tags":{"data":[{"type":"tags","id":"7","meta":{"primary":true}}]}"#))
        #expect(
            text(bytes).hasSuffix(
                #""jsonapi":{"version":"1.1","profile":["https://example.com/profiles/flags"],"meta":{"build":"7f9c"}}}"#
            ))
        #expect(back.extra == note.extra)
        #expect(primary == true)
        #expect(sameInfo)
    }
}
