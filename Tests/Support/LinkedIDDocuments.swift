import Foundation
import Testing

@testable import JSONAPI

/// A model of the remarks in ``LinkedIDDocuments``. The decoding tests declare one without
/// `@ResourceReadable` and the macro tests one with it, so the `Decoder` path and the reader path
/// are held to the same checks.
protocol LinkedRemark: Decodable, JSONAPIResource {
    var author: Identifier<LinkedAuthor>? { get }
    var cosigners: [Identifier<LinkedAuthor>]? { get }
}

struct LinkedAuthor: Decodable, JSONAPIResource {
    static let resourceType = "authors"
    var id: String
}

/// Remarks whose authors are linked by long ids. After its first few long ids, a decode makes one
/// `String` for each linked resource and hands it to every linkage that names it; a decoder reused
/// by the next decode keeps none of them.
enum LinkedIDDocuments {
    static let uuid = "1ebf9e7b-3e2f-489b-a3ad-3afb01ade5d5"
    static let other = "00000000-0000-4000-8000-00000000beef"

    /// ``ResourceDecoder/unsharedLinkedIDLimit`` remarks by the author `uuid`, then five: by
    /// `uuid` (one of them also with cosigners, one spelling the id with an escape), by an author
    /// who is not in the document, and by an author with a short id. The included author's id is
    /// `includedID`.
    static func remarks(includedID: String = uuid) -> String {
        // Sharing starts after the first few long ids of a decode: these use them up.
        let leading = (0..<ResourceDecoder.unsharedLinkedIDLimit).map { index in
            #"{"type":"remarks","id":"f\#(index)","relationships":{"author":{"data":{"type":"authors","id":"\#(uuid)"}}}},"#
        }
        return #"""
            {"data":[\#(leading.joined())
              {"type":"remarks","id":"1","relationships":{"author":{"data":{"type":"authors","id":"\#(uuid)"}}}},
              {"type":"remarks","id":"2","relationships":{"author":{"data":{"type":"authors","id":"\#(uuid)"}},
                "cosigners":{"data":[{"type":"authors","id":"\#(uuid)"},{"type":"authors","id":"a1"}]}}},
              {"type":"remarks","id":"3","relationships":{"author":{"data":{"type":"authors",
                "id":"1ebf9e7b\u002d3e2f-489b-a3ad-3afb01ade5d5"}}}},
              {"type":"remarks","id":"4","relationships":{"author":{"data":{"type":"authors","id":"\#(other)"}}}},
              {"type":"remarks","id":"5","relationships":{"author":{"data":{"type":"authors","id":"a1"}}}}],
             "included":[{"type":"authors","id":"a1"},{"type":"authors","id":"\#(includedID)"}]}
            """#
    }

    /// Where a string's UTF-8 is stored (its storage object's, for a string of more than 15 bytes).
    static func storage(_ string: String) -> UnsafeRawPointer? {
        var copy = string
        return copy.withUTF8 { UnsafeRawPointer($0.baseAddress) }
    }

    /// Decodes ``remarks(includedID:)`` as `Remark`s: every linkage to the included author,
    /// escaped or not, to-one or in an array, holds the same storage, once the first long ids of
    /// the decode are past; an id nothing in the document has is a string of its own.
    static func expectLinkedResourcesShareOneIDString<Remark: LinkedRemark>(
        _: Remark.Type, options: DecodingOptions = DecodingOptions()
    ) throws {
        let all = try JSONAPIDecoder(options: options).decode([Remark].self, from: Array(remarks().utf8))
        let leading = all.prefix(ResourceDecoder.unsharedLinkedIDLimit)
        #expect(leading.allSatisfy { $0.author?.id == uuid })
        // The first long ids of a decode are strings of their own.
        #expect(storage(leading.first?.author?.id ?? "") != storage(leading.last?.author?.id ?? ""))
        let remarks = Array(all.dropFirst(ResourceDecoder.unsharedLinkedIDLimit))
        #expect(remarks.map(\.author?.id) == [uuid, uuid, uuid, other, "a1"])
        #expect(remarks[1].cosigners?.map(\.id) == [uuid, "a1"])
        let shared = storage(remarks[0].author?.id ?? "")
        #expect(shared != nil)
        for linked in [remarks[1].author?.id, remarks[2].author?.id, remarks[1].cosigners?.first?.id] {
            #expect(storage(linked ?? "") == shared)
        }
        #expect(storage(remarks[3].author?.id ?? "") != shared)
    }

    /// Decoders are reused by the next decode: a document whose included author has another id
    /// at the same record must not see the ids the one before shared.
    static func expectSharedIDsToEndWithTheirDocument<Remark: LinkedRemark>(
        _: Remark.Type, options: DecodingOptions = DecodingOptions()
    ) throws {
        for round in 0..<4 {
            let first = try JSONAPIDecoder(options: options).decode([Remark].self, from: Array(remarks().utf8))
            #expect(first.last?.author?.id == "a1", "round \(round)")
            #expect(first.dropLast(2).allSatisfy { $0.author?.id == uuid }, "round \(round)")
            let text = remarks(includedID: other).replacingOccurrences(of: uuid, with: other)
            let second = try JSONAPIDecoder(options: options).decode([Remark].self, from: Array(text.utf8))
            #expect(
                second.suffix(5).map(\.author?.id) == [other, other, uuid, other, "a1"],
                "round \(round)")
        }
    }
}
