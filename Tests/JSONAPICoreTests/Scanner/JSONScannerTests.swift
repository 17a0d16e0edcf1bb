@_spi(Backend) import JSONAPI
import Testing

@Suite("JSONScanner: tokens, errors and limits")
struct JSONScannerTests {
    // MARK: Tokens

    @Test("Token positions and flags of a small document")
    func tokenPositions() {
        let outcome = scanEveryWay(#"{"a":"x\ny","b":[1,-2.5e3,true,false,null],"c":{}}"#)
        #expect(outcome.error == nil)
        #expect(
            outcome.events == [
                .beginObject(0),
                .key(JSONStringToken(start: 2, end: 3, hasEscapes: false)),
                .string(JSONStringToken(start: 6, end: 10, hasEscapes: true)),
                .key(JSONStringToken(start: 13, end: 14, hasEscapes: false)),
                .beginArray(16),
                .number(JSONNumberToken(start: 17, end: 18, isInteger: true)),
                .number(JSONNumberToken(start: 19, end: 25, isInteger: false)),
                .literal(.true, 26),
                .literal(.false, 31),
                .literal(.null, 37),
                .endArray(41),
                .key(JSONStringToken(start: 44, end: 45, hasEscapes: false)),
                .beginObject(47),
                .endObject(48),
                .endObject(49),
            ])
    }

    @Test(
        "Top-level scalars and whitespace",
        arguments: [
            (" 123 ", ScanEvent.number(JSONNumberToken(start: 1, end: 4, isInteger: true))),
            ("123", .number(JSONNumberToken(start: 0, end: 3, isInteger: true))),
            ("-0", .number(JSONNumberToken(start: 0, end: 2, isInteger: true))),
            ("0.0e-0", .number(JSONNumberToken(start: 0, end: 6, isInteger: false))),
            ("1E+2", .number(JSONNumberToken(start: 0, end: 4, isInteger: false))),
            ("\t\"\"\r\n", .string(JSONStringToken(start: 2, end: 2, hasEscapes: false))),
            ("true", .literal(.true, 0)),
            ("\nnull", .literal(.null, 1)),
            ("false ", .literal(.false, 0)),
        ])
    func scalars(_ json: String, _ event: ScanEvent) {
        let outcome = scanEveryWay(json)
        #expect(outcome.error == nil)
        #expect(outcome.events == [event])
    }

