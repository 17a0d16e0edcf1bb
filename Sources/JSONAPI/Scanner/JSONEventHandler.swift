/// A string token: the position of a JSON string's contents in the input.
///
/// Tokens are positions, never values: `start` is the offset of the first byte after the
/// opening quote and `end` the offset of the closing quote, so the raw contents are
/// `input[start..<end]`. When `hasEscapes` is false those bytes are the string's value
/// (already validated UTF-8); otherwise they must be unescaped to be read.
@_spi(Backend)
public struct JSONStringToken: Hashable, Sendable {
    /// Offset of the first content byte (one past the opening quote).
    public var start: Int
    /// Offset of the closing quote.
    public var end: Int
    /// Whether the raw contents contain at least one backslash escape.
    public var hasEscapes: Bool

    @inlinable
    public init(start: Int, end: Int, hasEscapes: Bool) {
        self.start = start
        self.end = end
        self.hasEscapes = hasEscapes
    }

    /// The number of raw content bytes.
    @inlinable public var count: Int { end - start }
}

/// A number token: the position of a JSON number's text in the input.
@_spi(Backend)
public struct JSONNumberToken: Hashable, Sendable {
    /// Offset of the first byte (`-` or a digit).
    public var start: Int
    /// Offset one past the last byte.
    public var end: Int
    /// True when the number has neither a fraction nor an exponent.
    public var isInteger: Bool

    @inlinable
    public init(start: Int, end: Int, isInteger: Bool) {
        self.start = start
        self.end = end
        self.isInteger = isInteger
    }
}

/// The three JSON literals.
@_spi(Backend)
public enum JSONLiteral: UInt8, Hashable, Sendable {
    case null
    case `true`
    case `false`

    /// The literal's length in bytes.
    @inlinable public var length: Int {
        switch self {
        case .null, .true: 4
        case .false: 5
        }
    }
}

/// Receives the SAX events of one JSON text, in document order.
///
/// Both tokenizer backends (the handwritten ``JSONScanner`` and the libyajl backend) drive a
/// handler through this protocol, and must produce the same event sequence with the same
/// positions for the same input. The handler is a generic parameter of the scanner, so calls
/// are specialised and inlined, never dispatched through an existential in the hot loop.
///
/// Offsets are absolute byte offsets from the start of the document, whatever chunk they
/// arrived in. A handler that needs the bytes of a token reads them from its own copy of the
/// input, which by the time an event arrives holds every byte up to the token's end.
@_spi(Backend)
public protocol JSONEventHandler {
    /// `{` at `offset`.
    mutating func beginObject(at offset: Int) throws(JSONAPIError)
    /// `}` at `offset`.
    mutating func endObject(at offset: Int) throws(JSONAPIError)
    /// `[` at `offset`.
    mutating func beginArray(at offset: Int) throws(JSONAPIError)
    /// `]` at `offset`.
    mutating func endArray(at offset: Int) throws(JSONAPIError)
    /// An object member name. The value's events follow.
    mutating func key(_ token: JSONStringToken) throws(JSONAPIError)
    /// A string value.
    mutating func string(_ token: JSONStringToken) throws(JSONAPIError)
    /// A number value.
    mutating func number(_ token: JSONNumberToken) throws(JSONAPIError)
    /// `null`, `true` or `false` starting at `offset`.
    mutating func literal(_ value: JSONLiteral, at offset: Int) throws(JSONAPIError)

    /// Offers the handler a whole object before any of its events: the `{` at `p[i]`, with the
    /// chunk's bytes up to `p[n - 1]` readable and `base` the absolute offset of `p[0]`.
    ///
    /// A handler that recognises an object of a shape it expects there, lying wholly inside the
    /// chunk, does for it what its events would have done and returns the index just past its
    /// `}`; the scanner then goes on after it. It may accept only text the scanner itself would
    /// accept with the same events: valid JSON, strings of at most `stringLimit` bytes, nested
    /// at most `depthLimit` levels deep counting the object itself (the scanner's depth limit).
    /// Anything else returns nil (the default), and the scanner reports the object's events as
    /// usual. Used for the very frequent objects of JSON:API (resource objects, resource
    /// identifiers, links, attributes), where per-event work dominates.
    mutating func wholeObject(
        _ p: UnsafeRawPointer, at i: Int, count n: Int, base: Int, stringLimit: Int, depthLimit: Int
    ) -> Int?

    /// Whether the handler reads most of the input itself through
    /// ``wholeObject(_:at:count:base:stringLimit:depthLimit:)``. The scanner then runs no
    /// structural index ahead of it: the index would classify bytes the handler reads anyway.
    /// The walk over the index offers no object whole, so a handler that leaves this `false`
    /// gets events for every object there. Default `false`.
    static var readsWholeObjects: Bool { get }
}

extension JSONEventHandler {
    /// Reads nothing whole: the scanner may index ahead.
    public static var readsWholeObjects: Bool { false }

    /// Declines every object: the scanner reports all events.
    @inline(__always)
    public mutating func wholeObject(
        _ p: UnsafeRawPointer, at i: Int, count n: Int, base: Int, stringLimit: Int, depthLimit: Int
    ) -> Int? {
        nil
    }
}
