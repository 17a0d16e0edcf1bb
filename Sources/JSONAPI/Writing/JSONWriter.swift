/// A fast, deterministic writer of JSON text (RFC 8259), appending UTF-8 bytes to an array.
///
/// The writer streams: callers emit keys and values in document order and the writer adds
/// the commas, colons and (when ``JSONWritingOptions/prettyPrinted`` is on) the newlines and
/// indentation. It never goes through `JSONSerialization` or `JSONEncoder`; strings are
/// escaped and numbers formatted straight into ``bytes``. The same calls always produce the
/// same bytes.
///
/// ```swift
/// var writer = JSONWriter()
/// writer.beginObject()
/// writer.key("data")
/// writer.beginObject()
/// writer.key("type")
/// writer.string("articles")
/// writer.key("id")
/// writer.string("1")
/// writer.key("attributes")
/// writer.beginObject()
/// writer.key("title")
/// writer.string("JSON:API paints my \"bikeshed\"!")
/// writer.key("rating")
/// try writer.number(4.5)
/// writer.key("views")
/// writer.number(1024)
/// writer.key("tags")
/// writer.beginArray()
/// writer.endArray()
/// writer.endObject()
/// writer.endObject()
/// writer.endObject()
/// let json = try writer.finish()
/// print(String(decoding: json, as: UTF8.self))
/// // {"data":{"type":"articles","id":"1","attributes":{"title":"JSON:API paints my \"bikeshed\"!",
/// // "rating":4.5,"views":1024,"tags":[]}}}   (one line; wrapped here)
/// ```
///
/// ## Output format
///
/// - Strings escape `"`, `\` and every byte below 0x20: `\b \f \n \r \t` in their short form,
///   the others as `\u00XX` with lowercase hex digits. `/` is escaped as `\/` only when
///   ``JSONWritingOptions/escapesSlashes`` is on. Every other byte, including multi-byte
///   UTF-8 sequences and U+2028/U+2029, is copied as it is.
/// - Integers are written in plain decimal digits.
/// - A `Double` is written with the shortest digits that read back as the same `Double`
///   (the digits of `Double.description`). Integral values keep a `.0` (`5.0`, `-0.0`) so a
///   reader can tell them from integers; very large or small magnitudes use exponent form
///   (`1e+300`, `5e-324`, `1e-05`), all valid JSON numbers. NaN and infinities throw.
/// - Pretty printing puts each member and element on its own line, indented by
///   ``JSONWritingOptions/indent`` spaces per level, writes `"key": value` with one space,
///   and writes empty containers as `{}` and `[]`. No newline follows the top-level value.
///
/// ## Misuse
///
/// Calls that would make the output ill-formed (a value where an object expects a key, a key
/// outside an object, an `end` that does not match the open container, a second top-level
/// value) never crash and never throw on the spot. Such a call writes nothing; the first one is
/// remembered in ``misuse`` and ``finish()`` throws it as an ``JSONAPIError/Code/encodingFailed``
/// error. ``finish()`` also throws when containers are still open or nothing was written.
/// Methods that can fail because of their argument (a non-finite `Double`, malformed number
/// text) throw at once and leave the writer as it was.
///
/// ## Sorted keys
///
/// A streaming writer cannot reorder what was already written. Callers that hold a whole
/// object write it with ``object(sortedBy:)``, which orders members by key.
public struct JSONWriter: Sendable {
    /// Where the writer is in the structure: what the next call must be.
    @usableFromInline
    enum State: UInt8, Sendable {
        /// Nothing written yet: one top-level value expected.
        case rootEmpty
        /// The top-level value is complete.
        case rootDone
        /// Inside an array, before its first element.
        case arrayFirst
        /// Inside an array, after at least one element.
        case arrayNext
        /// Inside an object, before its first key.
        case objectKeyFirst
        /// Inside an object, after at least one member: a key or the end expected.
        case objectKeyNext
        /// Inside an object, after a key: its value expected.
        case objectValue
    }

    /// The options this writer was created with.
    public let options: JSONWritingOptions

