import Foundation
import JSONAPI
import JSONAPIMacros
import Testing

@testable import JSONAPITestSupport

// Properties declared with a default value, read through `@ResourceReadable`: a strict decode
// reads them as the compiler's `init(from:)` does (the member is required, the default unused);
// a lenient one keeps the default when the member is missing or unreadable, and says so
// (`DecodingProblem.Action.defaultKept`). Through `init(from: any Decoder)` the decoder cannot
// see a default, so the same document leaves the resource out.

enum DefaultedStatus: String, Decodable, Equatable {
    case draft, published
}

/// Literal defaults: read as arguments of the memberwise initializer.
@ResourceReadable
struct DefaultedCounter: Decodable, Equatable, JSONAPIResource {
    static let resourceType = "counters"
    var id: String
    var views: Int = 5
    var status: DefaultedStatus = .draft
    var tags: [String] = ["new"]
    var ratio: Double = -1.5
    var label: String? = "unused"
}

/// A default that is a call: each property is assigned, the default read from the property.
@ResourceReadable
struct DefaultedStamp: Decodable, Equatable, JSONAPIResource {
    static let resourceType = "stamps"
    var id: String
    var created: Date = Date(timeIntervalSince1970: 86_400)
    var count: Int = 1
}

@Suite("Declared defaults under lenient decoding")
struct DefaultValueDecodingTests {
    static var lenient: DecodingOptions {
        var options = DecodingOptions()
        options.tolerance = .lenient
        return options
    }

    static let counters = #"""
        {"data": [
        {"type": "counters", "id": "1", "attributes": {"views": 9, "status": "published", "tags": ["a"], "ratio": 2, "label": "L"}},
        {"type": "counters", "id": "2", "attributes": {"views": "many", "tags": [1], "ratio": 0.5, "label": 7}}
        ]}
        """#

    @Test func aLenientDecodeKeepsTheDeclaredDefaultsAndSaysSo() throws {
        let report = try JSONAPIDecoder(options: Self.lenient).decodeReporting(
            [DefaultedCounter].self, from: Self.counters)
        #expect(
            report.value == [
                DefaultedCounter(id: "1", views: 9, status: .published, tags: ["a"], ratio: 2, label: "L"),
                DefaultedCounter(id: "2", views: 5, status: .draft, tags: ["new"], ratio: 0.5, label: nil),
            ])
        let problems = report.problems
        #expect(problems.map(\.codingPath) == ["[1].views", "[1].status", "[1].tags", "[1].label"])
        #expect(problems.map(\.action) == [.defaultKept, .defaultKept, .defaultKept, .setToNil])
        #expect(problems.map(\.kind) == [.invalidValue, .missingValue, .invalidValue, .invalidValue])
        #expect(
            problems.map(\.pointer) == [
                "/data/1/attributes/views", "/data/1", "/data/1/attributes/tags/0", "/data/1/attributes/label",
            ])
        #expect(problems.map(\.line) == [3, 3, 3, 3])
        // No value was a resource (`status` is absent: no value at all).
        #expect(problems.allSatisfy { $0.resource == nil }, "\(problems.map(\.resource))")
        let views = try #require(problems.first)
        #expect(views.description.hasPrefix("[1].views kept its default: expected an integer"))
        #expect(problems[3].description.hasPrefix("[1].label read as absent: "))
    }

    @Test func aStrictDecodeReadsThemAsTheCompilersInitDoes() throws {
        for readers in [true, false] {
            var options = DecodingOptions()
            options.usesResourceReaders = readers
            let decoder = JSONAPIDecoder(options: options)
            let error = decodingError { try decoder.decode([DefaultedCounter].self, from: Self.counters) }
            #expect(error?.jsonapiError?.pointer == "/data/1/attributes/views")
            let missing =
                #"{"data": {"type": "counters", "id": "1", "attributes": {"views": 1, "tags": [], "ratio": 1}}}"#
            let keyError = decodingError { try decoder.decode(DefaultedCounter.self, from: missing) }
            guard case .keyNotFound(let key, _)? = keyError else {
                Issue.record("expected keyNotFound, got \(String(describing: keyError))")
                continue
            }
            #expect(key.stringValue == "status")
        }
    }

    @Test func throughInitFromDecoderNoDefaultIsSeen() throws {
        var options = Self.lenient
        options.usesResourceReaders = false
        let report = try JSONAPIDecoder(options: options).decodeReporting([DefaultedCounter].self, from: Self.counters)
        #expect(report.value.map(\.id) == ["1"])
        #expect(report.problems.map(\.action) == [.leftOut])
        #expect(report.problems.map(\.pointer) == ["/data/1/attributes/views"])
    }

    @Test func aDefaultThatIsACallIsReadFromTheProperty() throws {
        var options = Self.lenient
        options.dateDecodingStrategy = .secondsSince1970
        let text = #"""
            {"data": [{"type": "stamps", "id": "1", "attributes": {"created": 60, "count": 3}},
                      {"type": "stamps", "id": "2", "attributes": {"created": "noon"}}]}
            """#
        let report = try JSONAPIDecoder(options: options).decodeReporting([DefaultedStamp].self, from: text)
        #expect(
            report.value == [
                DefaultedStamp(id: "1", created: Date(timeIntervalSince1970: 60), count: 3),
                DefaultedStamp(id: "2", created: Date(timeIntervalSince1970: 86_400), count: 1),
            ])
        #expect(report.problems.map(\.codingPath) == ["[1].created", "[1].count"])
        #expect(report.problems.map(\.action) == [.defaultKept, .defaultKept])
        #expect(report.problems.map(\.kind) == [.invalidValue, .missingValue])
    }
}
