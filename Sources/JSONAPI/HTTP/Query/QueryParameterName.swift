/// A decoded query parameter name taken apart as JSON:API 1.1 ("Query Parameter Families")
/// defines it: a base name, then zero or more bracket pairs, each empty (`[]`), holding a member
/// name (`[author]`) or a dot-separated list of member names (`[author.name]`).
///
/// The base name decides who owns the parameter:
///
/// | Base name | Owner | Example |
/// |---|---|---|
/// | only `a-z` | the specification: `include`, `fields`, `sort`, `page`, `filter`, or reserved | `sort`, `foo` |
/// | `namespace:name`, the namespace ASCII letters and digits, the name only `a-z` | an extension | `version:at` |
/// | a member name with a character outside `a-z` | the implementation | `withDrafts`, `x-trace` |
///
/// Anything else (`_`, `foo]`, `a[b`, `filter[_]`, an empty base name) follows no convention,
/// and JSON:API requires a 400 for it.
struct QueryParameterName {
    /// The name up to the first `[`.
    let base: String
    /// The contents of the bracket pairs, in order.
    let groups: [String]

    /// Takes `name` apart; nil when it is not a base name followed by bracket pairs (a stray
    /// `[` or `]`, or text after a `]`). The contents of the brackets are not checked here.
    init?(splitting name: String) {
        var name = name
        guard let parts = name.withUTF8({ unsafe Self.split(name: $0) }) else { return nil }
        (base, groups) = parts
    }

    private static func split(name bytes: UnsafeBufferPointer<UInt8>) -> (String, [String])? {
        let open = UInt8(ascii: "[")
        let close = UInt8(ascii: "]")
        var index = 0
        while index < bytes.count, unsafe bytes[index] != open {
            if unsafe bytes[index] == close { return nil }
            index += 1
        }
        let base = unsafe text(bytes, 0..<index)
        var groups: [String] = []
        while index < bytes.count {
            guard unsafe bytes[index] == open else { return nil }
            let start = index + 1
            var end = start
            while end < bytes.count, unsafe bytes[end] != close {
                if unsafe bytes[end] == open { return nil }
                end += 1
            }
            guard end < bytes.count else { return nil }
            unsafe groups.append(text(bytes, start..<end))
            index = end + 1
        }
        return (base, groups)
    }

    /// `bytes[range]` as a string; the bytes are UTF-8 already checked, cut at ASCII bytes.
    @inline(__always)
    static func text(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> String {
        unsafe String(decoding: bytes[range], as: UTF8.self)
    }

    /// True when `text` is not empty and made of `a-z` only: a name JSON:API keeps for itself.
    static func isReserved(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.allSatisfy { $0 >= UInt8(ascii: "a") && $0 <= UInt8(ascii: "z") }
    }

    /// Why `bytes` are not a legal member name (no @-member, no namespace), or nil when they are
    /// one. The member-name rule itself lives in ``MemberNameRules``.
    static func memberNameProblem(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
        if case .invalid(let why) = unsafe MemberNameRules.classifyPlain(UnsafeRawBufferPointer(bytes)) { return why }
        return nil
    }

    /// Why the bytes of `view` are not a legal member name, or nil when they are one.
    static func memberNameProblem(_ view: ByteView) -> String? {
        unsafe view.withUnsafeBytes { bytes in
            if case .invalid(let why) = unsafe MemberNameRules.classifyPlain(bytes) { return why }
            return nil
        }
    }

    /// Why `text` is not a legal member name, or nil when it is one.
    static func memberNameProblem(_ text: String) -> String? {
        var text = text
        return text.withUTF8 { unsafe memberNameProblem($0) }
    }

    /// Why `bytes` are not a dot-separated list of member names, or nil when they are one.
    static func pathProblem(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
        // SAFETY: the view is used only during this call, while `bytes` is lent to it.
        let view = unsafe ByteView(unsafeBytes: UnsafeRawBufferPointer(bytes))
        var start = 0
        for index in 0...view.count where index == view.count || view[index] == UInt8(ascii: ".") {
            if let problem = memberNameProblem(view.subview(start..<index)) { return problem }
            start = index + 1
        }
        return nil
    }

    /// Why `text` is not a dot-separated list of member names, or nil when it is one.
    static func pathProblem(_ text: String) -> String? {
        var text = text
        return text.withUTF8 { unsafe pathProblem($0) }
    }

    /// `text` split at every `separator` byte, empty parts kept. Bytes rather than characters,
    /// so that a combining mark after a separator cannot hide it.
    static func split(_ text: String, at separator: UInt8) -> [String] {
        var text = text
        return text.withUTF8 { bytes in
            var parts: [String] = []
            var start = 0
            for index in 0...bytes.count where unsafe index == bytes.count || bytes[index] == separator {
                unsafe parts.append(Self.text(bytes, start..<index))
                start = index + 1
            }
            return parts
        }
    }

    /// Why a bracket's contents break the family rule (empty, a member name, or a dot-separated
    /// list of member names), or nil when they follow it.
    static func groupProblem(_ group: String) -> String? {
        group.isEmpty ? nil : pathProblem(group)
    }

    /// The namespace of an extension parameter's base name (`version` of `version:at`), or nil
    /// when `base` is not `namespace:name` with an ASCII letter-and-digit namespace and an
    /// `a-z` name.
    static func extensionNamespace(_ base: String) -> String? {
        var base = base
        return base.withUTF8 { bytes in
            guard let colon = unsafe bytes.firstIndex(of: UInt8(ascii: ":")), colon > 0, colon + 1 < bytes.count,
                unsafe bytes[..<colon].allSatisfy(MemberNameRules.isASCIIAlphanumeric),
                unsafe bytes[(colon + 1)...].allSatisfy({ $0 >= UInt8(ascii: "a") && $0 <= UInt8(ascii: "z") })
            else { return nil }
            return unsafe text(bytes, 0..<colon)
        }
    }
}
