/// The JSON:API rules for member names, link URIs and JSON Pointers, checked on raw bytes.
///
/// Member names (1.0 and 1.1 "Member Names"): at least one character; letters, digits and any
/// non-ASCII character anywhere; `-`, `_` and space only between two such characters; nothing
/// else. Version 1.1 adds @-members (`@name`, allowed anywhere and otherwise ignored) and
/// extension members (`namespace:name`, the namespace made only of ASCII letters and digits).
enum MemberNameRules {
    enum Verdict: Equatable {
        /// An ordinary member name.
        case plain
        /// An @-member (1.1): allowed anywhere, meaning left to its definer.
        case atMember
        /// An extension member (1.1): `namespace:name`.
        case extensionMember
        /// Not a valid member name; the string says why.
        case invalid(String)
    }

    /// Classifies unescaped member-name bytes.
    @inline(__always)
    static func classify(_ name: UnsafeRawBufferPointer) -> Verdict {
        // Nearly every real name is letters and digits only: one pass decides it.
        if unsafe isPlainFast(name) { return .plain }
        return unsafe classifySlow(name)
    }

    /// True when `name` is non-empty and made of ASCII letters and digits only (so certainly a
    /// valid plain member name); false means "look closer", not "invalid".
    @inline(__always)
    static func isPlainFast(_ name: UnsafeRawBufferPointer) -> Bool {
        guard unsafe !name.isEmpty else { return false }
        for index in name.indices where !isASCIIAlphanumeric(unsafe name[index]) { return false }
        return true
    }

    /// ``isPlainFast(_:)`` for a name lying inside `buffer`: sixteen bytes tested at once when
    /// the buffer holds sixteen from the name's start (the bytes past the name are ignored).
    @inline(__always)
    static func isPlainFast(_ name: UnsafeRawBufferPointer, in buffer: UnsafeRawBufferPointer) -> Bool {
        let count = name.count
        guard count > 0, count <= 16, let start = name.baseAddress, let bufferStart = buffer.baseAddress,
            unsafe start >= bufferStart, unsafe start + 16 <= bufferStart + buffer.count
        else { return unsafe isPlainFast(name) }
        // SAFETY: the sixteen bytes at `start` lie inside `buffer`.
        let chunk = unsafe start.loadUnaligned(as: SIMD16<UInt8>.self)
        let lowerA = SIMD16<UInt8>(repeating: UInt8(ascii: "a"))
        let zero = SIMD16<UInt8>(repeating: UInt8(ascii: "0"))
        let caseBit = SIMD16<UInt8>(repeating: 0x20)
        let letters = SIMD16<UInt8>(repeating: 26)
        let digits = SIMD16<UInt8>(repeating: 10)
        let ok = (((chunk | caseBit) &- lowerA) .< letters) .| ((chunk &- zero) .< digits)
        let words = unsafe unsafeBitCast(ok, to: SIMD2<UInt64>.self)
        if count <= 8 {
            let mask: UInt64 = count == 8 ? ~0 : (1 &<< UInt64(count &* 8)) &- 1
            return words[0] & mask == mask
        }
        let mask: UInt64 = count == 16 ? ~0 : (1 &<< UInt64((count &- 8) &* 8)) &- 1
        return words[0] == ~0 && words[1] & mask == mask
    }

    @inline(never)
    private static func classifySlow(_ name: UnsafeRawBufferPointer) -> Verdict {
        guard let first = unsafe name.first else { return .invalid("a member name must not be empty") }
        if first == UInt8(ascii: "@") {
            // SAFETY: `name` is not empty (its first byte was read).
            let rest = unsafe UnsafeRawBufferPointer(rebasing: name[1...])
            if case .invalid(let why) = unsafe classifyPlain(rest) { return .invalid("@-member name: \(why)") }
            return .atMember
        }
        if let colon = unsafe name.firstIndex(of: UInt8(ascii: ":")) {
            // SAFETY: `colon` is an index of `name`.
            let namespace = unsafe UnsafeRawBufferPointer(rebasing: name[..<colon])
            let member = unsafe UnsafeRawBufferPointer(rebasing: name[(colon + 1)...])
            guard unsafe !namespace.isEmpty, unsafe namespace.allSatisfy(isASCIIAlphanumeric) else {
                return .invalid("an extension namespace must be made of ASCII letters and digits only")
            }
            if case .invalid(let why) = unsafe classifyPlain(member) {
                return .invalid("extension member name: \(why)")
            }
            return .extensionMember
        }
        return unsafe classifyPlain(name)
    }

