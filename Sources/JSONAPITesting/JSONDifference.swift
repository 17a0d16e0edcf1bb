import JSONAPI

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// One place where two JSON values differ: its JSON Pointer and the value on each side.
///
/// ```swift
/// let differences = JSONDifference.between(actual.jsonValue, expected.jsonValue)
/// // [/data/attributes/title: actual "Hello", expected "Hi"]
/// ```
public struct JSONDifference: Sendable, Hashable, CustomStringConvertible {
    /// The JSON Pointer (RFC 6901) of the differing value; `""` for the whole value.
    public var pointer: String
    /// The actual value as compact JSON, nil when the member or element is absent.
    public var actual: String?
    /// The expected value as compact JSON, nil when the member or element is absent.
    public var expected: String?

    /// Creates a difference.
    public init(pointer: String, actual: String?, expected: String?) {
        self.pointer = pointer
        self.actual = actual
        self.expected = expected
    }

    /// `/data/id: actual "1", expected "2"`; `absent` stands for a missing side.
    public var description: String {
        "\(pointer.isEmpty ? "(root)" : pointer): actual \(actual ?? "absent"), expected \(expected ?? "absent")"
    }

    /// Every difference between two values, in document order of the expected value (members
    /// only the actual value has after those of the expected one): member order is ignored, numbers are compared by
    /// value (`1`, `1.0` and `1e0` are equal), strings by their unescaped contents.
    ///
    /// - Parameters:
    ///   - actual: The value produced.
    ///   - expected: The value wanted.
    ///   - limit: At most this many differences are listed (100 by default).
    /// - Returns: The differences, empty when the values are equivalent.
    /// - Complexity: O(n log n) in the size of the values; an explicit stack walks nested values.
    public static func between(_ actual: JSONValue, _ expected: JSONValue, limit: Int = 100) -> [JSONDifference] {
        // Most comparisons in tests succeed: the core's byte-level check decides those at once.
        if actual.isEquivalent(to: expected) { return [] }
        var differences: [JSONDifference] = []
        // A side is nil where a member or element is absent; children are pushed in reverse, so
        // that they come off the stack in document order.
        var pending: [Pending] = [("", actual, expected)]
        while let (pointer, a, e) = pending.popLast(), differences.count < limit {
            guard let a, let e else {
                differences.append(JSONDifference(pointer: pointer, actual: a.map(text), expected: e.map(text)))
                continue
            }
            switch (a.kind, e.kind) {
            case (.object, .object):
                let actualMembers = a.members
                let expectedMembers = e.members
                let actualByKey = Dictionary(
                    actualMembers.map { ($0.key, $0.value) }, uniquingKeysWith: { first, _ in first })
                let expectedKeys = Set(expectedMembers.map(\.key))
                var children: [Pending] = expectedMembers.map { key, value in
                    (pointer + "/" + escape(key), actualByKey[key], value)
                }
                for (key, value) in actualMembers where !expectedKeys.contains(key) {
                    children.append((pointer + "/" + escape(key), value, nil))
                }
                pending.append(contentsOf: children.reversed())
            case (.array, .array):
                let actualElements = a.elements
                let expectedElements = e.elements
                let count = max(actualElements.count, expectedElements.count)
                for index in (0..<count).reversed() {
                    pending.append(
                        (
                            pointer + "/\(index)", index < actualElements.count ? actualElements[index] : nil,
                            index < expectedElements.count ? expectedElements[index] : nil
                        ))
                }
            case (.string, .string):
                if a.stringValue != e.stringValue { differences.append(difference(pointer, a, e)) }
            case (.number, .number):
                if !sameNumber(a, e) { differences.append(difference(pointer, a, e)) }
            default:
                if a.kind != e.kind || a.rawJSON != e.rawJSON { differences.append(difference(pointer, a, e)) }
            }
        }
        return Array(differences.prefix(limit))
    }

