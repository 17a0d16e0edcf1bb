#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Compares raw member names with `CodingKey` names under a ``DecodingOptions/KeyDecodingStrategy``.
///
/// `JSONDecoder` converts every member name of every object into a new `String` before looking
/// keys up. Here the comparison itself applies the strategy, byte by byte, so matching a
/// `first_name` member against the `firstName` key allocates nothing.
struct KeyMatcher {
    enum Mode {
        case exact
        /// Snake (`_`) or kebab (`-`) case, with the separator byte.
        case separated(UInt8)
        case custom(@Sendable ([any CodingKey]) -> any CodingKey)
    }

    let mode: Mode

    init(_ strategy: DecodingOptions.KeyDecodingStrategy) {
        switch strategy {
        case .useDefaultKeys: mode = .exact
        case .convertFromSnakeCase: mode = .separated(UInt8(ascii: "_"))
        case .convertFromKebabCase: mode = .separated(UInt8(ascii: "-"))
        case .custom(let convert): mode = .custom(convert)
        }
    }

    @inline(__always)
    var isExact: Bool {
        if case .exact = mode { return true }
        return false
    }

    /// Whether the unescaped member name `raw` names the key whose UTF-8 is `wanted`.
    ///
    /// - Parameter path: The coding path of the object (only the custom strategy reads it).
    @inline(__always)
    func matches(_ raw: UnsafeRawBufferPointer, _ wanted: UnsafeRawBufferPointer, path: () -> [any CodingKey]) -> Bool {
        switch mode {
        case .exact:
            return unsafe Self.equal(raw, wanted)
        case .separated(let separator):
            return unsafe Self.separatedMatches(raw, wanted, separator: separator)
        case .custom(let convert):
            let name = unsafe String(decoding: raw, as: UTF8.self)
            let converted = convert(path() + [AnyCodingKey(stringValue: name)]).stringValue
            return unsafe converted.utf8.elementsEqual(wanted)
        }
    }

    /// The key name a member name converts to (for `allKeys`).
    func convertedName(_ name: String, path: () -> [any CodingKey]) -> String {
        switch mode {
        case .exact: return name
        case .separated(let separator): return Self.convert(name, separator: Character(UnicodeScalar(separator)))
        case .custom(let convert): return convert(path() + [AnyCodingKey(stringValue: name)]).stringValue
        }
    }

    @inline(__always)
    static func equal(_ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer) -> Bool {
        // SAFETY: both views are used only during this call, while the buffers are lent to it.
        unsafe ByteView(unsafeBytes: a).elementsEqual(ByteView(unsafeBytes: b))
    }

    /// Snake/kebab matching without building the converted name (ASCII letters and digits);
    /// anything else takes the exact `String` path, which follows `JSONDecoder` to the letter.
    static func separatedMatches(_ j: UnsafeRawBufferPointer, _ s: UnsafeRawBufferPointer, separator: UInt8) -> Bool {
        let n = j.count
        var lead = 0
        while unsafe lead < n && j[lead] == separator { lead &+= 1 }
        if lead == n { return unsafe equal(j, s) }
        var last = n &- 1
        while unsafe last > lead && j[last] == separator { last &-= 1 }
        var inner = false
        var simple = true
        for k in lead...last {
            let c = unsafe j[k]
            if c == separator {
                inner = true
            } else if !isASCIIAlphanumeric(c) {
                simple = false
            }
        }
        if !inner { return unsafe equal(j, s) }
        if !simple {
            let converted = unsafe convert(
                String(decoding: j, as: UTF8.self), separator: Character(UnicodeScalar(separator)))
            return unsafe converted.utf8.elementsEqual(s)
        }
        let trail = n &- 1 &- last
        guard s.count >= lead &+ trail else { return false }
        for k in 0..<lead where unsafe s[k] != separator { return false }
        for k in 0..<trail where unsafe s[s.count &- 1 &- k] != separator { return false }
        var p = lead
        let pEnd = s.count &- trail
        var component = 0
        var k = lead
        while k <= last {
            if unsafe j[k] == separator {
                k &+= 1
                continue
            }
            var first = true
            while unsafe k <= last && j[k] != separator {
                let c = unsafe j[k]
                let expected = component > 0 && first ? upper(c) : lower(c)
                guard p < pEnd, unsafe s[p] == expected else { return false }
                p &+= 1
                k &+= 1
                first = false
            }
            component &+= 1
        }
        return p == pEnd
    }

    /// `JSONDecoder`'s snake-case conversion, with `separator` in place of `_`.
    static func convert(_ key: String, separator: Character) -> String {
        guard !key.isEmpty, let firstNon = key.firstIndex(where: { $0 != separator }) else { return key }
        var lastNon = key.index(before: key.endIndex)
        while lastNon > firstNon && key[lastNon] == separator { key.formIndex(before: &lastNon) }
        let core = key[firstNon...lastNon]
        let components = core.split(separator: separator)
        guard components.count > 1 else { return key }
        let leading = key[key.startIndex..<firstNon]
        let trailing = key[key.index(after: lastNon)...]
        let joined = ([components[0].lowercased()] + components.dropFirst().map { $0.capitalized }).joined()
        return String(leading) + joined + String(trailing)
    }

    @inline(__always)
    static func isASCIIAlphanumeric(_ c: UInt8) -> Bool {
        (c &- 0x30) < 10 || ((c | 0x20) &- 0x61) < 26
    }

    @inline(__always)
    static func lower(_ c: UInt8) -> UInt8 { (c &- 0x41) < 26 ? c | 0x20 : c }

    @inline(__always)
    static func upper(_ c: UInt8) -> UInt8 { (c &- 0x61) < 26 ? c & ~0x20 : c }
}

/// A coding key made from a string or an integer, for paths and dictionary keys.
struct AnyCodingKey: CodingKey {
    var stringValue: String
    var intValue: Int?

    init(stringValue: String) {
        self.stringValue = stringValue
        self.intValue = nil
    }

    init(intValue: Int) {
        self.stringValue = "Index \(intValue)"
        self.intValue = intValue
    }
}

/// The coding key of an array element, built without formatting a string.
struct IndexKey: CodingKey {
    let index: Int
    var stringValue: String { "Index \(index)" }
    var intValue: Int? { index }

    init(_ index: Int) { self.index = index }
    init?(stringValue: String) { nil }
    init?(intValue: Int) { self.index = intValue }
}