    @usableFromInline var storage: [UInt8]
    @usableFromInline var state: State = .rootEmpty
    /// The states of the enclosing levels, outermost first; its count is the nesting depth.
    @usableFromInline var stack: [State] = []
    @usableFromInline let pretty: Bool
    @usableFromInline let indentWidth: Int
    @usableFromInline let escapeSlashes: Bool
    @usableFromInline var firstMisuse: JSONAPIError?

    /// Creates a writer.
    ///
    /// - Parameters:
    ///   - options: Output format.
    ///   - reservingCapacity: Bytes to reserve up front, when the output size is roughly known.
    public init(options: JSONWritingOptions = JSONWritingOptions(), reservingCapacity: Int = 0) {
        self.options = options
        self.pretty = options.prettyPrinted
        self.indentWidth = max(0, options.indent)
        self.escapeSlashes = options.escapesSlashes
        self.storage = []
        if reservingCapacity > 0 { storage.reserveCapacity(reservingCapacity) }
    }

    /// The UTF-8 bytes written so far.
    public var bytes: [UInt8] { storage }

    /// The number of containers currently open.
    public var depth: Int { stack.count }

    /// True when exactly one complete top-level value has been written.
    public var isComplete: Bool { state == .rootDone }

    /// The first misuse of the writer (see "Misuse" above), or nil.
    public var misuse: JSONAPIError? { firstMisuse }

    /// The finished JSON text.
    ///
    /// - Throws: ``JSONAPIError/Code/encodingFailed`` if a call misused the writer, if
    ///   containers are still open, or if no value was written.
    public func finish() throws(JSONAPIError) -> [UInt8] {
        if let firstMisuse { throw firstMisuse }
        switch state {
        case .rootDone:
            return storage
        case .rootEmpty:
            throw JSONAPIError(.encodingFailed, "no JSON value was written")
        default:
            throw JSONAPIError(.encodingFailed, "\(stack.count) container(s) still open")
        }
    }

    /// Hands out the bytes written so far and forgets them, keeping its place in the structure:
    /// the next call goes on where the last one stopped. For writing one document in pieces (a
    /// response streamed as it is written); the pieces, then what ``finish()`` returns, are the
    /// document.
    ///
    /// ```swift
    /// var writer = JSONWriter()
    /// writer.beginArray()
    /// writer.string("a")
    /// let first = writer.takeBytes()   // ["a
    /// writer.string("b")
    /// writer.endArray()
    /// let rest = try writer.finish()   // ,"b"]
    /// ```
    public mutating func takeBytes() -> [UInt8] {
        let taken = storage
        storage = []
        storage.reserveCapacity(taken.count)
        return taken
    }

    /// Forgets everything written, to write a new document into the same buffer.
    public mutating func reset(keepingCapacity: Bool = true) {
        storage.removeAll(keepingCapacity: keepingCapacity)
        stack.removeAll(keepingCapacity: keepingCapacity)
        state = .rootEmpty
        firstMisuse = nil
    }

    // MARK: Structure

    /// Opens an object (`{`). Members follow as ``key(_:)`` + value pairs.
    @inlinable
    public mutating func beginObject() {
        guard beforeValue() else { return }
        storage.append(UInt8(ascii: "{"))
        stack.append(state)
        state = .objectKeyFirst
    }

    /// Closes the innermost open container, which must be an object whose last key has a value.
    @inlinable
    public mutating func endObject() {
        switch state {
        case .objectKeyFirst:
            break
        case .objectKeyNext:
            if pretty { newline(indentLevel: stack.count - 1) }
        default:
            recordMisuse(state == .objectValue ? "object closed after a key without a value" : "no object to close")
            return
        }
        storage.append(UInt8(ascii: "}"))
        state = stack.removeLast()
    }

    /// Opens an array (`[`).
    @inlinable
    public mutating func beginArray() {
        guard beforeValue() else { return }
        storage.append(UInt8(ascii: "["))
        stack.append(state)
        state = .arrayFirst
    }

