/// How a generated document's resource ids look.
///
/// The default, ``standard``, is what the generator has always written (and what the benchmarks
/// compare over time): articles, comments and tags numbered from 1, people as UUIDs. The other
/// schemes give every type the same kind of id, so that tests and tools can try the shapes real
/// APIs use: ids of every width (``sequential(start:)`` from any number), UUIDs, slugs, long
/// opaque tokens, and ids whose characters are written with escapes.
///
/// Every scheme is deterministic for a seed, and the ids of one type are distinct.
///
/// ```swift
/// var generator = CompoundDocumentGenerator(resources: 1_000, seed: 4)
/// generator.idScheme = .sequential(start: 100_000)   // 100000, 100001, ... for every type
/// let bytes = generator.generate()
/// let first = generator.identifier(ofResourceAt: 0)  // (type: "articles", id: "100000")
/// ```
public enum IDScheme: Sendable, Hashable, CustomStringConvertible {
    /// Articles, comments and tags numbered from 1; people as UUIDs (the generator's original ids).
    case standard
    /// Every type numbered from `start` (0 or more): `start`, `start + 1`, ...
    case sequential(start: Int)
    /// Lower-case version 4 UUIDs (36 bytes), distinct within each type.
    case uuid
    /// Words joined by hyphens, ending in the resource's number: `swift-parser-42`.
    case slug
    /// Opaque tokens of 40 to 100 URL-safe characters, as some APIs use for cursors and keys.
    case opaque
    /// Ids holding characters JSON escapes (quote, backslash, control characters, `NUL`) and
    /// non-ASCII ones, each written raw or as an escape (`\u00e9`, `\/`, a surrogate pair); the
    /// same id is spelled differently in its resource object and in linkage.
    case escaped

    /// Parses the command-line spelling: `standard`, `sequential` (from 1), `sequential:START`,
    /// `uuid`, `slug`, `opaque` or `escaped`; nil for anything else.
    public init?(argument: String) {
        switch argument {
        case "standard": self = .standard
        case "sequential": self = .sequential(start: 1)
        case "uuid": self = .uuid
        case "slug": self = .slug
        case "opaque": self = .opaque
        case "escaped": self = .escaped
        default:
            let prefix = "sequential:"
            guard argument.hasPrefix(prefix), let start = Int(argument.dropFirst(prefix.count)), start >= 0 else {
                return nil
            }
            self = .sequential(start: start)
        }
    }

    /// The command-line spelling, which ``init(argument:)`` reads back.
    public var description: String {
        switch self {
        case .standard: "standard"
        case .sequential(let start): "sequential:\(start)"
        case .uuid: "uuid"
        case .slug: "slug"
        case .opaque: "opaque"
        case .escaped: "escaped"
        }
    }

    /// The most bytes an id takes in the document (escapes included).
    static let maximumSpelledBytes = 128
}

/// The resource types of a generated document, in document order.
enum GeneratedKind: Int, CaseIterable {
    case article, comment, person, tag

    var typeName: String {
        switch self {
        case .article: "articles"
        case .comment: "comments"
        case .person: "people"
        case .tag: "tags"
        }
    }
}

/// Where an id is written: its spelling may differ from place to place (``IDScheme/escaped``).
enum IDSite: UInt64 {
    case resource = 0
    case linkage = 1
    case backReference = 2
}

/// Writes and describes the ids of one generated document.
struct IDWriter {
    let scheme: IDScheme
    /// Keys the UUIDs; for `people` it is the key the generator always used.
    private let personKey: UInt64
    private let seed: UInt64

    init(scheme: IDScheme, seed: UInt64) {
        self.scheme = scheme
        self.seed = seed
        personKey = SplitMix64.mix(seed ^ 0x5EED_0F9E_091E)
    }

    /// Appends the id of resource `index` of `kind` as JSON string contents.
    @inline(__always)
    func append(_ kind: GeneratedKind, _ index: Int, site: IDSite, to output: inout ByteBuffer) {
        switch scheme {
        case .standard:
            if kind == .person {
                appendUUID(index, key: personKey, to: &output)
            } else {
                output.append(decimal: index + 1)
            }
        case .sequential(let start):
            output.append(decimal: start + index)
        case .uuid:
            appendUUID(index, key: key(kind), to: &output)
        case .slug:
            appendSlug(kind, index, to: &output)
        case .opaque:
            appendOpaque(kind, index, to: &output)
        case .escaped:
            appendEscaped(kind, index, site: site, to: &output)
        }
    }

    /// The id of resource `index` of `kind`, decoded (escapes resolved).
    func id(_ kind: GeneratedKind, _ index: Int) -> String {
        if case .escaped = scheme {
            var text = String(index + 1)
            for fragment in fragments(kind, index) { text += Self.fragments[fragment].decoded }
            return text
        }
        var buffer = ByteBuffer(capacity: IDScheme.maximumSpelledBytes)
        defer { buffer.deallocate() }
        append(kind, index, site: .resource, to: &buffer)
        return String(decoding: buffer.bytes, as: UTF8.self)
    }