    /// Checks a name with no `@` prefix and no namespace.
    @inline(__always)
    static func classifyPlain(_ name: UnsafeRawBufferPointer) -> Verdict {
        guard let first = unsafe name.first, let last = unsafe name.last else {
            return .invalid("a member name must not be empty")
        }
        // Fast path: the recommended alphabet, which is nearly every real name.
        var onlyRecommended = true
        for index in name.indices where !isASCIIAlphanumeric(unsafe name[index]) {
            onlyRecommended = false
            break
        }
        if onlyRecommended { return .plain }
        if !isGloballyAllowed(first) { return .invalid("a member name must not start with \(describe(first))") }
        if !isGloballyAllowed(last) { return .invalid("a member name must not end with \(describe(last))") }
        for index in name.indices {
            let byte = unsafe name[index]
            if isGloballyAllowed(byte) || isInnerAllowed(byte) { continue }
            return .invalid("a member name must not contain \(describe(byte))")
        }
        return .plain
    }

    /// Whether `value` is a valid `type` value: it obeys the member-name rules (1.1 says so; 1.0's
    /// schema applies the same pattern), without @ or namespace forms.
    static func isValidTypeValue(_ value: UnsafeRawBufferPointer) -> String? {
        if case .invalid(let why) = unsafe classifyPlain(value) { return "a type obeys the member-name rules: \(why)" }
        return nil
    }

    @inline(__always)
    static func isASCIIAlphanumeric(_ byte: UInt8) -> Bool {
        let lower = byte | 0x20
        return (lower >= UInt8(ascii: "a") && lower <= UInt8(ascii: "z"))
            || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
    }

    /// Letters, digits and every byte of a non-ASCII character.
    @inline(__always)
    static func isGloballyAllowed(_ byte: UInt8) -> Bool { byte >= 0x80 || isASCIIAlphanumeric(byte) }

    /// `-`, `_` and space: allowed, but not first or last.
    @inline(__always)
    static func isInnerAllowed(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_") || byte == UInt8(ascii: " ")
    }

    static func describe(_ byte: UInt8) -> String {
        if byte >= 0x21 && byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
        return "byte 0x\(String(byte, radix: 16, uppercase: true))"
    }

    /// Why `link` is not acceptable as a link's URL, or nil when it is.
    ///
    /// A link must be an absolute URI (`scheme:...`) or a reference that starts with `/`, `?` or
    /// `#`. Version 1.0 asks for "a URL"; 1.1 allows any URI-reference, but a relative-path
    /// reference such as `articles/1` resolves against the request URL in ways clients disagree
    /// on, and the official test suite rejects it, so strict parsing does too (lenient parsing
    /// reports a warning). Characters that RFC 3986 never allows unencoded are rejected;
    /// `[` and `]` in queries (`page[number]=2`) are accepted, as every JSON:API server emits them.
    static func linkProblem(_ link: UnsafeRawBufferPointer) -> String? {
        guard let first = unsafe link.first else { return "a link must not be an empty string" }
        // Fast path: every byte is one RFC 3986 allows unencoded (or non-ASCII), none is '%',
        // and the link starts with '/' or a scheme: decided with two 64-bit masks per byte.
        var clean = true
        if let base = link.baseAddress {
            var i = 0
            // Sixteen bytes at a time first (SAFETY: each load ends at or before `link.count`).
            while i &+ 16 <= link.count {
                if unsafe Self.hasNonURIByte(base.loadUnaligned(fromByteOffset: i, as: SIMD16<UInt8>.self)) {
                    clean = false
                    break
                }
                i &+= 16
            }
            // The last few bytes: one more load, overlapping bytes already checked, when the
            // link is long enough (SAFETY: it ends exactly at `link.count`).
            if clean && i < link.count && link.count >= 16 {
                let last = unsafe base.loadUnaligned(fromByteOffset: link.count &- 16, as: SIMD16<UInt8>.self)
                if Self.hasNonURIByte(last) { clean = false }
                i = link.count
            }
            // SAFETY: `i` stays below `link.count`.
            while clean && i < link.count {
                // Bytes >= 128 (non-ASCII) are allowed.
                let byte = unsafe base.load(fromByteOffset: i, as: UInt8.self)
                if byte < 128 && !isURIByte(byte) {
                    clean = false
                    break
                }
                i &+= 1
            }
        }
        if unsafe clean && (first == UInt8(ascii: "/") || hasScheme(link)) { return nil }
        return unsafe linkProblemSlow(link, first: first)
    }