    /// Closes the innermost open container, which must be an array.
    @inlinable
    public mutating func endArray() {
        switch state {
        case .arrayFirst:
            break
        case .arrayNext:
            if pretty { newline(indentLevel: stack.count - 1) }
        default:
            recordMisuse("no array to close")
            return
        }
        storage.append(UInt8(ascii: "]"))
        state = stack.removeLast()
    }

    /// Writes an object member name; the member's value must follow.
    @inlinable
    public mutating func key(_ name: String) {
        guard beforeKey() else { return }
        // ":" or ": ", little-endian.
        writeQuoted(name, suffix: pretty ? 0x203A : 0x3A, suffixCount: pretty ? 2 : 1)
    }

    /// Writes an object member name whose bytes are already escaped JSON string contents
    /// (what goes between the quotes), copied verbatim. The writer does not check them.
    @inlinable
    public mutating func key(rawEscaped name: UnsafeRawBufferPointer) {
        guard beforeKey() else { return }
        storage.append(UInt8(ascii: "\""))
        unsafe storage.append(contentsOf: name)
        storage.append(UInt8(ascii: "\""))
        writeColon()
    }

    // MARK: Scalars

    /// Writes `true` or `false`.
    @inlinable
    public mutating func bool(_ value: Bool) {
        guard beforeValue() else { return }
        if value {
            appendASCII(0x7472_7565, count: 4)  // true
        } else {
            storage.append(UInt8(ascii: "f"))
            appendASCII(0x616c_7365, count: 4)  // alse
        }
    }

    /// Writes `null`.
    @inlinable
    public mutating func null() {
        guard beforeValue() else { return }
        appendASCII(0x6e75_6c6c, count: 4)  // null
    }

    /// Writes an already-valid JSON value (any type) copied from `json`.
    ///
    /// The bytes are not checked. In compact mode they are copied verbatim, whitespace
    /// included; when pretty printing they are re-indented to the current depth (whitespace
    /// outside strings is dropped and rewritten in the writer's style).
    @inlinable
    public mutating func rawValue(_ json: UnsafeRawBufferPointer) {
        guard beforeValue() else { return }
        if pretty {
            unsafe writeReindented(json)
        } else {
            unsafe storage.append(contentsOf: json)
        }
    }

    // MARK: Sorted objects

    /// Writes a whole object with its members ordered by key.
    ///
    /// Keys are compared by their UTF-8 bytes (that is, by Unicode scalar values), so the
    /// order does not depend on locale. Members with equal keys keep their given order. Each
    /// `write` closure must write exactly one value.
    ///
    /// ```swift
    /// var writer = JSONWriter()
    /// try writer.object(sortedBy: [
    ///     (key: "title", write: { w in w.string("Hello") }),
    ///     (key: "id", write: { w in w.number(1) }),
    /// ])
    /// // {"id":1,"title":"Hello"}
    /// ```
    ///
    /// - Throws: The first error a `write` closure throws; the object is left open then.
    ///
    /// The closures use untyped `throws`: Swift 6.3 types a closure literal containing `try`
    /// as throwing `any Error` whatever its context, and a generic thrown type inferred that way
    /// inside an array literal is miscompiled by Swift 6.3.1 (it crashes when an error is thrown).
    public mutating func object(
        sortedBy members: [(key: String, write: (inout JSONWriter) throws -> Void)]
    ) throws {
        let order = members.indices.sorted { lhs, rhs in
            let a = members[lhs].key.utf8
            let b = members[rhs].key.utf8
            if a.elementsEqual(b) { return lhs < rhs }
            return a.lexicographicallyPrecedes(b)
        }
        beginObject()
        for index in order {
            key(members[index].key)
            try members[index].write(&self)
        }
        endObject()
    }

    // MARK: Internals

    /// Writes the separator a value needs in the current state and moves the state on.
    /// Returns false (and records the misuse) when a value is not allowed here.
    @inlinable
    mutating func beforeValue() -> Bool {
        switch state {
        case .objectValue:
            state = .objectKeyNext
        case .arrayNext:
            storage.append(UInt8(ascii: ","))
            if pretty { newline(indentLevel: stack.count) }
        case .arrayFirst:
            state = .arrayNext
            if pretty { newline(indentLevel: stack.count) }
        case .rootEmpty:
            state = .rootDone
        case .objectKeyFirst, .objectKeyNext:
            recordMisuse("a value where an object member name is expected")
            return false
        case .rootDone:
            recordMisuse("a second top-level value")
            return false
        }
        return true
    }

