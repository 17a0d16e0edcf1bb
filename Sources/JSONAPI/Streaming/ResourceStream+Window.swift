// How the resource stream scans its window and releases bytes.
//
// Coordinates: the tokenizer and the builder work in *window coordinates* (offset 0 is the
// window's first byte), so every record stays a 32-bit range; `origin` is the 64-bit absolute
// offset of window byte 0, added whenever an offset leaves the stream.
//
// Sliding: when a fed chunk does not fit and every part has been handed out, everything before
// the first byte still needed moves out. If a resource object of `data` or `included` is open,
// that is its `{`: its partial records are dropped, the builder goes back to the state it had
// before the `{` (the frames of the document and of the array), the scanner is set to "before a
// value in an array at depth 2", and the resource's bytes are scanned again from the front of the
// window. Between resources (or between top-level members) it is the scanner's position, and
// nothing is scanned twice. Inside anything else (a top-level `meta`, `errors`, a single `data`
// resource) the window grows instead, up to `maximumUnitBytes`. Nothing in the builder is rebased
// field by field: the only state that survives a slide is state the slide rebuilds, plus the two
// outer frames, whose starts are marked as outside the window.

extension ResourceStream {
    /// The window offset of the first byte the open unit needs, or nil between units.
    var openUnitStart: Int? { driver.openUnitStart }

    /// Frees the window's front (see the discussion at the top of the file).
    mutating func makeRoom() throws(JSONAPIError) {
        let (retain, rescan) = driver.releasablePrefix
        guard retain > 0 else { return }
        ensureUniqueWindow()
        stats.slides &+= 1
        if options.countsLines {
            unsafe withSlice(window.bytes, 0..<retain) { unsafe lines.advance(over: $0) }
        }
        if origin == 0, let document = driver.documentFrame {
            documentStart = Int(document.start)
        }
        // Every skipped element in the arena lies before `retain`: one still being read holds the
        // window (the builder is then inside it, and nothing is released).
        countSkippedElements(before: Int.max)
        skippedCounted = 0
        driver.releasePrefix(retain, rescanning: rescan)
        arenaSectionBase = sectionCounts
        queuedRecords = 0
        trackedRecords = 0
        queuedErrors = 0
        queuedMembers = 0
        queue.removeAll(keepingCapacity: true)
        head = 0
        window.removeFirst(retain)
        origin &+= retain
        scanned = window.count
        if rescan {
            stats.rescannedBytes &+= window.count
            do throws(JSONAPIError) {
                unsafe try driver.feed(all: window.bytes, from: 0, isFinal: false)
            } catch {
                // Unreached: the same bytes were scanned without an error before the slide.
                throw fail(located(error))
            }
        }
    }

    /// Scans the window's unscanned bytes (and, after `finish()`, the end of the input), then
    /// queues the parts they complete and records what they break.
    mutating func scan() {
        storage = nil
        var thrown: JSONAPIError?
        let isFinal = finishRequested
        do throws(JSONAPIError) {
            unsafe try driver.feed(all: window.bytes, from: scanned, isFinal: isFinal)
        } catch {
            thrown = located(error)
        }
        scanned = window.count
        let arena = driver.arena
        // A resource cut off by a syntax error is still open: it is never handed out.
        let openStart = driver.openResourceStart
        let completed = arena.resources.count &- (openStart == nil ? 0 : 1)

        // Rule violations the builder found in finished units.
        var firstError: JSONAPIError? = thrown
        collectDiagnostics(upTo: openStart ?? Int.max, firstError: &firstError)
        trackPrimaryLinkage()
        if trackedRecords < completed {
            trackIdentity(upTo: completed, firstError: &firstError)
        }
        if thrown == nil && isFinal {
            ended = true
            finishLinkage()
        }
        let allowed = options.parsing.maximumResourceCount &- stats.resources
        if completed &- queuedRecords > allowed {
            let r = queuedRecords &+ max(0, allowed)
            firstError = earlier(
                firstError,
                located(
                    JSONAPIError(
                        .tooManyResources,
                        "the document holds more than \(options.parsing.maximumResourceCount) resources (ParsingOptions.maximumResourceCount)",
                        offset: Int(arena.resources[r].object.start))))
        }
        let limit = firstError.map { $0.offset &- origin } ?? Int.max
        enqueue(completed: completed, before: limit)
        if let firstError { fail(firstError) }
    }

    private func earlier(_ a: JSONAPIError?, _ b: JSONAPIError) -> JSONAPIError {
        guard let a else { return b }
        return b.offset < a.offset ? b : a
    }

    /// Moves the builder's diagnostics before `end` (window offset) into ``diagnostics``; in
    /// strict mode the earliest error becomes `firstError`. Those at or after `end` belong to the
    /// open resource, which a slide may scan again: they stay with the builder until it closes.
    private mutating func collectDiagnostics(upTo end: Int, firstError: inout JSONAPIError?) {
        let (taken, uncounted) = driver.takeDiagnostics(before: end)
        uncountedDiagnostics &+= uncounted
        for item in taken {
            let diagnostic = locate(item.offset, severity: item.severity, code: item.code, message: item.message)
            if item.severity == .error && !options.parsing.isLenient {
                if firstError == nil || diagnostic.offset < firstError?.offset ?? .max {
                    firstError = JSONAPIError(
                        diagnostic.code, diagnostic.message, offset: diagnostic.offset, line: diagnostic.line,
                        column: diagnostic.column, pointer: diagnostic.pointer)
                }
            }
            record(diagnostic)
        }
    }

