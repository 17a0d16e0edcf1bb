/// Where a byte offset lies in a document, as people read it.
@_spi(Backend)
public struct SourceLocation: Hashable, Sendable {
    /// 1-based line: one more than the number of line feeds before the offset.
    public var line: Int
    /// 1-based column: one more than the number of Unicode scalars between the last line feed and
    /// the offset (bytes that are not UTF-8 continuation bytes).
    public var column: Int
    /// JSON Pointer (RFC 6901) of the innermost member or value at the offset; `""` is the root.
    public var pointer: String

    /// Creates a location.
    public init(line: Int, column: Int, pointer: String) {
        self.line = line
        self.column = column
        self.pointer = pointer
    }
}

/// Computes line, column and JSON Pointer for byte offsets, to show errors to people.
///
/// Errors carry only byte offsets while bytes stream past; whoever still has the bytes calls
/// this once, for all the offsets it wants to show:
///
/// ```swift
/// let locations = SourceLocator.locate(offsets: [error.offset], in: buffer)
/// error.line = locations[0].line  // and column, pointer
/// ```
///
/// The pointer is the path of the innermost value or member whose token contains the offset. A
/// key belongs to its member (`"id"` in `{"data":{"id":1}}` is at `/data/id`, like the `1`); the
/// brackets of a container, and the commas, colons and whitespace inside it, belong to the
/// container; outside the top-level value it is the root, `""`.
///
/// Invalid input is fine: the walk stops at the first syntax error, and every offset past the
/// point where the scan stopped gets the path the scanner was at (the value it was reading, or
/// the member whose key it had read, or the container).
@_spi(Backend)
public enum SourceLocator {
    /// Locates `offsets` in `bytes`.
    ///
    /// - Parameters:
    ///   - offsets: Byte offsets, in any order. A negative offset ("no place") gets line 0,
    ///     column 0 and the root pointer; offsets past the end are located at the end.
    ///   - bytes: The whole document.
    /// - Returns: One location per offset, in the same order.
    /// - Complexity: One pass over the bytes up to the largest offset (and to the end of the
    ///   token that contains it): the scanner and the line count walk it together, chunk by chunk.
    public static func locate(offsets: [Int], in bytes: UnsafeRawBufferPointer) -> [SourceLocation] {
        var results = Array(repeating: SourceLocation(line: 0, column: 0, pointer: ""), count: offsets.count)
        let order = offsets.indices.filter { offsets[$0] >= 0 }.sorted { offsets[$0] < offsets[$1] }
        guard !order.isEmpty else { return results }
        // SAFETY: the caller's bytes stay valid for this call, and the view does not outlive it.
        let bytes = unsafe ByteView(unsafeBytes: bytes)
        let targets = order.map { min(offsets[$0], bytes.count) }
        let last = targets[targets.count - 1]

        var tracker = PathTracker(targets: targets)
        var lines = LineCounter()
        var nextLine = 0
        // Advances the line count to `end`, recording the location of every target before it.
        func count(to end: Int) {
            while nextLine < targets.count && targets[nextLine] <= end {
                lines.advance(over: bytes, to: targets[nextLine])
                results[order[nextLine]].line = lines.line
                results[order[nextLine]].column = lines.column
                nextLine &+= 1
            }
            lines.advance(over: bytes, to: min(end, last))
        }

        // The scanner is forgiving about limits here: the walk must reach the offsets.
        var scanner = JSONScanner(maximumDepth: 1 << 20, maximumStringBytes: .max)
        var start = 0
        scanning: while true {
            let end = min(bytes.count, start &+ 1 << 16)
            do {
                // `start..<end` is clamped to `bytes` above.
                unsafe try bytes.subview(start..<end).withUnsafeBytes { (chunk) throws(JSONAPIError) in
                    unsafe try scanner.scan(chunk, baseOffset: start, isFinal: end == bytes.count, into: &tracker)
                }
            } catch {
                tracker.stop(at: error.offset, scanner: scanner, bytes: bytes)
                break scanning
            }
            count(to: end)
            if end == bytes.count || tracker.isDone { break }
            start = end
        }
        count(to: last)
        tracker.finish()
        for (k, index) in order.enumerated() {
            results[index].pointer = tracker.pointer(of: k, in: bytes)
        }
        return results
    }
}

/// A scanner handler that follows the path to each target offset.
struct PathTracker: JSONEventHandler {
    /// How a container or value is reached from its parent.
    enum Component {
        case key(JSONStringToken)
        case index(Int)
    }

    /// An open container.
    struct Frame {
        var isObject: Bool
        /// Arrays: the index of the next element.
        var nextIndex = 0
        /// Objects: the key of the member being read, if one was read.
        var key: JSONStringToken?
        /// Whether opening this container appended a component to the path.
        var hasComponent: Bool
    }

    /// The targets, ascending.
    let targets: [Int]
    /// The path each target resolved to (components of the path, in order).
    var paths: [[Component]?]
    /// The first target not yet resolved.
    var next = 0
    /// Everything before this offset has been attributed.
    var cursor = 0
    /// The open containers, outermost first.
    var frames: [Frame] = []
    /// The path of the innermost open container: `components[k]` leads into `frames[k]`.
    var components: [Component] = []

    init(targets: [Int]) {
        self.targets = targets
        self.paths = Array(repeating: nil, count: targets.count)
    }

    var isDone: Bool { next == targets.count }

    /// The path of the innermost container.
    var containerPath: [Component] { components }