    private func key(_ kind: GeneratedKind) -> UInt64 {
        kind == .person ? personKey : SplitMix64.mix(personKey ^ UInt64(kind.rawValue + 1))
    }

    /// A UUID-shaped id, unique per index: its last 60 bits are a bijection of the index.
    private func appendUUID(_ index: Int, key: UInt64, to output: inout ByteBuffer) {
        let mask: UInt64 = (1 << 60) - 1
        var low = (UInt64(truncatingIfNeeded: index) ^ key) & mask
        low = (low &* 0x9E37_79B9_7F4A_7C15) & mask
        low ^= low >> 29
        low = (low &* 0xBF58_476D_1CE4_E5B9) & mask
        low ^= low >> 32
        let high = SplitMix64.mix(low ^ key)
        output.append(hex: high >> 32, digits: 8)
        output.append(UInt8(ascii: "-"))
        output.append(hex: high >> 16, digits: 4)
        output.append("-4")
        output.append(hex: high, digits: 3)
        output.append(UInt8(ascii: "-"))
        output.append(hex: 0x8 | ((high >> 12) & 0x3), digits: 1)
        output.append(hex: low >> 48, digits: 3)
        output.append(UInt8(ascii: "-"))
        output.append(hex: low, digits: 12)
    }

    /// Two to four words, then the resource's number (distinct, since words hold no hyphen).
    private func appendSlug(_ kind: GeneratedKind, _ index: Int, to output: inout ByteBuffer) {
        var random = SplitMix64(seed: key(kind) ^ UInt64(truncatingIfNeeded: index))
        for _ in 0..<random.next(in: 2...4) {
            output.append(Vocabulary.words[random.next(below: Vocabulary.words.count)])
            output.append(UInt8(ascii: "-"))
        }
        output.append(decimal: index + 1)
    }

    private static let opaqueAlphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    /// 16 hex digits of a bijection of the index (so distinct), then URL-safe characters to a
    /// length of 40 to 100.
    private func appendOpaque(_ kind: GeneratedKind, _ index: Int, to output: inout ByteBuffer) {
        let head = SplitMix64.mix(UInt64(truncatingIfNeeded: index) ^ key(kind))
        output.append(hex: head, digits: 16)
        var random = SplitMix64(seed: head)
        let length = random.next(in: 40...100)
        for _ in 16..<length {
            output.append(Self.opaqueAlphabet[random.next(below: Self.opaqueAlphabet.count)])
        }
    }

    /// A character and its spellings in a JSON string.
    struct Fragment {
        var decoded: String
        var spellings: [StaticString]
    }

    /// The first five hold a character that must be escaped, so every id has an escape.
    static let fragments: [Fragment] = [
        Fragment(decoded: "\"", spellings: [#"\""#, #"\u0022"#]),
        Fragment(decoded: "\\", spellings: [#"\\"#, #"\u005c"#, #"\u005C"#]),
        Fragment(decoded: "\n", spellings: [#"\n"#, #"\u000a"#]),
        Fragment(decoded: "\t", spellings: [#"\t"#, #"\u0009"#]),
        Fragment(decoded: "\u{0}", spellings: [#"\u0000"#]),
        Fragment(decoded: "é", spellings: ["é", #"\u00e9"#, #"\u00E9"#]),
        Fragment(decoded: "/", spellings: ["/", #"\/"#, #"\u002f"#]),
        Fragment(decoded: "😀", spellings: ["😀", #"\ud83d\ude00"#, #"\uD83D\uDE00"#]),
        Fragment(decoded: "中", spellings: ["中", #"\u4e2d"#]),
        Fragment(decoded: " ", spellings: [" ", #"\u0020"#]),
        Fragment(decoded: "x", spellings: ["x", #"\u0078"#]),
    ]
    static let mustEscapeCount = 5

    /// Which fragments follow the number of resource `index`: one that must be escaped, then 0 to 3 more.
    private func fragments(_ kind: GeneratedKind, _ index: Int) -> [Int] {
        var random = SplitMix64(seed: key(kind) ^ UInt64(truncatingIfNeeded: index) ^ 0xE5CA_9ED)
        var result = [random.next(below: Self.mustEscapeCount)]
        for _ in 0..<random.next(below: 4) { result.append(random.next(below: Self.fragments.count)) }
        return result
    }

    /// The resource's number (so distinct: no fragment is a digit), then its fragments, each
    /// spelled as the site and index choose.
    private func appendEscaped(_ kind: GeneratedKind, _ index: Int, site: IDSite, to output: inout ByteBuffer) {
        output.append(decimal: index + 1)
        var spelling = SplitMix64(seed: SplitMix64.mix(UInt64(truncatingIfNeeded: index) ^ site.rawValue ^ seed))
        for fragment in fragments(kind, index) {
            let spellings = Self.fragments[fragment].spellings
            output.append(spellings[spelling.next(below: spellings.count)])
        }
    }
}
