import Testing

@testable @_spi(Backend) import JSONAPI

/// The scanner's window operations: after its caller drops bytes (`rebase`) or restarts it before
/// an array element, it reads the rest exactly as it would have read it unbroken.
@Suite("Scanner: window operations")
struct JSONScannerWindowTests {
    static let document = Array(
        (#"{"data":[{"type":"a","id":"1","attributes":{"t":"x\"y","n":-1.5e3,"ok":true,"z":null}},"#
            + #"{"type":"a","id":"22","attributes":{"list":[1,[2,{"deep":[3]}]]}}],"meta":{"n":12345}}"#).utf8)

    /// `event` with every offset moved by `delta`.
    static func shifted(_ event: ScanEvent, by delta: Int) -> ScanEvent {
        func move(_ token: JSONStringToken) -> JSONStringToken {
            JSONStringToken(start: token.start + delta, end: token.end + delta, hasEscapes: token.hasEscapes)
        }
        switch event {
        case .beginObject(let at): return .beginObject(at + delta)
        case .endObject(let at): return .endObject(at + delta)
        case .beginArray(let at): return .beginArray(at + delta)
        case .endArray(let at): return .endArray(at + delta)
        case .key(let token): return .key(move(token))
        case .string(let token): return .string(move(token))
        case .number(var token):
            token.start += delta
            token.end += delta
            return .number(token)
        case .literal(let literal, let at): return .literal(literal, at + delta)
        }
    }

    @Test("dropping the scanned bytes between tokens changes nothing after them")
    func rebaseBetweenTokens() throws {
        let bytes = Self.document
        let whole = scan(bytes)
        #expect(whole.error == nil)
        var rebased = 0
        for cut in 1..<bytes.count {
            var scanner = JSONScanner()
            var handler = RecordingHandler()
            try bytes.withUnsafeBytes { all in
                try scanner.scan(
                    UnsafeRawBufferPointer(rebasing: all[0..<cut]), baseOffset: 0, isFinal: false, into: &handler)
            }
            guard scanner.isBetweenTokens else { continue }
            #expect(scanner.bytesConsumed == cut)
            rebased += 1
            let before = handler.events
            handler.events = []
            scanner.rebase(droppingFirst: cut)
            #expect(scanner.bytesConsumed == 0)
            try bytes.withUnsafeBytes { all in
                try scanner.scan(
                    UnsafeRawBufferPointer(rebasing: all[cut...]), baseOffset: 0, isFinal: true, into: &handler)
            }
            #expect(before + handler.events.map { Self.shifted($0, by: cut) } == whole.events, "cut at \(cut)")
        }
        // Cuts inside a string, number or literal leave the scanner inside a token.
        #expect(rebased > 20 && rebased < bytes.count - 20)
    }

    @Test("a restarted scanner reads an array element as it was read the first time")
    func restartBeforeElement() throws {
        let bytes = Self.document
        let whole = scan(bytes).events
        // The second element of `data`: the second `{` at depth 2.
        let starts = whole.compactMap { event -> Int? in if case .beginObject(let at) = event { at } else { nil } }
        let second = try #require(starts.first { $0 > 9 && bytes[$0 - 1] == UInt8(ascii: ",") })
        let from = try #require(whole.firstIndex(of: .beginObject(second)))
        var scanner = JSONScanner()
        var handler = RecordingHandler()
        scanner.restartBeforeArrayElement()
        try bytes.withUnsafeBytes { all in
            try scanner.scan(
                UnsafeRawBufferPointer(rebasing: all[second...]), baseOffset: 0, isFinal: true, into: &handler)
        }
        #expect(handler.events.map { Self.shifted($0, by: second) } == Array(whole[from...]))
    }

    @Test("a restarted scanner still checks what follows the element")
    func restartThenBadSyntax() {
        var scanner = JSONScanner()
        var handler = RecordingHandler()
        scanner.restartBeforeArrayElement()
        let bytes = Array(#"{"type":"a"}}"#.utf8)
        var failure: JSONAPIError?
        bytes.withUnsafeBytes { all in
            do throws(JSONAPIError) {
                try scanner.scan(all, baseOffset: 0, isFinal: true, into: &handler)
            } catch { failure = error }
        }
        // `}` closes an object where the array is open.
        #expect(failure?.code == .invalidJSON)
        #expect(failure?.offset == 12)
    }
}
