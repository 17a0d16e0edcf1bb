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
        // SAFETY: the caller's bytes stay valid for this call, and the view does not outlive it.
        let name = unsafe ByteView(unsafeBytes: name)
        // Nearly every real name is letters and digits only: one pass decides it.
        if isPlainFast(name) { return .plain }
        return classifySlow(name)
    }

    /// True when `name` is non-empty and made of ASCII letters and digits only (so certainly a
    /// valid plain member name); false means "look closer", not "invalid".
    @inline(__always)
    static func isPlainFast(_ name: UnsafeRawBufferPointer) -> Bool {
        // SAFETY: the caller's bytes stay valid for this call, and the view does not outlive it.
        isPlainFast(unsafe ByteView(unsafeBytes: name))
    }

    /// ``isPlainFast(_:)`` on a view.
    @inline(__always)
    static func isPlainFast(_ name: ByteView) -> Bool {
        guard !name.isEmpty else { return false }
        for index in 0..<name.count where !isASCIIAlphanumeric(name[index]) { return false }
        return true
    }

    @inline(never)
    private static func classifySlow(_ name: ByteView) -> Verdict {
        guard !name.isEmpty else { return .invalid("a member name must not be empty") }
        if name[0] == UInt8(ascii: "@") {
            if case .invalid(let why) = classifyPlain(name.subview(from: 1)) {
                return .invalid("@-member name: \(why)")
            }
            return .atMember
        }
        if let colon = (0..<name.count).first(where: { name[$0] == UInt8(ascii: ":") }) {
            let namespace = name.subview(0..<colon)
            let member = name.subview(from: colon &+ 1)
            guard !namespace.isEmpty, (0..<namespace.count).allSatisfy({ isASCIIAlphanumeric(namespace[$0]) }) else {
                return .invalid("an extension namespace must be made of ASCII letters and digits only")
            }
            if case .invalid(let why) = classifyPlain(member) {
                return .invalid("extension member name: \(why)")
            }
            return .extensionMember
        }
        return classifyPlain(name)
    }

    /// Checks a name with no `@` prefix and no namespace.
    @inline(__always)
    static func classifyPlain(_ name: UnsafeRawBufferPointer) -> Verdict {
        // SAFETY: the caller's bytes stay valid for this call, and the view does not outlive it.
        classifyPlain(unsafe ByteView(unsafeBytes: name))
    }

    /// ``classifyPlain(_:)`` on a view.
    @inline(__always)
    static func classifyPlain(_ name: ByteView) -> Verdict {
        guard !name.isEmpty else { return .invalid("a member name must not be empty") }
        let first = name[0]
        let last = name[name.count &- 1]
        // Fast path: the recommended alphabet, which is nearly every real name.
        var onlyRecommended = true
        for index in 0..<name.count where !isASCIIAlphanumeric(name[index]) {
            onlyRecommended = false
            break
        }
        if onlyRecommended { return .plain }
        if !isGloballyAllowed(first) { return .invalid("a member name must not start with \(describe(first))") }
        if !isGloballyAllowed(last) { return .invalid("a member name must not end with \(describe(last))") }
        for index in 0..<name.count {
            let byte = name[index]
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
    /// A link must be an absolute URI (`scheme:...`), a reference that starts with `/`, `?` or
    /// `#`, or empty (a valid URI-reference: the current document). Version 1.0 asks for "a URL"; 1.1 allows any URI-reference, but a relative-path
    /// reference such as `articles/1` resolves against the request URL in ways clients disagree
    /// on, and the official test suite rejects it, so strict parsing does too (lenient parsing
    /// reports a warning). Characters that RFC 3986 never allows unencoded are rejected;
    /// `[` and `]` in queries (`page[number]=2`) are accepted, as every JSON:API server emits them.
    static func linkProblem(_ link: UnsafeRawBufferPointer) -> String? {
        // SAFETY: the caller's bytes stay valid for this call, and the view does not outlive it.
        let link = unsafe ByteView(unsafeBytes: link)
        // An empty URI-reference is valid (RFC 3986 `relative-ref` with an empty path): the
        // current document.
        guard !link.isEmpty else { return nil }
        let first = link[0]
        // Fast path: every byte is one RFC 3986 allows unencoded (or non-ASCII), none is '%',
        // and the link starts with '/' or a scheme: decided with two 64-bit masks per byte.
        var clean = true
        var i = 0
        while i &+ 16 <= link.count {
            // SAFETY: the sixteen bytes at `i` end at or before `link.count` (the loop's condition).
            if unsafe Self.hasNonURIByte(link.chunk16(unchecked: i)) {
                clean = false
                break
            }
            i &+= 16
        }
        // The last few bytes: one more load, overlapping bytes already checked, when the link is
        // long enough.
        if clean && i < link.count && link.count >= 16 {
            // SAFETY: the sixteen bytes end exactly at `link.count`, and `link.count >= 16`.
            if unsafe Self.hasNonURIByte(link.chunk16(unchecked: link.count &- 16)) { clean = false }
            i = link.count
        }
        while clean && i < link.count {
            // Bytes >= 128 (non-ASCII) are allowed.
            let byte = link[i]
            if byte < 128 && !isURIByte(byte) {
                clean = false
                break
            }
            i &+= 1
        }
        if clean && (first == UInt8(ascii: "/") || hasScheme(link)) { return nil }
        return linkProblemSlow(link, first: first)
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
        // SAFETY: the caller's bytes stay valid for this call, and the view does not outlive it.
        hasScheme(unsafe ByteView(unsafeBytes: link))
    }

    /// ``hasScheme(_:)`` on a view.
    static func hasScheme(_ link: ByteView) -> Bool {
        if link.starts(with: "https://") || link.starts(with: "http://") { return true }
        guard !link.isEmpty, (link[0] | 0x20) >= UInt8(ascii: "a"), (link[0] | 0x20) <= UInt8(ascii: "z") else {
            return false
        }
        for i in 1..<link.count {
            let b = link[i]
            if b == UInt8(ascii: ":") { return true }
            guard isASCIIAlphanumeric(b) || b == UInt8(ascii: "+") || b == UInt8(ascii: "-") || b == UInt8(ascii: ".")
            else { return false }
        }
        return false
    }

    @inline(never)
    private static func linkProblemSlow(_ link: ByteView, first: UInt8) -> String? {
        var i = 0
        while i < link.count {
            let byte = link[i]
            switch byte {
            case 0...0x20, 0x7F:
                return "a link must not contain \(byte == 0x20 ? "a space" : describe(byte)); percent-encode it"
            case UInt8(ascii: "\""), UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "\\"), UInt8(ascii: "^"),
                UInt8(ascii: "`"), UInt8(ascii: "{"), UInt8(ascii: "|"), UInt8(ascii: "}"):
                return "a link must not contain \(describe(byte)); percent-encode it"
            case UInt8(ascii: "%"):
                guard i + 2 < link.count, isHexDigit(link[i + 1]), isHexDigit(link[i + 2]) else {
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
                let b = link[j]
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
        // SAFETY: the caller's bytes stay valid for this call, and the view does not outlive it.
        let pointer = unsafe ByteView(unsafeBytes: pointer)
        guard !pointer.isEmpty else { return nil }
        guard pointer[0] == UInt8(ascii: "/") else { return "a JSON Pointer must be empty or start with '/'" }
        var i = 0
        while i < pointer.count {
            if pointer[i] == UInt8(ascii: "~") {
                guard i + 1 < pointer.count,
                    pointer[i + 1] == UInt8(ascii: "0") || pointer[i + 1] == UInt8(ascii: "1")
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