    /// Whether any of 16 bytes is one a URI may not contain unencoded, or `%` (which the slow
    /// path checks): control bytes, space, `"`, `<`, `>`, `\`, `^`, the backtick, `{`, `|`, `}`
    /// and DEL. Bytes >= 0x80 pass.
    @inline(__always)
    static func hasNonURIByte(_ chunk: SIMD16<UInt8>) -> Bool {
        // SAFETY: a 16-byte vector viewed as two 64-bit words: same size, plain data.
        let words = unsafe unsafeBitCast(nonURIBytes(chunk), to: SIMD2<UInt64>.self)
        return words[0] | words[1] != 0
    }

    /// The lanes of ``hasNonURIByte(_:)``'s test.
    @inline(__always)
    static func nonURIBytes(_ chunk: SIMD16<UInt8>) -> SIMDMask<SIMD16<Int8>> {
        // Every constant spelled with its full type, so the comparisons stay vector operations.
        let controlOrSpace = SIMD16<UInt8>(repeating: 0x21)
        let braces = SIMD16<UInt8>(repeating: 0x7B)  // `{|}` are 0x7B-0x7D
        let three = SIMD16<UInt8>(repeating: 3)
        let quote = SIMD16<UInt8>(repeating: UInt8(ascii: "\""))
        let percent = SIMD16<UInt8>(repeating: UInt8(ascii: "%"))
        let less = SIMD16<UInt8>(repeating: UInt8(ascii: "<"))
        let greater = SIMD16<UInt8>(repeating: UInt8(ascii: ">"))
        let backslash = SIMD16<UInt8>(repeating: UInt8(ascii: "\\"))
        let caret = SIMD16<UInt8>(repeating: UInt8(ascii: "^"))
        let backtick = SIMD16<UInt8>(repeating: UInt8(ascii: "`"))
        let delete = SIMD16<UInt8>(repeating: 0x7F)
        let hits =
            (chunk .< controlOrSpace) .| ((chunk &- braces) .< three) .| (chunk .== quote) .| (chunk .== percent)
            .| (chunk .== less) .| (chunk .== greater) .| (chunk .== backslash) .| (chunk .== caret)
            .| (chunk .== backtick) .| (chunk .== delete)
        return hits
    }

    /// Whether an ASCII byte is one a URI may contain unencoded (`%` is not: it needs checking).
    @inline(__always)
    static func isURIByte(_ byte: UInt8) -> Bool {
        ((byte < 64 ? lowURIBytes : highURIBytes) >> UInt64(byte & 63)) & 1 != 0
    }

    /// Bytes 0-63 a URI may contain unencoded: `!#$&'()*+,-./0-9:;=?` (not space, `"`, `%`, `<`, `>`).
    /// A literal, not a computed `static let`, so reading it costs no lazy-initialisation check;
    /// `MemberNameRulesTests` rebuilds both masks from the character lists.
    static let lowURIBytes: UInt64 = 0xAFFF_FFDA_0000_0000