    /// Writes the separator a key needs and moves the state on; false on misuse.
    @inlinable
    mutating func beforeKey() -> Bool {
        switch state {
        case .objectKeyNext:
            storage.append(UInt8(ascii: ","))
        case .objectKeyFirst:
            break
        default:
            recordMisuse(state == .objectValue ? "two member names in a row" : "a member name outside an object")
            return false
        }
        state = .objectValue
        if pretty { newline(indentLevel: stack.count) }
        return true
    }

    @inlinable
    mutating func writeColon() {
        storage.append(UInt8(ascii: ":"))
        if pretty { storage.append(UInt8(ascii: " ")) }
    }

    /// Appends the `count` (≤ 8) bytes of `word`, most significant first.
    @inlinable
    mutating func appendASCII(_ word: UInt64, count: Int) {
        var shift = (count - 1) * 8
        while shift >= 0 {
            storage.append(UInt8(truncatingIfNeeded: word >> UInt64(shift)))
            shift -= 8
        }
    }

    @usableFromInline
    mutating func newline(indentLevel: Int) {
        storage.append(UInt8(ascii: "\n"))
        let spaces = indentLevel * indentWidth
        if spaces > 0 { storage.append(contentsOf: repeatElement(UInt8(ascii: " "), count: spaces)) }
    }

    @usableFromInline
    mutating func recordMisuse(_ message: String) {
        if firstMisuse == nil {
            firstMisuse = JSONAPIError(.encodingFailed, "JSONWriter misuse: \(message)", offset: storage.count)
        }
    }

    /// Copies a valid JSON value, dropping insignificant whitespace and re-indenting it for
    /// pretty output at the current depth. Strings are copied untouched.
    @usableFromInline
    mutating func writeReindented(_ json: UnsafeRawBufferPointer) {
        // SAFETY: `json` outlives this call, and so the view.
        let view = unsafe ByteView(unsafeBytes: json)
        let count = json.count
        var level = stack.count
        var index = 0
        while index < count {
            let byte = unsafe json[index]
            switch byte {
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"):
                index += 1
            case UInt8(ascii: "\""):
                let start = index
                index += 1
                while index < count {
                    let c = unsafe json[index]
                    if c == UInt8(ascii: "\\") {
                        index += 2
                    } else {
                        index += 1
                        if c == UInt8(ascii: "\"") { break }
                    }
                }
                view.append(start..<min(index, count), to: &storage)
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                storage.append(byte)
                var next = index + 1
                while next < count, unsafe Self.isWhitespace(json[next]) { next += 1 }
                let close = byte == UInt8(ascii: "{") ? UInt8(ascii: "}") : UInt8(ascii: "]")
                if next < count, unsafe json[next] == close {
                    storage.append(close)
                    index = next + 1
                } else {
                    level += 1
                    newline(indentLevel: level)
                    index += 1
                }
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                level -= 1
                newline(indentLevel: max(0, level))
                storage.append(byte)
                index += 1
            case UInt8(ascii: ","):
                storage.append(byte)
                newline(indentLevel: level)
                index += 1
            case UInt8(ascii: ":"):
                storage.append(byte)
                storage.append(UInt8(ascii: " "))
                index += 1
            default:
                // Numbers and literals: copy the run up to the next structural byte or space.
                let start = index
                index += 1
                while index < count, unsafe !Self.endsScalar(json[index]) { index += 1 }
                view.append(start..<index, to: &storage)
            }
        }
    }

    @usableFromInline
    static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
    }

    @usableFromInline
    static func endsScalar(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x20, 0x0A, 0x0D, 0x09, UInt8(ascii: ","), UInt8(ascii: "}"), UInt8(ascii: "]"), UInt8(ascii: ":"),
            UInt8(ascii: "\""):
            true
        default:
            false
        }
    }
}
