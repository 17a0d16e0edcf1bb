import JSONAPI
import Testing

@testable import JSONAPIServer
@testable import JSONAPITestSupport

/// The service writes a stored record member by member; `present(_:fields:)` builds the shown
/// copy and writes it. Both must give the same bytes for every record, fieldset and link setting.
@Suite("Resource service: presentation")
struct PresentationTests {
    static func records(_ sources: Library.Sources) async throws -> [JSONAPIResourceObject] {
        var records: [JSONAPIResourceObject] = []
        records += try await ResourceRecords.records(of: sources.books.list(ResourceListQuery()).models)
        records += try await ResourceRecords.records(of: sources.authors.list(ResourceListQuery()).models)
        records += try await ResourceRecords.records(of: sources.reviews.list(ResourceListQuery()).models)
        // Shapes a data source may store beside the encoder's: a lid, meta, a relationship
        // without data and with meta, attributes that are all filtered away.
        records.append(
            JSONAPIResourceObject(
                type: "books", id: "x/1", lid: "l", attributes: ["title": "T"],
                relationships: ["author": JSONAPIRelationship(data: nil, meta: ["m": 1])], meta: ["n": true]))
        records.append(JSONAPIResourceObject(type: "authors", id: "9"))
        return records
    }

    @Test(
        "the member-by-member writer and the presented copy write the same bytes",
        arguments: [nil, "", "https://api.example.com/v1"] as [String?])
    func sameBytes(linkBase: String?) async throws {
        let sources = try Library.sources()
        var service = Library.service(sources) { $0.fields.hidden = ["rating"] }
        service.linkBase = linkBase
        let fieldsets: [[String: Set<String>]?] = [
            nil, ["books": ["title", "author"]], ["books": []], ["authors": ["name"], "books": ["reviews"]],
        ]
        for record in try await Self.records(sources) {
            for fields in fieldsets {
                var direct = JSONWriter()
                service.write(record, fields: fields, to: &direct)
                var presented = JSONWriter()
                service.present(record, fields: fields).write(to: &presented)
                #expect(
                    try direct.finish() == presented.finish(),
                    "\(record.type)/\(record.id ?? "") \(String(describing: fields))")
            }
        }
    }

    /// An id in a link is one path segment: every byte outside RFC 3986's unreserved set is
    /// percent-encoded (uppercase hex), the rest kept; checked against a byte-by-byte model.
    @Test func pathSegmentsEncodeAllButUnreservedBytes() {
        #expect(PathSegment.encode("") == "")
        #expect(PathSegment.encode("Az09-._~") == "Az09-._~")
        #expect(PathSegment.encode("x/1 ?#%") == "x%2F1%20%3F%23%25")
        #expect(PathSegment.encode("ç😀") == "%C3%A7%F0%9F%98%80")
        let unreserved = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~".utf8)
        var random = SplitMix64(seed: 5)
        for _ in 0..<500 {
            let bytes = (0..<Int(random.next() % 12)).map { _ in UInt8(truncatingIfNeeded: random.next() % 128) }
            let id = String(decoding: bytes, as: UTF8.self)
            var model = ""
            for byte in id.utf8 {
                if unreserved.contains(byte) {
                    model.unicodeScalars.append(Unicode.Scalar(byte))
                } else {
                    let hex = String(byte, radix: 16, uppercase: true)
                    model += "%" + (hex.count == 1 ? "0" + hex : hex)
                }
            }
            #expect(PathSegment.encode(id) == model, "\(bytes)")
        }
    }
}