    @Test("String flags: escapes, UTF-8 and surrogate pairs")
    func stringFlags() {
        let cases: [(String, Bool)] = [
            (#""plain ascii text that is longer than eight bytes""#, false),
            (#""café 日本 🙂 \u00e9""#, true),
            (#""\uD83D\uDE00""#, true),
            (#""\uDBFF\uDFFF""#, true),
            (#""\"\\\/\b\f\n\r\t""#, true),
            ("\"\u{7F}\u{10FFFF}\u{FFFF}\"", false),
        ]
        for (json, hasEscapes) in cases {
            let outcome = scanEveryWay(json)
            #expect(outcome.error == nil, "\(json)")
            let count = json.utf8.count
            #expect(
                outcome.events == [.string(JSONStringToken(start: 1, end: count - 1, hasEscapes: hasEscapes))],
                "\(json)")
        }
    }

    @Test("Deep but allowed nesting alternating objects and arrays restores each container's kind")
    func deepAlternatingNesting() {
        let levels = 700
        let json =
            String(repeating: #"{"k":["#, count: levels) + "1" + String(repeating: "]}", count: levels)
        let outcome = scan(Array(json.utf8), maximumDepth: 2 * levels)
        #expect(outcome.error == nil)
        let closers = outcome.events.suffix(2 * levels)
        var expectArray = true
        for event in closers {
            switch event {
            case .endArray: #expect(expectArray)
            case .endObject: #expect(!expectArray)
            default: Issue.record("unexpected \(event)")
            }
            expectArray.toggle()
        }
        // Chunked at a few places, including the 64-level word boundaries.
        let bytes = Array(json.utf8)
        for cuts in [[6 * 64], [6 * 64 - 1, 6 * 64 + 7], [bytes.count / 2], [bytes.count - 130]] {
            #expect(scan(bytes, cuts: cuts, maximumDepth: 2 * levels) == outcome)
        }
        #expect(scan(bytes, maximumDepth: 2 * levels - 1).error?.code == .depthLimitExceeded)
    }

    // MARK: Errors

    @Test(
        "Invalid UTF-8 in strings",
        arguments: [
            ([0x22, 0x61, 0xC3, 0x28, 0x22], 3),  // a 2-byte lead followed by ASCII
            ([0x22, 0xE0, 0x80, 0x80, 0x22], 2),  // overlong 3-byte
            ([0x22, 0xC0, 0xAF, 0x22], 1),  // overlong 2-byte lead
            ([0x22, 0xC1, 0xBF, 0x22], 1),
            ([0x22, 0xF0, 0x80, 0x80, 0x80, 0x22], 2),  // overlong 4-byte
            ([0x22, 0xED, 0xA0, 0x80, 0x22], 2),  // UTF-8-encoded surrogate U+D800
            ([0x22, 0xED, 0xBF, 0xBF, 0x22], 2),  // U+DFFF
            ([0x22, 0xF4, 0x90, 0x80, 0x80, 0x22], 2),  // U+110000
            ([0x22, 0xF5, 0x80, 0x80, 0x80, 0x22], 1),  // a byte never in UTF-8
            ([0x22, 0xFF, 0x22], 1),
            ([0x22, 0x80, 0x22], 1),  // stray continuation byte
            ([0x22, 0x61, 0x62, 0xBF, 0x22], 3),
            ([0x22, 0xE2, 0x82, 0x22], 3),  // truncated by the closing quote
            ([0x22, 0xF0, 0x9F, 0x98, 0x22], 4),
            ([0x22, 0xF0, 0x9F, 0x98, 0x41, 0x22], 4),
            ([0x22, 0xC3, 0xC3, 0xA9, 0x22], 2),  // a lead where a continuation belongs
            ([0x22, 0xE6, 0x97, 0xA5, 0xE6, 0x9C, 0xAC, 0xED, 0xA0, 0x80, 0x22], 8),  // inside a run
            ([0x22, 0xD0, 0x96, 0xD0, 0x96, 0xD0, 0x22], 6),  // a run cut by the quote
        ] as [([UInt8], Int)])
    func invalidUTF8(_ bytes: [UInt8], _ offset: Int) {
        let outcome = scanEveryWay(bytes)
        #expect(outcome.error?.code == .invalidUTF8)
        #expect(outcome.error?.offset == offset)
        #expect(outcome.error?.message.hasPrefix("invalid UTF-8") == true)
    }

    @Test("Valid UTF-8 at the edges of each range")
    func validUTF8Edges() {
        let scalars: [Unicode.Scalar] = [
            "\u{80}", "\u{7FF}", "\u{800}", "\u{D7FF}", "\u{E000}", "\u{FFFD}",
            "\u{FFFF}", "\u{10000}", "\u{10FFFF}",
        ]
        for scalar in scalars {
            let outcome = scanEveryWay("\"x\(scalar)y\"")
            #expect(outcome.error == nil, "U+\(String(scalar.value, radix: 16))")
        }
    }

    @Test("Non-ASCII bytes outside strings are not JSON")
    func utf8OutsideStrings() {
        let outcome = scanEveryWay([0x5B, 0xC3, 0xA9, 0x5D])
        #expect(outcome.error?.code == .invalidJSON)
        #expect(outcome.error?.offset == 1)
        #expect(outcome.error?.message == "expected a value or ']' after '[', found byte 0xC3")
    }

    @Test(
        "Bad escapes and unpaired surrogates",
        arguments: [
            (#""\x""#, 2, "invalid escape: expected one of"),
            (#""\U0041""#, 2, "invalid escape: expected one of"),
            (#""\u12G4""#, 5, "expected a hexadecimal digit"),
            (#""\u""#, 3, "expected a hexadecimal digit"),
            (#""\uD800""#, 1, #"unpaired high surrogate escape \uD800"#),
            (#""\uDC00""#, 1, #"unpaired low surrogate escape \uDC00"#),
            (#""ab\uD800\u0041""#, 3, #"unpaired high surrogate escape \uD800"#),
            (#""\uD800\n""#, 1, #"unpaired high surrogate escape \uD800"#),
            (#""\uD800\uD800""#, 1, #"unpaired high surrogate escape \uD800"#),
            (#""\uDBFFx""#, 1, #"unpaired high surrogate escape \uDBFF"#),
            (#""\uD83D\uDE0""#, 12, "expected a hexadecimal digit"),
        ])
    func badEscapes(_ json: String, _ offset: Int, _ message: String) {
        let outcome = scanEveryWay(json)
        #expect(outcome.error?.code == .invalidEscape)
        #expect(outcome.error?.offset == offset)
        #expect(outcome.error?.message.contains(message) == true, "\(outcome)")
    }

    @Test("Unescaped control characters in strings")
    func controlCharacters() {
        for byte in [UInt8](0..<0x20) {
            let outcome = scanEveryWay([0x22, 0x61, byte, 0x22])
            #expect(outcome.error?.code == .invalidJSON)
            #expect(outcome.error?.offset == 2)
        }
        #expect(scanEveryWay([0x22, 0x7F, 0x22]).error == nil)
    }

    @Test(
        "Bad numbers",
        arguments: [
            ("01", JSONAPIError.Code.invalidNumber, 1),
            ("-01", .invalidNumber, 2),
            ("[1.]", .invalidNumber, 3),
            ("1.", .unexpectedEnd, 2),
            ("-", .unexpectedEnd, 1),
            ("1e+", .unexpectedEnd, 3),
            ("1e", .unexpectedEnd, 2),
            (".5", .invalidNumber, 0),
            ("+1", .invalidNumber, 0),
            ("1.5.3", .invalidNumber, 3),
            ("[1e5e]", .invalidNumber, 4),
            ("[1+2]", .invalidNumber, 2),
            ("[-a]", .invalidNumber, 2),
            ("[0x1]", .invalidJSON, 2),
            ("[1,-]", .invalidNumber, 4),
            ("{\"a\":1.e5}", .invalidNumber, 7),
        ])
    func badNumbers(_ json: String, _ code: JSONAPIError.Code, _ offset: Int) {
        let outcome = scanEveryWay(json)
        #expect(outcome.error?.code == code, "\(json): \(outcome)")
        #expect(outcome.error?.offset == offset, "\(json): \(outcome)")
    }

    @Test(
        "Trailing garbage and grammar errors name what was expected and found",
        arguments: [
            ("{} x", 3, "expected the end of the input after the JSON value, found 'x'"),
            ("1 2", 2, "expected the end of the input after the JSON value, found '2'"),
            (#""a"b"#, 3, "expected the end of the input after the JSON value, found 'b'"),
            ("nullx", 4, "expected the end of the input after the JSON value, found 'x'"),
            ("[] ]", 3, "expected the end of the input after the JSON value, found ']'"),
            (#"{"a":1 x}"#, 7, "expected ',' or '}' after an object member, found 'x'"),
            ("[1 x]", 3, "expected ',' or ']' after an array element, found 'x'"),
            (#"{"a" 1}"#, 5, "expected ':' after an object key, found '1'"),
            (#"{"a":1,}"#, 7, "expected a string key after ',' in an object, found '}'"),
            ("[1,]", 3, "expected a value after ',' in an array, found ']'"),
            ("{1:2}", 1, "expected a string key or '}' after '{', found '1'"),
            ("{'a':1}", 1, "expected a string key or '}' after '{', found ''' (JSON strings use double quotes)"),
            (#"{"a":}"#, 5, "expected a value after ':', found '}'"),
            ("[tru]", 4, "expected the literal 'true', found ']' at its byte 4"),
            ("nul", 3, "expected the literal 'null', found the end of the input"),
            ("[}", 1, "expected a value or ']' after '[', found '}'"),
            ("\u{0C}1", 0, "expected a JSON value, found byte 0x0C"),
        ])
    func grammarErrors(_ json: String, _ offset: Int, _ message: String) {
        let outcome = scanEveryWay(json)
        #expect(outcome.error?.offset == offset, "\(json): \(outcome)")
        #expect(outcome.error?.message == message)
        #expect(outcome.error?.code == (json == "nul" ? .unexpectedEnd : .invalidJSON))
    }

    @Test("A byte order mark is rejected with a clear message")
    func byteOrderMark() {
        let outcome = scanEveryWay([0xEF, 0xBB, 0xBF, 0x7B, 0x7D])
        #expect(outcome.error?.code == .invalidJSON)
        #expect(outcome.error?.offset == 0)
        #expect(outcome.error?.message.hasPrefix("byte order mark is not allowed") == true)
        #expect(outcome.events.isEmpty)
    }

    @Test(
        "Input that ends early is unexpectedEnd at the end offset",
        arguments: [
            ("", 0, "expected a JSON value, found the end of the input"),
            ("  \n", 3, "expected a JSON value, found the end of the input"),
            ("[", 1, "expected a value or ']' after '['"),
            (#"{"a""#, 4, "expected ':' after an object key"),
            (#"{"a":"#, 5, "expected a value after ':'"),
            (#"{"a":1"#, 6, "expected ',' or '}' after an object member"),
            (#"["ab"#, 4, "expected '\"' to close the string starting at offset 1"),
            (#"["ab\"#, 5, "inside an escape sequence"),
            (#"{"ab"#, 4, "expected '\"' to close the key starting at offset 1"),
            ("tr", 2, "expected the literal 'true'"),
        ])
    func unexpectedEnd(_ json: String, _ offset: Int, _ message: String) {
        let outcome = scanEveryWay(json)
        #expect(outcome.error?.code == .unexpectedEnd)
        #expect(outcome.error?.offset == offset)
        #expect(outcome.error?.message.contains(message) == true, "\(outcome)")
    }

    @Test("An unterminated string at the start of a long input")
    func unterminatedLongString() {
        let bytes = [0x22] + [UInt8](repeating: 0x61, count: 100_000)
        let whole = scan(bytes)
        #expect(whole.error?.code == .unexpectedEnd)
        #expect(whole.error?.offset == 100_001)
        #expect(whole.error?.message.contains("starting at offset 0") == true)
        let chunked = scan(bytes, cuts: Array(stride(from: 65_536, to: bytes.count, by: 65_536)))
        #expect(chunked == whole)
        #expect(scan(bytes, cuts: [1, 2, 9, 17, 50_000]) == whole)
    }

    // MARK: Limits

    @Test("100,000 nested arrays fail at the depth limit without crashing")
    func deepNesting() {
        let bytes = [UInt8](repeating: UInt8(ascii: "["), count: 100_000)
        let outcome = scan(bytes)
        #expect(outcome.error?.code == .depthLimitExceeded)
        #expect(outcome.error?.offset == 512)
        #expect(outcome.events.count == 512)
        #expect(scanBytewise(bytes) == outcome)
        // Allowed that deep, it nests fine and ends where the input ends.
        let unlimited = scan(bytes, maximumDepth: 1_000_000)
        #expect(unlimited.error?.code == .unexpectedEnd)
        #expect(unlimited.error?.offset == 100_000)
        let balanced = bytes + [UInt8](repeating: UInt8(ascii: "]"), count: 100_000)
        let closed = scan(balanced, maximumDepth: 100_000)
        #expect(closed.error == nil)
        #expect(closed.events.count == 200_000)
        #expect(scan(balanced, maximumDepth: 99_999).error?.offset == 99_999)
    }

    @Test("The depth limit counts objects and arrays together")
    func depthLimit() {
        #expect(scanEveryWay("[{\"a\":[]}]", maximumDepth: 3).error == nil)
        let outcome = scanEveryWay("[{\"a\":[[]]}]", maximumDepth: 3)
        #expect(outcome.error?.code == .depthLimitExceeded)
        #expect(outcome.error?.offset == 7)
        #expect(scanEveryWay("[]", maximumDepth: 0).error?.code == .depthLimitExceeded)
        #expect(scanEveryWay("1", maximumDepth: 0).error == nil)
    }

    @Test("The string limit counts raw content bytes, keys included")
    func stringLimit() {
        #expect(scanEveryWay(#""abcde""#, maximumStringBytes: 5).error == nil)
        let tooLong = scanEveryWay(#""abcdef""#, maximumStringBytes: 5)
        #expect(tooLong.error?.code == .stringTooLong)
        #expect(tooLong.error?.offset == 6)
        let key = scanEveryWay(#"{"abcdef":1}"#, maximumStringBytes: 5)
        #expect(key.error?.code == .stringTooLong)
        #expect(key.error?.offset == 7)
        // Raw bytes: an escape counts as written.
        #expect(scanEveryWay(#""ab\ncd""#, maximumStringBytes: 5).error?.code == .stringTooLong)
        // A problem past the limit is reported as the limit, one before it as itself.
        #expect(scanEveryWay(#""abcdef\x""#, maximumStringBytes: 5).error?.code == .stringTooLong)
        let early = scanEveryWay(#""ab\x""#, maximumStringBytes: 5)
        #expect(early.error?.code == .invalidEscape)
        #expect(early.error?.offset == 4)
        #expect(scanEveryWay(#""""#, maximumStringBytes: 0).error == nil)
        #expect(scanEveryWay(#""a""#, maximumStringBytes: 0).error?.offset == 1)
        #expect(scanEveryWay("\"abcd\u{E9}\"", maximumStringBytes: 5).error?.code == .stringTooLong)
        #expect(scanEveryWay(#""abc\u00e9""#, maximumStringBytes: 8).error?.code == .stringTooLong)
        #expect(scanEveryWay(#""abc\u00e9""#, maximumStringBytes: 9).error == nil)
    }

    @Test("A string over the limit fails as soon as a chunk shows it, before it closes")
    func stringLimitFailsEarly() throws {
        var scanner = JSONScanner(maximumStringBytes: 5)
        var handler = RecordingHandler()
        let bytes = Array(#"["abcdefgh"#.utf8)
        var thrown: JSONAPIError?
        bytes.withUnsafeBytes { buffer in
            do throws(JSONAPIError) {
                try scanner.scan(buffer, baseOffset: 0, isFinal: false, into: &handler)
            } catch {
                thrown = error
            }
        }
        #expect(thrown?.code == .stringTooLong)
        #expect(thrown?.offset == 7)
    }

    // MARK: Streaming behaviour

    @Test("Events fire as soon as a token is complete, and not before")
    func eventsFireWhenComplete() {
        var scanner = JSONScanner()
        var handler = RecordingHandler()
        var fed = 0
        func feed(_ text: String, isFinal: Bool = false) -> [ScanEvent] {
            let before = handler.events.count
            let bytes = Array(text.utf8)
            bytes.withUnsafeBytes { buffer in
                do throws(JSONAPIError) {
                    try scanner.scan(buffer, baseOffset: fed, isFinal: isFinal, into: &handler)
                } catch {
                    Issue.record("unexpected \(error)")
                }
            }
            fed += bytes.count
            return Array(handler.events[before...])
        }
        #expect(feed("[1") == [.beginArray(0)])
        #expect(scanner.bytesConsumed == 2)
        #expect(feed("2") == [])
        #expect(feed(",") == [.number(JSONNumberToken(start: 1, end: 3, isInteger: true))])
        #expect(feed("tr") == [])
        #expect(feed("ue") == [.literal(.true, 4)])
        #expect(feed(",\"a\\") == [])
        #expect(feed("u00") == [])
        #expect(feed("e9\"") == [.string(JSONStringToken(start: 10, end: 17, hasEscapes: true))])
        #expect(feed(",{\"k") == [.beginObject(19)])
        #expect(feed("\"") == [.key(JSONStringToken(start: 21, end: 22, hasEscapes: false))])
        #expect(
            feed(":5}]") == [
                .number(JSONNumberToken(start: 24, end: 25, isInteger: true)), .endObject(25), .endArray(26),
            ])
        #expect(feed("", isFinal: true) == [])
        #expect(scanner.bytesConsumed == 27)
    }

    @Test("A top-level number is emitted by the final chunk")
    func topLevelNumberAtTheEnd() {
        #expect(scan(Array("12".utf8), cuts: [2], emptyFinalChunk: false).events.count == 1)
        let outcome = scan(Array("12".utf8), emptyFinalChunk: true)
        #expect(outcome.events == [.number(JSONNumberToken(start: 0, end: 2, isInteger: true))])
    }

    @Test("Errors thrown by the handler propagate unchanged, and stick")
    func handlerErrorsPropagate() {
        struct FailingHandler: JSONEventHandler {
            var seen = 0
            let failure = JSONAPIError(.specViolation, "boom", offset: 42, pointer: "/x")
            mutating func count() throws(JSONAPIError) {
                seen += 1
                if seen == 3 { throw failure }
            }
            mutating func beginObject(at offset: Int) throws(JSONAPIError) { try count() }
            mutating func endObject(at offset: Int) throws(JSONAPIError) { try count() }
            mutating func beginArray(at offset: Int) throws(JSONAPIError) { try count() }
            mutating func endArray(at offset: Int) throws(JSONAPIError) { try count() }
            mutating func key(_ token: JSONStringToken) throws(JSONAPIError) { try count() }
            mutating func string(_ token: JSONStringToken) throws(JSONAPIError) { try count() }
            mutating func number(_ token: JSONNumberToken) throws(JSONAPIError) { try count() }
            mutating func literal(_ value: JSONLiteral, at offset: Int) throws(JSONAPIError) { try count() }
        }
        var scanner = JSONScanner()
        var handler = FailingHandler()
        var errors: [JSONAPIError] = []
        let bytes = Array(#"{"a":[1,2,3]}"#.utf8)
        bytes.withUnsafeBytes { buffer in
            for _ in 0..<2 {
                do throws(JSONAPIError) {
                    try scanner.scan(buffer, baseOffset: 0, isFinal: true, into: &handler)
                } catch {
                    errors.append(error)
                }
            }
        }
        #expect(errors == [handler.failure, handler.failure])
        #expect(handler.seen == 3)
    }

    @Test("Chunks out of order, or after the final one, are refused")
    func misuse() {
        var scanner = JSONScanner()
        var handler = RecordingHandler()
        let bytes = Array("[1]".utf8)
        var codes: [JSONAPIError.Code] = []
        bytes.withUnsafeBytes { buffer in
            do throws(JSONAPIError) {
                try scanner.scan(buffer, baseOffset: 5, isFinal: false, into: &handler)
            } catch {
                codes.append(error.code)
            }
            var second = JSONScanner()
            do throws(JSONAPIError) {
                try second.scan(buffer, baseOffset: 0, isFinal: true, into: &handler)
                try second.scan(buffer, baseOffset: 3, isFinal: true, into: &handler)
            } catch {
                codes.append(error.code)
            }
        }
        #expect(codes == [.invalidJSON, .invalidJSON])
        #expect(scanner.bytesConsumed == 0)
    }
}
