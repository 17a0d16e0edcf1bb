@_spi(Backend) import JSONAPI

/// The events of one scan and its error, for comparing the structural index kernels with the
/// byte-level scanner (the `index` target).
struct IndexScan: Equatable, CustomStringConvertible {
    /// Every event as text: kind and positions.
    var events: [String] = []
    var error: JSONAPIError?

    /// Scans `bytes` with `kernel`, whole (`sizes` nil) or in chunks of `sizes` (cycled).
    init(_ bytes: [UInt8], kernel: StructuralIndex, sizes: [Int]?) {
        var scanner = JSONScanner(structuralIndex: kernel)
        var handler = Recorder()
        var failure: JSONAPIError?
        bytes.withUnsafeBytes { all in
            var start = 0
            var k = 0
            repeat {
                let size = sizes.map { $0.isEmpty ? all.count : max(1, $0[k % $0.count]) } ?? all.count
                let end = min(all.count, start + size)
                do throws(JSONAPIError) {
                    try scanner.scan(
                        UnsafeRawBufferPointer(rebasing: all[start..<end]), baseOffset: start,
                        isFinal: end == all.count,
                        into: &handler)
                } catch {
                    failure = error
                    return
                }
                start = end
                k += 1
            } while start < all.count
        }
        events = handler.events
        error = failure
    }

    var description: String {
        "\(error.map { "\($0.code) @\($0.offset): \($0.message)" } ?? "accepted") after \(events.count) events"
    }

    private struct Recorder: JSONEventHandler {
        var events: [String] = []
        mutating func beginObject(at offset: Int) throws(JSONAPIError) { events.append("{\(offset)") }
        mutating func endObject(at offset: Int) throws(JSONAPIError) { events.append("}\(offset)") }
        mutating func beginArray(at offset: Int) throws(JSONAPIError) { events.append("[\(offset)") }
        mutating func endArray(at offset: Int) throws(JSONAPIError) { events.append("]\(offset)") }
        mutating func key(_ t: JSONStringToken) throws(JSONAPIError) {
            events.append("k\(t.start)-\(t.end)\(t.hasEscapes)")
        }
        mutating func string(_ t: JSONStringToken) throws(JSONAPIError) {
            events.append("s\(t.start)-\(t.end)\(t.hasEscapes)")
        }
        mutating func number(_ t: JSONNumberToken) throws(JSONAPIError) {
            events.append("n\(t.start)-\(t.end)\(t.isInteger)")
        }
        mutating func literal(_ value: JSONLiteral, at offset: Int) throws(JSONAPIError) {
            events.append("l\(value)\(offset)")
        }
    }
}
