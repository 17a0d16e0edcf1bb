import Foundation
import Synchronization
import Testing

@testable @_spi(Backend) import JSONAPI
@testable import JSONAPITestSupport

/// Limits are validated before any byte is read, and raising them to their ceiling never turns
/// a clean error into a crash.
@Suite("Parsing and decoding limits")
struct ParsingOptionsTests {
    static let valid = Array(#"{"data":null}"#.utf8)

    @Test("an out-of-range limit is an invalid-option error without a place, on every entry point")
    func invalidLimits() {
        for (name, options) in ParsingFixtures.outOfRangeOptions {
            let whole = #expect(throws: JSONAPIError.self) { try Document(parsing: Self.valid, options: options) }
            #expect(whole?.code == .invalidOption, "\(name)")
            #expect(whole?.offset == -1 && whole?.line == 0, "\(name): \(String(describing: whole))")
            #expect(whole?.message.contains("ParsingOptions.\(name)") == true, "\(whole?.message ?? "")")

            var parser = DocumentParser(options: options, expectedByteCount: 1 << 20)
            let fed = #expect(throws: JSONAPIError.self) { try parser.feed(Self.valid) }
            #expect(fed == whole)
            #expect(throws: JSONAPIError.self) { _ = try parser.finish() }
            var unfed = DocumentParser(options: options)
            #expect(throws: JSONAPIError.self) { _ = try unfed.finish() }
        }
    }

    @Test("the documented ranges' ends are accepted")
    func boundaries() throws {
        var options = ParsingOptions()
        options.maximumDepth = ParsingOptions.depthCeiling
        options.maximumDocumentBytes = Int(UInt32.max) - 1
        options.maximumResourceCount = 0
        options.maximumDiagnostics = 0
        options.maximumStringBytes = 4
        try options.validate()
        let document = try Document(parsing: Self.valid, options: options)
        #expect(document.primaryResources.isEmpty)
        options.maximumDocumentBytes = 0
        #expect(throws: JSONAPIError.self) { try Document(parsing: Self.valid, options: options) }
    }

    @Test("decoding options are validated by every decode")
    func decodingLimits() throws {
        let text = #"{"data":{"type":"things","id":"1","attributes":{"value":[1]}}}"#
        let document = try Document(parsing: text)
        for change in [
            { (options: inout DecodingOptions) in options.maximumDepth = 0 },
            { $0.maximumDepth = ParsingOptions.depthCeiling + 1 },
            { $0.maximumRelationshipDepth = -1 },
        ] {
            var options = DecodingOptions()
            change(&options)
            #expect(throws: JSONAPIError.self) { try options.validate() }
            let error = #expect(throws: JSONAPIError.self) { try document.decode(Thing.self, options: options) }
            #expect(error?.code == .invalidOption)
            let lazy = document.primary(as: Thing.self, options: options)
            #expect(throws: JSONAPIError.self) { try lazy.element(at: 0) }
        }
    }

    struct Thing: Decodable, JSONAPIResource {
        static let resourceType = "things"
        var id: String
        var value: JSON
    }

    /// `{"data":{... "attributes":{"value": [[[...]]]}}}` with `depth` nested arrays.
    static func deepAttribute(_ depth: Int) -> [UInt8] {
        Array(
            (#"{"data":{"type":"things","id":"1","attributes":{"value":"# + String(repeating: "[", count: depth)
                + String(repeating: "]", count: depth) + "}}}").utf8)
    }

    @Test("a JSON property counts towards DecodingOptions.maximumDepth")
    func jsonPropertyDepth() throws {
        var parsing = ParsingOptions()
        parsing.maximumDepth = ParsingOptions.depthCeiling
        let document = try Document(parsing: Self.deepAttribute(2000), options: parsing)
        let error = #expect(throws: DecodingError.self) { try document.decode(Thing.self) }
        #expect("\(String(describing: error))".contains("DecodingOptions.maximumDepth"))
        var options = DecodingOptions()
        options.maximumDepth = ParsingOptions.depthCeiling
        let thing = try document.decode(Thing.self, options: options)
        var levels = 0
        var value = thing.value
        while case .array(let elements) = value {
            levels += 1
            value = elements.first ?? .null
        }
        #expect(levels == 2000)

        let shallow = try Document(parsing: Self.deepAttribute(200))
        #expect(throws: Never.self) { try shallow.decode(Thing.self) }
    }

    /// The deepest value any document can hold, copied into an owned `JSON`, compared, hashed and
    /// released on a thread with the 512 KiB stack of Apple platforms' secondary threads.
    @Test("owned copies of the deepest values fit a small stack")
    func deepestCopyOnSmallStack() throws {
        var parsing = ParsingOptions()
        parsing.maximumDepth = ParsingOptions.depthCeiling
        let document = try Document(parsing: Self.deepAttribute(ParsingOptions.depthCeiling - 3), options: parsing)
        let view = try #require(document.primaryResources.first?.attributes["value"])
        let outcome = Mutex<Bool?>(nil)
        let thread = Thread {
            var copy: JSON? = JSON(view)
            let other = JSON(view)
            let same = copy == other && copy?.hashValue == other.hashValue && copy != .array([])
            copy = nil
            outcome.withLock { $0 = same }
        }
        thread.stackSize = 512 * 1024
        thread.start()
        let deadline = Date().addingTimeInterval(60)
        while outcome.withLock({ $0 }) == nil && Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
        #expect(outcome.withLock { $0 } == true)
    }
}
