import Testing

@testable @_spi(Backend) import JSONAPI
@testable import JSONAPITestSupport

/// The (type, id) index and the type table, at the edges of their packed representations: ids
/// of every length around the six bytes a short key holds, bytes that look like a length, and
/// more types than a short key (4,096) or a long key (32,768) can number.
@Suite("Resource index")
struct ResourceIndexTests {
    /// `{"data":[...]}` with one resource per (type, id); control characters in ids escaped.
    static func document(_ keys: [(type: String, id: String)]) -> String {
        func quoted(_ text: String) -> String {
            var out = "\""
            for scalar in text.unicodeScalars {
                if scalar.value < 0x20 || scalar == "\"" || scalar == "\\" {
                    out +=
                        "\\u" + String(repeating: "0", count: 4 - String(scalar.value, radix: 16).count)
                        + String(scalar.value, radix: 16)
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
            return out + "\""
        }
        let resources = keys.map { #"{"type":\#(quoted($0.type)),"id":\#(quoted($0.id))}"# }
        return #"{"data":["# + resources.joined(separator: ",") + "]}"
    }

    @Test("six-byte ids are told apart, strict and lenient")
    func sixByteIDs() throws {
        let text = #"{"data":[{"type":"things","id":"000000"},{"type":"things","id":"000002"}]}"#
        for lenient in [false, true] {
            let document = try parseEverywhere(text, options: ParsingOptions(kind: .response, lenient: lenient)).get()
            #expect(document.diagnostics.isEmpty)
            #expect(document.resource(type: "things", id: "000000")?.recordIndex == 0)
            #expect(document.resource(type: "things", id: "000002")?.recordIndex == 1)
            #expect(document.resource(type: "things", id: "000001") == nil)
        }
    }

    @Test("linkage to a six-byte id resolves to that resource")
    func sixByteLinkage() throws {
        let text =
            #"{"data":{"type":"a","id":"1","relationships":{"r":{"data":[{"type":"things","id":"000002"},"#
            + #"{"type":"things","id":"000000"}]}}},"included":[{"type":"things","id":"000000"},"#
            + #"{"type":"things","id":"000002"}]}"#
        let document = try parseEverywhere(text).get()
        let resolved = document.primaryResources[0].relationship("r")?.resolvedResources.map(\.id)
        #expect(resolved == ["000002", "000000"])
    }

    @Test("twenty sequential six-digit ids are twenty resources")
    func sequentialSixDigitIDs() throws {
        let keys = (0..<20).map { (type: "things", id: String(100_000 + $0)) }
        let document = try parseEverywhere(Self.document(keys)).get()
        for (position, key) in keys.enumerated() {
            #expect(document.resource(type: key.type, id: key.id)?.recordIndex == position)
        }
    }

    /// Every id of length 0 to 8 over bytes chosen to collide with a length or a marker in a
    /// packed word: each is found, and only under its own length.
    @Test("ids of every short length over colliding bytes")
    func shortKeysAreDistinct() throws {
        let alphabet = ["\u{0}", "\u{1}", "\u{2}", "\u{6}", "0", "\u{7F}", "\u{FF}"]
        var ids: [String] = [""]
        var seen: Set<[String]> = [[]]
        var frontier: [[String]] = [[]]
        for _ in 1...8 {
            var next: [[String]] = []
            for prefix in frontier {
                // Two extensions per prefix keep the set small but cover every length and byte.
                for (k, piece) in alphabet.enumerated() where (k + prefix.count) % 3 == 0 {
                    let id = prefix + [piece]
                    if seen.insert(id).inserted {
                        next.append(id)
                        ids.append(id.joined())
                    }
                }
            }
            frontier = next
        }
        let keys = ids.map { (type: "t", id: $0) }
        let document = try parseEverywhere(Array(Self.document(keys).utf8), everySplit: false).get()
        #expect(document.diagnostics.isEmpty)
        for (position, key) in keys.enumerated() {
            #expect(document.resource(type: "t", id: key.id)?.recordIndex == position, "id \(Array(key.id.utf8))")
        }
    }

    @Test("short keys of distinct (type, id) pairs are distinct words")
    func shortKeyWords() {
        var words: [UInt64: String] = [:]
        for type: UInt32 in [0, 1, 254, 255, 256, 4095] {
            for length in 0...6 {
                for fill: UInt8 in length == 0 ? [0] : [0, 1, 6, 0x30, 0xFF] {
                    let id = [UInt8](repeating: fill, count: length)
                    let word = id.withUnsafeBytes { ResourceIndex.shortKey(type: type, id: $0) }
                    let name = "type \(type), \(length) x \(fill)"
                    #expect(word != 0, "\(name) is short")
                    if let other = words.updateValue(name, forKey: word) {
                        Issue.record("\(name) packs like \(other)")
                    }
                }
            }
        }
        let long = [UInt8](repeating: 0x30, count: 7)
        #expect(long.withUnsafeBytes { ResourceIndex.shortKey(type: 0, id: $0) } == 0)
        #expect([UInt8]().withUnsafeBytes { ResourceIndex.shortKey(type: 4096, id: $0) } == 0)
    }

    /// Past 4,096 types keys are long; past 32,768 they are confirmed through the records. Every
    /// id is found under its own type only.
    @Test("tens of thousands of types", arguments: [300, 5000, 40000])
    func manyTypes(_ count: Int) throws {
        let keys = (0..<count).map { (type: "t\($0)", id: String($0 % 7)) }
        let document = try Document(parsing: Self.document(keys))
        #expect(document.types.count == count)
        for position in stride(from: 0, to: count, by: max(1, count / 500)) {
            #expect(document.resource(type: "t\(position)", id: String(position % 7))?.recordIndex == position)
            #expect(document.resource(type: "t\(position)", id: String(position % 7 + 1)) == nil)
        }
        #expect(document.resource(type: "t\(count)", id: "0") == nil)
    }

    @Test("a repeated (type, id) among many types is still a duplicate")
    func duplicateAmongManyTypes() {
        var keys = (0..<6000).map { (type: "t\($0)", id: "000000") }
        keys.append((type: "t5000", id: "000000"))
        #expect(throws: JSONAPIError.self) { try Document(parsing: Self.document(keys)) }
        let lenient = try? Document(
            parsing: Self.document(keys), options: ParsingOptions(kind: .response, lenient: true))
        #expect(lenient?.diagnostics.map(\.code) == [.duplicateResource])
        #expect(lenient?.resource(type: "t5000", id: "000000")?.recordIndex == 5000)
    }
}

extension ResourceIndexTests {
    @Test("short and long keys, many types: every lookup exact, duplicates found on both paths")
    func shortAndLongKeys() throws {
        var resources: [String] = []
        let ids = ["1", "12", "123456", "1234567", "", "é", "abcdefghijklmnop"]
        for type in 0..<300 {
            for id in ids where !(id.isEmpty) {
                resources.append(#"{"type":"t\#(type)","id":"\#(id)"}"#)
            }
        }
        let text = #"{"data":["# + resources.joined(separator: ",") + "]}"
        let document = try Document(parsing: text)
        for type in [0, 1, 254, 255, 256, 299] {
            for id in ids where !id.isEmpty {
                #expect(document.resource(type: "t\(type)", id: id)?.id == id, "t\(type)/\(id)")
            }
            #expect(document.resource(type: "t\(type)", id: "9") == nil)
            #expect(document.resource(type: "t\(type)", id: "1234568") == nil)
            #expect(document.resource(type: "t\(type)", id: "12345") == nil)
        }
        // Escaped ids are confirmed through their records, plain long ones through the input:
        // the same id spelled both ways is one key, found either way, and a duplicate either way.
        let escaped = #"{"data":[{"type":"t","id":"abc\u0064efgh"},{"type":"u","id":"abcdefgh"}]}"#
        let both = try Document(parsing: escaped)
        #expect(both.resource(type: "t", id: "abcdefgh")?.type == "t")
        #expect(both.resource(type: "u", id: "abcdefgh")?.type == "u")
        #expect(both.resource(type: "t", id: "abcdefgi") == nil)
        for pair in [
            #"[{"type":"t","id":"abc\u0064efgh"},{"type":"t","id":"abcdefgh"}]"#,
            #"[{"type":"t","id":"abcdefgh"},{"type":"t","id":"abc\u0064efgh"}]"#,
        ] {
            #expect(throws: JSONAPIError.self, "\(pair)") { try Document(parsing: #"{"data":"# + pair + "}") }
        }
        for (type, id) in [(3, "123456"), (3, "1234567"), (280, "1"), (280, "abcdefghijklmnop")] {
            let duplicated = #"{"data":[{"type":"t\#(type)","id":"\#(id)"},{"type":"t\#(type)","id":"\#(id)"}]}"#
            #expect(throws: JSONAPIError.self, "t\(type)/\(id)") { try Document(parsing: duplicated) }
        }
    }

    /// Builds `document`'s index again with `probeLimit` and checks every lookup against it.
    private func rebuiltIndex(_ document: Document, probeLimit: Int) -> (ResourceIndex, [(Int, Int)]) {
        let arena = document.storage.arena
        var index = ResourceIndex()
        var duplicates: [(Int, Int)] = []
        document.storage.withBytes { input in
            index.build(resources: arena.resources, input: input, probeLimit: probeLimit) {
                duplicates.append(($0, $1))
            }
        }
        return (index, duplicates)
    }

    @Test("the fast hash is used for ordinary documents, and lookups agree with SipHash")
    func fastHashForOrdinaryDocuments() throws {
        let ids = (0..<2000).map { $0 % 3 == 0 ? "\($0)" : "00000000-0000-4000-8000-\(String($0, radix: 16))" }
        let text =
            #"{"data":["# + ids.map { #"{"type":"t\#($0.count % 5)","id":"\#($0)"}"# }.joined(separator: ",") + "]}"
        let document = try Document(parsing: text)
        #expect(!document.storage.arena.index.usesSipHash)
        let (sip, duplicates) = rebuiltIndex(document, probeLimit: 0)
        #expect(sip.usesSipHash, "with no probing allowed, the first collision switches to SipHash")
        #expect(duplicates.isEmpty)
        let arena = document.storage.arena
        document.storage.withBytes { input in
            for position in arena.resources.indices {
                let record = arena.resources[position]
                let id = input.slice(record.id)
                #expect(
                    sip.find(type: record.type, id: id, resources: arena.resources, input: input) == UInt32(position))
                #expect(
                    arena.index.find(type: record.type, id: id, resources: arena.resources, input: input)
                        == UInt32(position))
            }
        }
    }

    @Test("a document whose keys probe too far is indexed with SipHash, duplicates still found once")
    func sipHashFallbackFindsDuplicates() throws {
        var resources = (0..<300).map { #"{"type":"t","id":"x\#($0)"}"# }
        resources.append(#"{"type":"t","id":"x17"}"#)
        resources.append(#"{"type":"t","id":"a-much-longer-identifier-than-six-bytes"}"#)
        resources.append(#"{"type":"t","id":"a-much-longer-identifier-than-six-bytes"}"#)
        let document = try Document(parsing: #"{"data":["# + resources.joined(separator: ",") + "]}", options: lenient)
        let (index, duplicates) = rebuiltIndex(document, probeLimit: 0)
        #expect(index.usesSipHash)
        #expect(duplicates.map(\.0) == [17, 301] && duplicates.map(\.1) == [300, 302])
    }

    private var lenient: ParsingOptions {
        var options = ParsingOptions()
        options.isLenient = true
        return options
    }
}

@Suite("Type table")
struct TypeTableTests {
    @Test("interning finds every name again, short and long, past the linear limit")
    func interning() {
        var table = TypeTable()
        let names = (0..<3000).map { i in i % 3 == 0 ? "type-\(i)" : String(repeating: "x", count: i % 40) + "-\(i)" }
        for (i, name) in names.enumerated() {
            var utf8 = Array(name.utf8)
            let index = utf8.withUnsafeMutableBytes { table.intern(UnsafeRawBufferPointer($0)) }
            #expect(index == UInt32(i))
        }
        for (i, name) in names.enumerated().reversed() {
            #expect(table.index(of: name) == UInt32(i))
            #expect(table.name(UInt32(i)) == name)
            var utf8 = Array(name.utf8)
            #expect(utf8.withUnsafeMutableBytes { table.find(UnsafeRawBufferPointer($0)) } == UInt32(i))
        }
        #expect(table.index(of: "type-1") == nil)
        #expect(table.index(of: "") == nil)
        #expect(table.count == names.count)
    }
}