    mutating func record(_ diagnostic: Diagnostic) {
        if diagnostics.count < options.parsing.maximumDiagnostics {
            diagnostics.append(diagnostic)
        } else {
            uncountedDiagnostics &+= 1
        }
    }

    /// Problems found but not kept (``ParsingOptions/maximumDiagnostics``).
    public var unrecordedDiagnosticCount: Int { uncountedDiagnostics }

    /// Queues the records `queuedRecords ..< completed` and the top-level members that are
    /// complete, in document order, leaving out what starts at or after `limit` (window offset).
    private mutating func enqueue(completed: Int, before limit: Int) {
        if head == queue.count {
            queue.removeAll(keepingCapacity: true)
            head = 0
        }
        let arena = driver.arena
        var items: [(start: Int, end: Int, item: Pending)] = []
        for r in queuedRecords..<completed {
            let object = arena.resources[r].object
            // A part is handed out only when it ends before the error: the resource an error
            // is in is not.
            guard Int(object.end) <= limit else { break }
            items.append((Int(object.start), Int(object.end), .resource(r)))
            stats.resources &+= 1
        }
        queuedRecords = completed
        let top = arena.topLevel
        if !queuedTop.meta && top.meta.isPresent {
            queuedTop.meta = true
            items.append((Int(top.meta.start), Int(top.meta.end), .meta(top.meta)))
        }
        if !queuedTop.links && top.links.isPresent {
            queuedTop.links = true
            items.append((Int(top.links.start), Int(top.links.end), .links(top.links)))
        }
        if !queuedTop.jsonapi && top.jsonapi.isPresent {
            queuedTop.jsonapi = true
            items.append((Int(top.jsonapi.start), Int(top.jsonapi.end), .jsonapi(top.jsonapi)))
        }
        // Error objects get their end when they close; the one still open has none yet.
        while queuedErrors < arena.errors.count && arena.errors[queuedErrors].end > arena.errors[queuedErrors].start {
            let range = arena.errors[queuedErrors]
            items.append((Int(range.start), Int(range.end), .error(queuedErrors)))
            queuedErrors &+= 1
        }
        while queuedMembers < arena.foreignMembers.count {
            let value = arena.foreignMembers[queuedMembers].value
            items.append((Int(value.start), Int(value.end), .member(queuedMembers)))
            queuedMembers &+= 1
        }
        items.removeAll { $0.end > limit }
        if items.count > 1 { items.sort { $0.start < $1.start } }
        for entry in items { queue.append(entry.item) }
    }

    // MARK: Locations

    /// A JSON:API error at window offset `offset`, made absolute and located.
    func located(_ error: JSONAPIError) -> JSONAPIError {
        var error = error
        guard error.offset >= 0 else { return error }
        let place = locate(error.offset, severity: .error, code: error.code, message: error.message)
        error.offset = place.offset
        error.line = place.line
        error.column = place.column
        error.pointer = place.pointer
        return error
    }

    /// A diagnostic at window offset `offset`: its absolute offset, line, column and JSON Pointer
    /// (see ``StreamLocation/locate(_:in:arena:)``).
    func locate(_ offset: Int, severity: Diagnostic.Severity, code: JSONAPIError.Code, message: String) -> Diagnostic {
        // The outer frames' starts are outside the window once it has slid (see
        // `DocumentBuilder.releaseRecords`): the top-level object's start is kept here.
        if offset == Int(DocumentBuilder.releasedStart) {
            return Diagnostic(
                severity: severity, code: code, message: message, offset: documentStart,
                line: documentStart == 0 ? 1 : 0, column: documentStart == 0 ? 1 : 0, pointer: "")
        }
        let place = unsafe location.locate(offset, in: window.bytes, arena: driver.arena)
        return Diagnostic(
            severity: severity, code: code, message: message, offset: place.offset, line: place.line,
            column: place.column, pointer: place.pointer)
    }

    /// Where the window sits in the document.
    var location: StreamLocation {
        var location = StreamLocation(
            origin: origin, lines: options.countsLines ? lines : nil, primaryBase: arenaSectionBase.primary,
            includedBase: arenaSectionBase.included)
        if origin > 0 { location.member = currentTopLevelMember }
        return location
    }

    /// The top-level member being read: its pointer and the window offset of its value.
    ///
    /// The member's key is in the window unless a release came after it (the builder then marks
    /// the key absent); its value start is this member's only once it follows the key (until the
    /// value begins, the frame still holds the previous member's, or `DocumentBuilder.releasedStart`
    /// after a release).
    private var currentTopLevelMember: (pointer: String, valueStart: Int?)? {
        guard let document = driver.documentFrame, document.member != .none else { return nil }
        let key = document.key
        let keyInWindow = key.isPresent && Int(key.end) <= window.count
        let name: String
        switch document.member {
        case .data: name = "data"
        case .included: name = "included"
        case .errors: name = "errors"
        case .meta: name = "meta"
        case .links: name = "links"
        case .jsonapi: name = "jsonapi"
        default:
            guard keyInWindow else { return nil }
            name = unsafe JSONStringDecoding.decode(window.bytes.slice(key), hasEscapes: document.keyEscaped)
        }
        let valueStarted =
            keyInWindow && document.valueStart != DocumentBuilder.releasedStart && document.valueStart > key.end
        return (StreamLocation.pointer(name), valueStarted ? Int(document.valueStart) : nil)
    }
}
