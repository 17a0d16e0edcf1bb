private import CYajl
@_spi(Backend) import JSONAPI

extension ParsingOptions.Backend {
    /// libyajl 2.1 (Debian's `libyajl-dev`) as the tokenizer, feeding the same builder as the
    /// built-in scanner, so documents, views and errors are the same whichever you choose.
    ///
    /// Choose it when you want a second, independent tokenizer (say, to cross-check the first)
    /// or already trust yajl. It is slower than ``scanner``: yajl copies and unescapes every
    /// string it reports, and each event crosses from C into Swift.
    ///
    /// ```swift
    /// import JSONAPI
    /// import JSONAPIYajl
    ///
    /// var options = ParsingOptions()
    /// options.backend = .yajl
    /// let document = try Document(parsing: bytes, options: options)
    /// ```
    public static let yajl = ParsingOptions.Backend(name: "yajl") { options in YajlTokenizer(options: options) }
}

/// Drives a yajl parser over the input and turns its callbacks into the library's events.
///
/// yajl reports values, not positions, so positions are recovered: inside a callback,
/// `yajl_get_bytes_consumed` is the offset just past the token within the current chunk, and a
/// token starts at the first byte after the previous token that is not whitespace, `,` or `:`
/// (the only bytes JSON allows between tokens). Where yajl is more permissive than RFC 8259 the
/// tokenizer adds the missing check itself, so both backends reach the same verdicts:
/// form feed and vertical tab are not whitespace; strings must be strictly valid UTF-8 (no
/// overlong forms, no encoded surrogates, nothing above U+10FFFF); `\u` escapes of surrogates
/// must pair; numbers follow the JSON grammar exactly; depth and string length obey the limits.
fileprivate final class YajlTokenizer: DocumentTokenizer {
    private let context: YajlContext
    private let handle: yajl_handle
    /// yajl keeps a pointer to the callbacks table (it does not copy it), so the table lives on
    /// the heap for as long as the handle.
    private let callbackTable: UnsafeMutablePointer<yajl_callbacks>

    init(options: ParsingOptions) {
        let context = YajlContext(
            maximumDepth: options.maximumDepth, maximumStringBytes: options.maximumStringBytes)
        self.context = context
        var callbacks = yajl_callbacks()
        callbacks.yajl_null = { ctx in YajlContext.from(ctx) { c throws(JSONAPIError) in try c.literal(.null) } }
        callbacks.yajl_boolean = { ctx, value in
            YajlContext.from(ctx) { c throws(JSONAPIError) in try c.literal(value != 0 ? .true : .false) }
        }
        callbacks.yajl_number = { ctx, text, length in
            YajlContext.from(ctx) { c throws(JSONAPIError) in try c.number(length: length) }
        }
        callbacks.yajl_string = { ctx, _, length in
            YajlContext.from(ctx) { c throws(JSONAPIError) in try c.string(decodedLength: length, isKey: false) }
        }
        callbacks.yajl_map_key = { ctx, _, length in
            YajlContext.from(ctx) { c throws(JSONAPIError) in try c.string(decodedLength: length, isKey: true) }
        }
        callbacks.yajl_start_map = { ctx in YajlContext.from(ctx) { c throws(JSONAPIError) in try c.open(object: true) }
        }
        callbacks.yajl_end_map = { ctx in YajlContext.from(ctx) { c throws(JSONAPIError) in try c.close(object: true) }
        }
        callbacks.yajl_start_array = { ctx in
            YajlContext.from(ctx) { c throws(JSONAPIError) in try c.open(object: false) }
        }
        callbacks.yajl_end_array = { ctx in
            YajlContext.from(ctx) { c throws(JSONAPIError) in try c.close(object: false) }
        }
        // SAFETY: yajl stores the table pointer and the context pointer; both are owned by this
        // object and released in deinit, after the handle is freed.
        callbackTable = UnsafeMutablePointer<yajl_callbacks>.allocate(capacity: 1)
        callbackTable.initialize(to: callbacks)
        let opaque = Unmanaged.passUnretained(context).toOpaque()
        handle = yajl_alloc(callbackTable, nil, opaque)
        _ = cyajl_config(handle, yajl_allow_comments, 0)
        _ = cyajl_config(handle, yajl_dont_validate_strings, 0)
        _ = cyajl_config(handle, yajl_allow_trailing_garbage, 0)
        _ = cyajl_config(handle, yajl_allow_multiple_values, 0)
        _ = cyajl_config(handle, yajl_allow_partial_values, 0)
        context.handle = handle
    }

    deinit {
        yajl_free(handle)
        callbackTable.deinitialize(count: 1)
        callbackTable.deallocate()
    }

    func feed(
        _ chunk: UnsafeRawBufferPointer, baseOffset: Int, isFinal: Bool, into builder: inout DocumentBuilder
    ) throws(JSONAPIError) {
        try withUnsafeMutablePointer(to: &builder) { (pointer) throws(JSONAPIError) in
            context.builder = pointer
            defer { context.builder = nil }
            if chunk.count > 0 {
                context.chunkBase = baseOffset
                let status = chunk.withMemoryRebound(to: UInt8.self) { bytes in
                    yajl_parse(handle, bytes.baseAddress, bytes.count)
                }
                try check(status, atEnd: false)
            }
            if isFinal {
                context.chunkBase = baseOffset + chunk.count
                try check(yajl_complete_parse(handle), atEnd: true)
                try context.checkTrailingWhitespace()
            }
        }
    }

    /// Turns a yajl status into the library's error: the callback's own error when a callback
    /// stopped the parse, otherwise yajl's message at the offset where yajl stopped.
    ///
    /// `atEnd` is for `yajl_complete_parse`, which finishes by parsing one space of its own, so
    /// its bytes-consumed count is past the input: an error there is at the end of the input,
    /// where the scanner reports it too.
    private func check(_ status: yajl_status, atEnd: Bool) throws(JSONAPIError) {
        switch status {
        case yajl_status_ok:
            return
        case yajl_status_client_canceled:
            let error = context.error ?? JSONAPIError(.invalidJSON, "parsing was stopped")
            // The RFC checks this backend adds (depth, UTF-8, escapes, numbers) reach the same
            // verdict as the scanner; the scanner's own error gives the same code and offset.
            if error.code.isSyntaxError || error.code == .stringTooLong,
                let precise = context.scannerError(isFinal: false)
            {
                throw precise
            }
            throw error
        default:
            // yajl words and places its errors its own way (some a byte late, a token cut short
            // by the end as a lexical error): report the scanner's error over the same bytes.
            if let precise = context.scannerError(isFinal: atEnd) { throw precise }
            let consumed = atEnd ? 0 : yajl_get_bytes_consumed(handle)
            let message: String
            if let text = yajl_get_error(handle, 0, nil, 0) {
                message = String(cString: text)
                yajl_free_error(handle, text)
            } else {
                message = "syntax error"
            }
            // A problem the RFC checks find first (e.g. a bad byte between tokens) is more precise.
            if let precise = context.scanGap(upTo: context.chunkBase + consumed) { throw precise }
            if atEnd {
                // Anything yajl finds only when told the input is over (an unclosed container, or
                // a token such as `-`, `1.`, `tr` or `"\u00` it was waiting to finish) is the
                // input ending too early, as the scanner says.
                throw JSONAPIError(
                    .unexpectedEnd, "the input ends too early (yajl: \(message.trimmingTrailingNewlines))",
                    offset: context.chunkBase)
            }
            throw YajlContext.translate(message.trimmingTrailingNewlines, at: context.chunkBase + consumed)
        }
    }
}