    /// Every difference between two documents, as ``between(_:_:limit:)`` finds them.
    public static func between(_ actual: Document, _ expected: Document, limit: Int = 100) -> [JSONDifference] {
        between(actual.jsonValue, expected.jsonValue, limit: limit)
    }

    /// A place still to compare: its pointer and the value on each side, nil where absent.
    private typealias Pending = (pointer: String, actual: JSONValue?, expected: JSONValue?)

    private static func difference(_ pointer: String, _ a: JSONValue, _ e: JSONValue) -> JSONDifference {
        JSONDifference(pointer: pointer, actual: text(a), expected: text(e))
    }

    /// Compact JSON of a value, cut at 200 characters.
    private static func text(_ value: JSONValue) -> String {
        let json = value.jsonString()
        guard json.count > 200 else { return json }
        return String(json.prefix(200)) + "…"
    }

    private static func escape(_ key: String) -> String {
        key.replacingOccurrences(of: "~", with: "~0").replacingOccurrences(of: "/", with: "~1")
    }

    /// Two JSON numbers by value: exactly for integers, as `Decimal` for decimal texts, else as
    /// `Double`.
    static func sameNumber(_ a: JSONValue, _ b: JSONValue) -> Bool {
        guard let x = a.number, let y = b.number else { return a.rawJSON == b.rawJSON }
        switch (x, y) {
        case (.int(let p), .int(let q)): return p == q
        case (.uint(let p), .uint(let q)): return p == q
        case (.int, .uint), (.uint, .int): return false
        case (.decimal, _), (_, .decimal):
            let locale = Locale(identifier: "en_US_POSIX")
            guard let p = a.numberText.flatMap({ Decimal(string: $0, locale: locale) }),
                let q = b.numberText.flatMap({ Decimal(string: $0, locale: locale) })
            else { return a.numberText == b.numberText }
            return p == q
        default:
            return (a.doubleValue ?? .nan) == (b.doubleValue ?? .nan)
        }
    }
}

/// The differences between two JSON documents as a readable report, or nil when they are
/// equivalent: for `#expect` and `#require`.
///
/// Member order is ignored and numbers are compared by value (``JSONDifference``). Both texts are
/// parsed leniently, so any JSON object compares, valid JSON:API or not.
///
/// ```swift
/// let written = try String(decoding: JSONAPIEncoder().encode(article), as: UTF8.self)
/// let diff = try documentDiff(written, #"{"data": {"type": "articles", "id": "1"}}"#)
/// #expect(diff == nil, "\(diff ?? "")")
/// ```
///
/// - Parameters:
///   - actual: The JSON produced.
///   - expected: The JSON wanted.
/// - Returns: One line per ``JSONDifference``, or nil.
/// - Throws: `JSONAPIError` when either text is not JSON.
public func documentDiff(_ actual: String, _ expected: String) throws(JSONAPIError) -> String? {
    let options = ParsingOptions(kind: .response, lenient: true)
    return documentDiff(
        try Document(parsing: actual, options: options), try Document(parsing: expected, options: options))
}

/// ``documentDiff(_:_:)-(String,String)`` of UTF-8 bytes.
///
/// - Throws: `JSONAPIError` when either input is not JSON.
public func documentDiff(_ actual: [UInt8], _ expected: [UInt8]) throws(JSONAPIError) -> String? {
    let options = ParsingOptions(kind: .response, lenient: true)
    return documentDiff(
        try Document(parsing: actual, options: options), try Document(parsing: expected, options: options))
}

/// ``documentDiff(_:_:)-(String,String)`` of parsed documents.
public func documentDiff(_ actual: Document, _ expected: Document) -> String? {
    let differences = JSONDifference.between(actual, expected)
    guard !differences.isEmpty else { return nil }
    let count = differences.count
    return "documents differ at \(count) place\(count == 1 ? "" : "s"):\n"
        + differences.map { "  \($0)" }.joined(separator: "\n")
}
