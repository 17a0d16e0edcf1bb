/// The whitespace between a generated document's tokens, chosen per resource so that one
/// document mixes them.
enum CorpusLayout: CaseIterable {
    /// No whitespace at all.
    case compact
    /// A line per member, indented by two spaces per level, `": "` after keys.
    case spaces
    /// CRLF line ends and one tab per level.
    case tabsCRLF
}

/// Writes JSON tokens with the separators and whitespace between them, for
/// ``CorpusDocumentGenerator``: the caller names the structure (objects, keys, values) and the
/// writer places commas, line breaks and indentation by the current ``layout``.
///
/// Values are written as their spelled JSON text; the caller escapes string contents.
struct CorpusWriter {
    var bytes: [UInt8] = []
    /// The layout of what is written next; may change between any two tokens.
    var layout: CorpusLayout = .compact
    private var depth = 0
    /// Whether the container being written has no member or element yet.
    private var empty = true

    init(capacity: Int) {
        bytes.reserveCapacity(capacity)
    }

    mutating func beginObject() {
        bytes.append(UInt8(ascii: "{"))
        depth += 1
        empty = true
    }

    mutating func endObject() {
        close(UInt8(ascii: "}"))
    }

    mutating func beginArray() {
        bytes.append(UInt8(ascii: "["))
        depth += 1
        empty = true
    }

    mutating func endArray() {
        close(UInt8(ascii: "]"))
    }

    /// Starts an array element: the comma and the line break before it.
    mutating func element() {
        if !empty { bytes.append(UInt8(ascii: ",")) }
        empty = false
        lineBreak()
    }

    /// Starts an object member: separator, line break and `"name":`.
    mutating func key(_ name: String) {
        element()
        bytes.append(UInt8(ascii: "\""))
        bytes.append(contentsOf: name.utf8)
        bytes.append(UInt8(ascii: "\""))
        bytes.append(UInt8(ascii: ":"))
        if layout != .compact { bytes.append(layout == .spaces ? UInt8(ascii: " ") : UInt8(ascii: "\t")) }
    }

    /// Writes JSON text as it is: a number, `null`, `true` or `false`.
    mutating func raw(_ text: String) {
        bytes.append(contentsOf: text.utf8)
    }

    /// Writes a string whose contents are already spelled as JSON (escapes included).
    mutating func string(spelled contents: [UInt8]) {
        bytes.append(UInt8(ascii: "\""))
        bytes.append(contentsOf: contents)
        bytes.append(UInt8(ascii: "\""))
    }

    /// Writes a string of plain characters that need no escape.
    mutating func string(_ text: String) {
        bytes.append(UInt8(ascii: "\""))
        bytes.append(contentsOf: text.utf8)
        bytes.append(UInt8(ascii: "\""))
    }

    private mutating func close(_ bracket: UInt8) {
        depth -= 1
        if !empty { lineBreak() }
        bytes.append(bracket)
        // The container just closed is a value of its parent, which is therefore not empty.
        empty = false
    }

    private mutating func lineBreak() {
        switch layout {
        case .compact:
            return
        case .spaces:
            bytes.append(UInt8(ascii: "\n"))
            bytes.append(contentsOf: repeatElement(UInt8(ascii: " "), count: 2 * depth))
        case .tabsCRLF:
            bytes.append(UInt8(ascii: "\r"))
            bytes.append(UInt8(ascii: "\n"))
            bytes.append(contentsOf: repeatElement(UInt8(ascii: "\t"), count: depth))
        }
    }
}
