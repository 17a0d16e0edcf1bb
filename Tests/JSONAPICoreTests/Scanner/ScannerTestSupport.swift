@_spi(Backend) import JSONAPI
import Testing

/// One handler event with its positions.
enum ScanEvent: Hashable, CustomStringConvertible {
    case beginObject(Int)
    case endObject(Int)
    case beginArray(Int)
    case endArray(Int)
    case key(JSONStringToken)
    case string(JSONStringToken)
    case number(JSONNumberToken)
    case literal(JSONLiteral, Int)

    var description: String {
        switch self {
        case .beginObject(let at): "{@\(at)"
        case .endObject(let at): "}@\(at)"
        case .beginArray(let at): "[@\(at)"
        case .endArray(let at): "]@\(at)"
        case .key(let t): "key(\(t.start)..<\(t.end)\(t.hasEscapes ? ",esc" : ""))"
        case .string(let t): "string(\(t.start)..<\(t.end)\(t.hasEscapes ? ",esc" : ""))"
        case .number(let t): "number(\(t.start)..<\(t.end)\(t.isInteger ? ",int" : ""))"
        case .literal(let l, let at): "\(l)@\(at)"
        }
    }
}

/// Records every event.
struct RecordingHandler: JSONEventHandler {
    var events: [ScanEvent] = []

    mutating func beginObject(at offset: Int) throws(JSONAPIError) { events.append(.beginObject(offset)) }
    mutating func endObject(at offset: Int) throws(JSONAPIError) { events.append(.endObject(offset)) }
    mutating func beginArray(at offset: Int) throws(JSONAPIError) { events.append(.beginArray(offset)) }
    mutating func endArray(at offset: Int) throws(JSONAPIError) { events.append(.endArray(offset)) }
    mutating func key(_ token: JSONStringToken) throws(JSONAPIError) { events.append(.key(token)) }
    mutating func string(_ token: JSONStringToken) throws(JSONAPIError) { events.append(.string(token)) }
    mutating func number(_ token: JSONNumberToken) throws(JSONAPIError) { events.append(.number(token)) }
    mutating func literal(_ value: JSONLiteral, at offset: Int) throws(JSONAPIError) {
        events.append(.literal(value, offset))
    }
}

/// What a scan produced: its events and, if it failed, the error.
struct ScanOutcome: Equatable, CustomStringConvertible {
    var events: [ScanEvent]
    var error: JSONAPIError?

    var isAccepted: Bool { error == nil }

    var description: String {
        let verdict = error.map { "\($0.code) @\($0.offset): \($0.message)" } ?? "accepted"
        return "\(verdict) after \(events.count) events"
    }
}

/// Scans `bytes` fed as the chunks that end at each of `cuts` (ascending, inside the bytes), then
/// the rest as the final chunk, with `structuralIndex` ahead of the state machine. An empty
/// `cuts` scans the whole buffer at once.
func scan(
    _ bytes: [UInt8], cuts: [Int] = [], emptyFinalChunk: Bool = false, maximumDepth: Int = 512,
    maximumStringBytes: Int = 1 << 30, structuralIndex: StructuralIndex = .automatic
) -> ScanOutcome {
    var scanner = JSONScanner(
        maximumDepth: maximumDepth, maximumStringBytes: maximumStringBytes, structuralIndex: structuralIndex)
    var handler = RecordingHandler()
    var bounds = [0] + cuts + [bytes.count]
    if emptyFinalChunk { bounds.append(bytes.count) }
    var failure: JSONAPIError?
    bytes.withUnsafeBytes { all in
        for k in 0..<(bounds.count - 1) {
            let chunk = UnsafeRawBufferPointer(rebasing: all[bounds[k]..<bounds[k + 1]])
            do throws(JSONAPIError) {
                try scanner.scan(chunk, baseOffset: bounds[k], isFinal: k == bounds.count - 2, into: &handler)
            } catch {
                failure = error
                return
            }
        }
    }
    return ScanOutcome(events: handler.events, error: failure)
}

/// Scans `bytes` one byte per chunk, then an empty final chunk.
func scanBytewise(_ bytes: [UInt8], maximumDepth: Int = 512, maximumStringBytes: Int = 1 << 30) -> ScanOutcome {
    scan(
        bytes, cuts: Array(bytes.indices.dropFirst()) + (bytes.isEmpty ? [] : [bytes.count]),
        maximumDepth: maximumDepth, maximumStringBytes: maximumStringBytes)
}

extension Array where Element == UInt8 {
    init(json: String) { self = Array(json.utf8) }
}

/// Scans `bytes` whole, split in two at every boundary and one byte at a time; expects every way
/// to give the same outcome, and returns it.
func scanEveryWay(
    _ bytes: [UInt8], maximumDepth: Int = 512, maximumStringBytes: Int = 1 << 30,
    sourceLocation: Testing.SourceLocation = #_sourceLocation
) -> ScanOutcome {
    let whole = scan(bytes, maximumDepth: maximumDepth, maximumStringBytes: maximumStringBytes)
    for cut in 0...bytes.count {
        let split = scan(
            bytes, cuts: [cut], maximumDepth: maximumDepth, maximumStringBytes: maximumStringBytes)
        #expect(split == whole, "split at \(cut): \(split) vs whole \(whole)", sourceLocation: sourceLocation)
        if split != whole { break }
    }
    let bytewise = scanBytewise(bytes, maximumDepth: maximumDepth, maximumStringBytes: maximumStringBytes)
    #expect(bytewise == whole, "bytewise: \(bytewise) vs whole \(whole)", sourceLocation: sourceLocation)
    return whole
}

/// `scanEveryWay` on the UTF-8 of `json`.
func scanEveryWay(
    _ json: String, maximumDepth: Int = 512, maximumStringBytes: Int = 1 << 30,
    sourceLocation: Testing.SourceLocation = #_sourceLocation
) -> ScanOutcome {
    scanEveryWay(
        Array(json.utf8), maximumDepth: maximumDepth, maximumStringBytes: maximumStringBytes,
        sourceLocation: sourceLocation)
}