    /// The component of the value now being read in the innermost container, if any.
    var memberComponent: Component? {
        guard let frame = frames.last else { return nil }
        if frame.isObject { return frame.key.map { .key($0) } }
        return .index(frame.nextIndex)
    }

    /// The path of the value now being read.
    var valuePath: [Component] {
        guard let member = memberComponent else { return components }
        return components + [member]
    }

    /// Which path a token has.
    enum TokenPath {
        /// The innermost container's.
        case container
        /// The value being read.
        case value
        /// This one.
        case explicit([Component])
    }

    /// Resolves the targets in `cursor ..< start` to the container and those in `start ..< end`
    /// to `tokenPath`. Paths are built only when a target needs one.
    mutating func attribute(tokenFrom start: Int, to end: Int, path tokenPath: TokenPath) {
        while next < targets.count && targets[next] < start {
            paths[next] = containerPath
            next &+= 1
        }
        if next < targets.count && targets[next] < end {
            let path: [Component]
            switch tokenPath {
            case .container: path = containerPath
            case .value: path = valuePath
            case .explicit(let explicit): path = explicit
            }
            while next < targets.count && targets[next] < end {
                paths[next] = path
                next &+= 1
            }
        }
        cursor = end
    }

    /// A value in the innermost container is complete.
    mutating func completeValue() {
        guard !frames.isEmpty else { return }
        let top = frames.count &- 1
        if frames[top].isObject { frames[top].key = nil } else { frames[top].nextIndex &+= 1 }
    }

    mutating func open(isObject: Bool, at offset: Int) {
        attribute(tokenFrom: offset, to: offset &+ 1, path: .value)
        let member = memberComponent
        if let member { components.append(member) }
        frames.append(Frame(isObject: isObject, hasComponent: member != nil))
    }

    mutating func close(at offset: Int) {
        attribute(tokenFrom: offset, to: offset &+ 1, path: .container)
        guard let frame = frames.popLast() else { return }
        if frame.hasComponent && !components.isEmpty { components.removeLast() }
        completeValue()
    }

    mutating func beginObject(at offset: Int) throws(JSONAPIError) { open(isObject: true, at: offset) }
    mutating func beginArray(at offset: Int) throws(JSONAPIError) { open(isObject: false, at: offset) }
    mutating func endObject(at offset: Int) throws(JSONAPIError) { close(at: offset) }
    mutating func endArray(at offset: Int) throws(JSONAPIError) { close(at: offset) }

    mutating func key(_ token: JSONStringToken) throws(JSONAPIError) {
        if !frames.isEmpty { frames[frames.count &- 1].key = token }
        attribute(tokenFrom: token.start &- 1, to: token.end &+ 1, path: .value)
    }

    mutating func string(_ token: JSONStringToken) throws(JSONAPIError) {
        attribute(tokenFrom: token.start &- 1, to: token.end &+ 1, path: .value)
        completeValue()
    }

    mutating func number(_ token: JSONNumberToken) throws(JSONAPIError) {
        attribute(tokenFrom: token.start, to: token.end, path: .value)
        completeValue()
    }

    mutating func literal(_ value: JSONLiteral, at offset: Int) throws(JSONAPIError) {
        attribute(tokenFrom: offset, to: offset &+ value.length, path: .value)
        completeValue()
    }

    /// The scan failed at `offset`: the separators and whitespace after the last token belong to
    /// the container, and everything from the next token on to where the scanner was.
    mutating func stop(at offset: Int, scanner: JSONScanner, bytes: ByteView) {
        var tokenStart = max(cursor, 0)
        while tokenStart < bytes.count && tokenStart < offset {
            let c = bytes[tokenStart]
            guard c == UInt8(ascii: ",") || c == UInt8(ascii: ":") || (c <= 0x20 && JSONScanner.isWhitespace(c))
            else { break }
            tokenStart &+= 1
        }
        let path: [Component]
        if scanner.isAtValue {
            path = valuePath
        } else if scanner.isAfterKey, let member = memberComponent {
            path = components + [member]
        } else {
            path = containerPath
        }
        attribute(tokenFrom: tokenStart, to: .max, path: .explicit(path))
    }

    /// The input ended: targets after the last token lie outside the top-level value.
    mutating func finish() {
        attribute(tokenFrom: .max, to: .max, path: .explicit([]))
    }

    /// The JSON Pointer of target `k`.
    func pointer(of k: Int, in bytes: ByteView) -> String {
        guard let path = paths[k] else { return "" }
        var pointer = ""
        for component in path {
            pointer += "/"
            switch component {
            case .index(let index):
                pointer += String(index)
            case .key(let token):
                let start = max(0, min(token.start, bytes.count))
                let end = max(start, min(token.end, bytes.count))
                // `start..<end` is clamped to `bytes` above.
                let key = unsafe bytes.subview(start..<end).withUnsafeBytes {
                    unsafe JSONStringDecoding.decode($0, hasEscapes: token.hasEscapes)
                }
                SourceLocator.appendToken(key, to: &pointer)
            }
        }
        return pointer
    }
}

extension SourceLocator {
    /// Appends `name` as a reference token (RFC 6901: `~` as `~0`, `/` as `~1`), without the
    /// leading `/`.
    static func appendToken(_ name: String, to pointer: inout String) {
        for character in name.unicodeScalars {
            switch character {
            case "~": pointer += "~0"
            case "/": pointer += "~1"
            default: pointer.unicodeScalars.append(character)
            }
        }
    }
}