    /// Bytes 64-127 a URI may contain unencoded: `@A-Z[]_a-z~` (not `\\ ^ ` { | }` or DEL).
    static let highURIBytes: UInt64 = 0x47FF_FFFE_AFFF_FFFF

    /// Whether `link` starts with `scheme:`.
    static func hasScheme(_ link: UnsafeRawBufferPointer) -> Bool {
        if unsafe link.hasPrefix("https://") || link.hasPrefix("http://") { return true }
        guard let first = unsafe link.first, (first | 0x20) >= UInt8(ascii: "a"), (first | 0x20) <= UInt8(ascii: "z")
        else {
            return false
        }
        for i in 1..<link.count {
            let b = unsafe link[i]
            if b == UInt8(ascii: ":") { return true }
            guard isASCIIAlphanumeric(b) || b == UInt8(ascii: "+") || b == UInt8(ascii: "-") || b == UInt8(ascii: ".")
            else { return false }
        }
        return false
    }

    @inline(never)
    private static func linkProblemSlow(_ link: UnsafeRawBufferPointer, first: UInt8) -> String? {
        var i = 0
        while i < link.count {
            let byte = unsafe link[i]
            switch byte {
            case 0...0x20, 0x7F:
                return "a link must not contain \(byte == 0x20 ? "a space" : describe(byte)); percent-encode it"
            case UInt8(ascii: "\""), UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "\\"), UInt8(ascii: "^"),
                UInt8(ascii: "`"), UInt8(ascii: "{"), UInt8(ascii: "|"), UInt8(ascii: "}"):
                return "a link must not contain \(describe(byte)); percent-encode it"
            case UInt8(ascii: "%"):
                guard i + 2 < link.count, unsafe isHexDigit(link[i + 1]), unsafe isHexDigit(link[i + 2]) else {
                    return "'%' in a link must start a percent-encoded byte like %20"
                }
                i += 2
            default:
                break
            }
            i += 1
        }
        if first == UInt8(ascii: "/") || first == UInt8(ascii: "?") || first == UInt8(ascii: "#") { return nil }
        // scheme = ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ) ":"
        let isLetter = { (b: UInt8) in (b | 0x20) >= UInt8(ascii: "a") && (b | 0x20) <= UInt8(ascii: "z") }
        if isLetter(first) {
            var j = 1
            while j < link.count {
                let b = unsafe link[j]
                if b == UInt8(ascii: ":") { return nil }
                guard
                    isASCIIAlphanumeric(b) || b == UInt8(ascii: "+") || b == UInt8(ascii: "-") || b == UInt8(ascii: ".")
                else { break }
                j += 1
            }
        }
        return "a link must be an absolute URI or start with '/', not a relative path"
    }

    /// Why `pointer` is not a JSON Pointer (RFC 6901), or nil when it is.
    static func pointerProblem(_ pointer: UnsafeRawBufferPointer) -> String? {
        guard let first = unsafe pointer.first else { return nil }
        guard first == UInt8(ascii: "/") else { return "a JSON Pointer must be empty or start with '/'" }
        var i = 0
        while i < pointer.count {
            if unsafe pointer[i] == UInt8(ascii: "~") {
                guard i + 1 < pointer.count,
                    unsafe pointer[i + 1] == UInt8(ascii: "0") || pointer[i + 1] == UInt8(ascii: "1")
                else { return "'~' in a JSON Pointer must be followed by '0' or '1'" }
            }
            i += 1
        }
        return nil
    }

    @inline(__always)
    static func isHexDigit(_ b: UInt8) -> Bool {
        (b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9"))
            || ((b | 0x20) >= UInt8(ascii: "a") && (b | 0x20) <= UInt8(ascii: "f"))
    }
}

extension UnsafeRawBufferPointer {
    /// Whether the bytes start with the UTF-8 bytes of `literal`.
    @inline(__always)
    func hasPrefix(_ literal: StaticString) -> Bool {
        let n = literal.utf8CodeUnitCount
        guard count >= n, let base = baseAddress else { return false }
        return unsafe memcmpBytes(base, UnsafeRawPointer(literal.utf8Start), n)
    }
}