/// The state the C callbacks reach through yajl's context pointer.
fileprivate final class YajlContext {
    var handle: yajl_handle?
    var builder: UnsafeMutablePointer<DocumentBuilder>?
    var chunkBase = 0
    /// Absolute offset just past the previous token.
    var previousEnd = 0
    var depth = 0
    var error: JSONAPIError?
    let maximumDepth: Int
    let maximumStringBytes: Int

    init(maximumDepth: Int, maximumStringBytes: Int) {
        self.maximumDepth = maximumDepth
        self.maximumStringBytes = maximumStringBytes
    }

    /// Runs `body` for a callback: 1 to continue, 0 (after keeping the error) to stop yajl.
    static func from(_ ctx: UnsafeMutableRawPointer?, _ body: (YajlContext) throws(JSONAPIError) -> Void) -> Int32 {
        guard let ctx else { return 0 }
        let context = Unmanaged<YajlContext>.fromOpaque(ctx).takeUnretainedValue()
        do throws(JSONAPIError) {
            try body(context)
            return 1
        } catch {
            context.error = error
            return 0
        }
    }

    private var input: UnsafeRawBufferPointer { builder?.pointee.input ?? UnsafeRawBufferPointer(start: nil, count: 0) }

    /// The current token's absolute [start, end).
    private func token() throws(JSONAPIError) -> (start: Int, end: Int) {
        let end = chunkBase + (handle.map { yajl_get_bytes_consumed($0) } ?? 0)
        if let problem = scanGap(upTo: end) { throw problem }
        let bytes = input
        var start = previousEnd
        while start < end {
            switch bytes[start] {
            case 0x20, 0x09, 0x0A, 0x0D, UInt8(ascii: ","), UInt8(ascii: ":"): start += 1
            default:
                previousEnd = end
                return (start, end)
            }
        }
        previousEnd = end
        return (start, end)
    }

    /// Checks the bytes between the previous token and `end` for whitespace RFC 8259 does not
    /// allow (yajl accepts form feed and vertical tab), returning the error if any.
    func scanGap(upTo end: Int) -> JSONAPIError? {
        let bytes = input
        var i = previousEnd
        let limit = min(end, bytes.count)
        while i < limit {
            switch bytes[i] {
            case 0x20, 0x09, 0x0A, 0x0D, UInt8(ascii: ","), UInt8(ascii: ":"): i += 1
            case 0x0B, 0x0C:
                return JSONAPIError.init(
                    .invalidJSON,
                    "unexpected \(bytes[i] == 0x0B ? "vertical tab" : "form feed"); JSON whitespace is space, tab, line feed and carriage return",
                    offset: i)
            default:
                return nil
            }
        }
        return nil
    }

    /// After the value: only whitespace may follow. yajl does not always say otherwise (it takes
    /// a trailing `"` for the start of a string still arriving, and accepts the document).
    func checkTrailingWhitespace() throws(JSONAPIError) {
        let bytes = input
        var i = previousEnd
        while i < bytes.count {
            switch bytes[i] {
            case 0x20, 0x09, 0x0A, 0x0D: i += 1
            default:
                throw scannerError(isFinal: true)
                    ?? JSONAPIError(.invalidJSON, "expected the end of the input after the JSON value", offset: i)
            }
        }
    }

    /// The error the scanner finds in the input so far with this backend's limits, if any.
    func scannerError(isFinal: Bool) -> JSONAPIError? {
        JSONSyntaxValidator.firstError(
            in: input, isFinal: isFinal, maximumDepth: maximumDepth, maximumStringBytes: maximumStringBytes)
    }

    func literal(_ value: JSONLiteral) throws(JSONAPIError) {
        let (start, _) = try token()
        try builder?.pointee.literal(value, at: start)
    }

    func number(length: Int) throws(JSONAPIError) {
        let (start, end) = try token()
        let text = UnsafeRawBufferPointer(rebasing: input[start..<min(end, input.count)])
        if let (offset, message) = Self.numberProblem(text) {
            throw JSONAPIError(.invalidNumber, message, offset: start + offset)
        }
        let isInteger = !text.contains { $0 == UInt8(ascii: ".") || $0 | 0x20 == UInt8(ascii: "e") }
        try builder?.pointee.number(JSONNumberToken(start: start, end: end, isInteger: isInteger))
    }

    func string(decodedLength: Int, isKey: Bool) throws(JSONAPIError) {
        let (start, end) = try token()
        let contents = start + 1..<max(start + 1, end - 1)
        if contents.count > maximumStringBytes {
            throw JSONAPIError(
                .stringTooLong,
                "a string is longer than \(maximumStringBytes) bytes (ParsingOptions.maximumStringBytes)", offset: start
            )
        }
        let raw = UnsafeRawBufferPointer(rebasing: input[contents.clamped(to: 0..<input.count)])
        // Every escape is longer than what it stands for, so a shorter value means escapes.
        let hasEscapes = decodedLength != raw.count
        if let (offset, code, message) = Self.stringProblem(raw, hasEscapes: hasEscapes) {
            throw JSONAPIError(code, message, offset: contents.lowerBound + offset)
        }
        let token = JSONStringToken(start: contents.lowerBound, end: contents.upperBound, hasEscapes: hasEscapes)
        if isKey {
            try builder?.pointee.key(token)
        } else {
            try builder?.pointee.string(token)
        }
    }

    func open(object: Bool) throws(JSONAPIError) {
        let (start, _) = try token()
        depth += 1
        if depth > maximumDepth {
            throw JSONAPIError(
                .depthLimitExceeded,
                "objects and arrays are nested more than \(maximumDepth) deep (ParsingOptions.maximumDepth)",
                offset: start)
        }
        if object {
            try builder?.pointee.beginObject(at: start)
        } else {
            try builder?.pointee.beginArray(at: start)
        }
    }

    func close(object: Bool) throws(JSONAPIError) {
        let (start, _) = try token()
        depth -= 1
        if object {
            try builder?.pointee.endObject(at: start)
        } else {
            try builder?.pointee.endArray(at: start)
        }
    }

    /// The first place where `text` breaks the JSON number grammar, if any.
    static func numberProblem(_ text: UnsafeRawBufferPointer) -> (Int, String)? {
        var i = 0
        let n = text.count
        func isDigit(_ j: Int) -> Bool { j < n && text[j] >= UInt8(ascii: "0") && text[j] <= UInt8(ascii: "9") }
        if i < n && text[i] == UInt8(ascii: "-") { i += 1 }
        guard isDigit(i) else { return (i, "a number needs a digit here") }
        if text[i] == UInt8(ascii: "0") {
            i += 1
            if isDigit(i) { return (i, "a number must not have a leading zero") }
        } else {
            while isDigit(i) { i += 1 }
        }
        if i < n && text[i] == UInt8(ascii: ".") {
            i += 1
            guard isDigit(i) else { return (i, "a digit is required after the decimal point") }
            while isDigit(i) { i += 1 }
        }
        if i < n && text[i] | 0x20 == UInt8(ascii: "e") {
            i += 1
            if i < n && (text[i] == UInt8(ascii: "+") || text[i] == UInt8(ascii: "-")) { i += 1 }
            guard isDigit(i) else { return (i, "a digit is required in the exponent") }
            while isDigit(i) { i += 1 }
        }
        return i == n ? nil : (i, "unexpected byte in a number")
    }

    /// Strict UTF-8 and surrogate-escape checks on raw string contents that yajl accepted.
    static func stringProblem(_ raw: UnsafeRawBufferPointer, hasEscapes: Bool) -> (Int, JSONAPIError.Code, String)? {
        var i = 0
        let n = raw.count
        var pendingHigh = -1  // offset of a `\u` high surrogate awaiting its low half
        while i < n {
            let b = raw[i]
            if b == UInt8(ascii: "\\") && hasEscapes {
                guard i + 1 < n else { return (i, .invalidEscape, "a string ends inside an escape") }
                if raw[i + 1] == UInt8(ascii: "u"), i + 5 < n, let unit = hex4(raw, i + 2) {
                    if unit >= 0xD800 && unit <= 0xDBFF {
                        if pendingHigh >= 0 {
                            return (pendingHigh, .invalidEscape, "a high surrogate escape is not followed by a low one")
                        }
                        pendingHigh = i
                    } else if unit >= 0xDC00 && unit <= 0xDFFF {
                        if pendingHigh < 0 || pendingHigh + 6 != i {
                            return (i, .invalidEscape, "a low surrogate escape without a high one before it")
                        }
                        pendingHigh = -1
                    } else if pendingHigh >= 0 {
                        return (pendingHigh, .invalidEscape, "a high surrogate escape is not followed by a low one")
                    }
                    i += 6
                    continue
                }
                if pendingHigh >= 0 {
                    return (pendingHigh, .invalidEscape, "a high surrogate escape is not followed by a low one")
                }
                i += 2
                continue
            }
            if pendingHigh >= 0 {
                return (pendingHigh, .invalidEscape, "a high surrogate escape is not followed by a low one")
            }
            if b < 0x80 {
                i += 1
                continue
            }
            let length: Int
            var low: UInt8 = 0x80
            var high: UInt8 = 0xBF
            switch b {
            case 0xC2...0xDF: length = 2
            case 0xE0:
                length = 3
                low = 0xA0
            case 0xE1...0xEC, 0xEE...0xEF: length = 3
            case 0xED:
                length = 3
                high = 0x9F
            case 0xF0:
                length = 4
                low = 0x90
            case 0xF1...0xF3: length = 4
            case 0xF4:
                length = 4
                high = 0x8F
            default:
                return (
                    i, .invalidUTF8, "byte 0x\(String(b, radix: 16, uppercase: true)) cannot start a UTF-8 character"
                )
            }
            guard i + length <= n else { return (i, .invalidUTF8, "a UTF-8 character is cut short") }
            let second = raw[i + 1]
            guard second >= low && second <= high else {
                return (i + 1, .invalidUTF8, "invalid UTF-8 continuation byte")
            }
            for k in 2..<length where raw[i + k] & 0xC0 != 0x80 {
                return (i + k, .invalidUTF8, "invalid UTF-8 continuation byte")
            }
            i += length
        }
        if pendingHigh >= 0 {
            return (pendingHigh, .invalidEscape, "a high surrogate escape is not followed by a low one")
        }
        return nil
    }

    private static func hex4(_ raw: UnsafeRawBufferPointer, _ at: Int) -> UInt32? {
        var value: UInt32 = 0
        for k in 0..<4 {
            let c = raw[at + k]
            let digit: UInt8
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = c - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = c - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = c - UInt8(ascii: "A") + 10
            default: return nil
            }
            value = value << 4 | UInt32(digit)
        }
        return value
    }

    /// Maps yajl's error message to the library's codes.
    static func translate(_ message: String, at offset: Int) -> JSONAPIError {
        let code: JSONAPIError.Code
        if message.contains("UTF8") || message.contains("utf8") {
            code = .invalidUTF8
        } else if message.contains("escape") {
            code = .invalidEscape
        } else if message.contains("number") || message.contains("decimal") || message.contains("exponent") {
            code = .invalidNumber
        } else if message.contains("premature EOF") {
            code = .unexpectedEnd
        } else {
            code = .invalidJSON
        }
        return JSONAPIError(code, "yajl: \(message)", offset: offset)
    }
}

extension String {
    fileprivate var trimmingTrailingNewlines: String {
        var s = self
        while s.last == "\n" || s.last == " " { s.removeLast() }
        return s
    }
}
