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
        let utf8 = name.utf8
        let open = UInt8(ascii: "[")
        let close = UInt8(ascii: "]")
        guard let firstOpen = utf8.firstIndex(of: open) else {
            guard !utf8.contains(close) else { return nil }
            base = name
            groups = []
            return
        }
        guard !utf8[..<firstOpen].contains(close) else { return nil }
        var groups: [String] = []
        var index = firstOpen
        while index != utf8.endIndex {
            guard utf8[index] == open else { return nil }
            let start = utf8.index(after: index)
            guard let end = utf8[start...].firstIndex(where: { $0 == open || $0 == close }), utf8[end] == close
            else { return nil }
            groups.append(String(decoding: utf8[start..<end], as: UTF8.self))
            index = utf8.index(after: end)
        }
        base = String(decoding: utf8[..<firstOpen], as: UTF8.self)
        self.groups = groups
    }

    /// True when `text` is not empty and made of `a-z` only: a name JSON:API keeps for itself.
    static func isReserved(_ text: some StringProtocol) -> Bool {
        !text.isEmpty && text.utf8.allSatisfy { $0 >= UInt8(ascii: "a") && $0 <= UInt8(ascii: "z") }
    }

    /// Why `text` is not a legal member name (no @-member, no namespace), or nil when it is one.
    /// The member-name rule itself lives in ``MemberNameRules``.
    static func memberNameProblem(_ text: some StringProtocol) -> String? {
        var text = String(text)
        let verdict = text.withUTF8 { MemberNameRules.classifyPlain(UnsafeRawBufferPointer($0)) }
        if case .invalid(let why) = verdict { return why }
        return nil
    }

    /// Why `text` is not a dot-separated list of member names, or nil when it is one.
    static func pathProblem(_ text: some StringProtocol) -> String? {
        for part in split(text, at: UInt8(ascii: ".")) {
            if let problem = memberNameProblem(part) { return problem }
        }
        return nil
    }

    /// `text` split at every `separator` byte, empty parts kept. Bytes rather than characters,
    /// so that a combining mark after a separator cannot hide it.
    static func split(_ text: some StringProtocol, at separator: UInt8) -> [String] {
        text.utf8.split(separator: separator, omittingEmptySubsequences: false).map {
            String(decoding: $0, as: UTF8.self)
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
    static func extensionNamespace(_ base: String) -> Substring? {
        guard let colon = base.utf8.firstIndex(of: UInt8(ascii: ":")) else { return nil }
        let namespace = base[..<colon]
        let name = base.utf8[base.utf8.index(after: colon)...]
        guard !namespace.isEmpty, namespace.utf8.allSatisfy(MemberNameRules.isASCIIAlphanumeric),
            !name.isEmpty, name.allSatisfy({ $0 >= UInt8(ascii: "a") && $0 <= UInt8(ascii: "z") })
        else { return nil }
        return namespace
    }
}
