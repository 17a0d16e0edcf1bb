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
    var openUnitStart: Int? {
        let builder = driver.builder
        if let frame = builder.openResourceFrame, builder.resourceFrameIsInArray { return Int(frame.start) }
        if driver.scanner.pending.isNone && builder.opaqueDepth == 0 && builder.isBetweenStreamUnits { return nil }
        return 0
    }

    /// Frees the window's front (see the discussion at the top of the file).
    mutating func makeRoom() throws(JSONAPIError) {
        var retain = 0
        var rescan = false
        let builder = driver.builder
        if let frame = builder.openResourceFrame {
            if builder.resourceFrameIsInArray {
                retain = Int(frame.start)
                rescan = true
            }
        } else if driver.scanner.pending.isNone && builder.opaqueDepth == 0 && builder.isBetweenStreamUnits {
            retain = driver.scanner.offset
        }
        guard retain > 0 else { return }
        ensureUniqueWindow()
        stats.slides &+= 1
        if options.countsLines {
            unsafe withSlice(window.bytes, 0..<retain) { unsafe lines.advance(over: $0) }
        }
        if origin == 0 {
            let outer = driver.builder.below.first ?? driver.builder.top
            documentStart = Int(outer.start)
        }
        driver.builder.dropDeliveredRecords(rollingBack: rescan, retainFrom: retain)
        driver.builder.markOuterFramesReleased()
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
            driver.scanner.restartBeforeArrayElement()
            stats.rescannedBytes &+= window.count
            do throws(JSONAPIError) {
                unsafe try driver.feed(all: window.bytes, from: 0, isFinal: false)
            } catch {
                // Unreached: the same bytes were scanned without an error before the slide.
                throw fail(located(error))
            }
        } else {
            driver.scanner.offset &-= retain
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
        let arena = driver.builder.arena
        // A resource cut off by a syntax error is still open: it is never handed out.
        let open = openResourceIsCounted
        let completed = arena.resources.count &- (open ? 1 : 0)

        // Rule violations the builder found in finished units.
        var firstError: JSONAPIError? = thrown
        collectDiagnostics(upTo: open ? openResourceStart : Int.max, firstError: &firstError)
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

    /// Whether the last resource record is still open.
    private var openResourceIsCounted: Bool { driver.builder.openResourceFrame != nil }

    private var openResourceStart: Int { driver.builder.openResourceFrame.map { Int($0.start) } ?? Int.max }

    /// Moves the builder's diagnostics before `end` (window offset) into ``diagnostics``; in
    /// strict mode the earliest error becomes `firstError`. Those at or after `end` belong to the
    /// open resource, which a slide may scan again: they stay with the builder until it closes.
    private mutating func collectDiagnostics(upTo end: Int, firstError: inout JSONAPIError?) {
        guard !driver.builder.pending.isEmpty else { return }
        var keep: [DocumentBuilder.PendingDiagnostic] = []
        var moved: [DocumentBuilder.PendingDiagnostic] = []
        for item in driver.builder.pending {
            if item.offset >= end && item.offset != Int(UInt32.max) { keep.append(item) } else { moved.append(item) }
        }
        let keptErrors = keep.filter { $0.severity == .error }.count
        let movedErrors = driver.builder.errorCount &- keptErrors
        driver.builder.pending = keep
        driver.builder.errorCount = keptErrors
        moved.sort { $0.offset < $1.offset }
        for item in moved {
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
        _ = movedErrors
        uncountedDiagnostics &+= driver.builder.uncountedDiagnostics
        driver.builder.uncountedDiagnostics = 0
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
        let arena = driver.builder.arena
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
        // `markOuterFramesReleased`): the top-level object's start is kept here.
        if offset == Int(UInt32.max) {
            return Diagnostic(
                severity: severity, code: code, message: message, offset: documentStart,
                line: documentStart == 0 ? 1 : 0, column: documentStart == 0 ? 1 : 0, pointer: "")
        }
        let place = unsafe location.locate(offset, in: window.bytes, arena: driver.builder.arena)
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
    private var currentTopLevelMember: (pointer: String, valueStart: Int?)? {
        let builder = driver.builder
        guard builder.hasTop else { return nil }
        let document = builder.below.first ?? builder.top
        guard document.kind == .topLevel, document.member != .none else { return nil }
        let released = document.valueStart == .max
        let name: String
        switch document.member {
        case .data: name = "data"
        case .included: name = "included"
        case .errors: name = "errors"
        case .meta: name = "meta"
        case .links: name = "links"
        case .jsonapi: name = "jsonapi"
        default:
            guard !released, document.key.isPresent, Int(document.key.end) <= window.count else { return nil }
            name = unsafe JSONStringDecoding.decode(
                window.bytes.slice(document.key), hasEscapes: document.keyEscaped)
        }
        return (StreamLocation.pointer(name), released ? nil : Int(document.valueStart))
    }
}

// MARK: - Builder and scanner support

extension DocumentBuilder {
    /// The frame of the resource object being built, if one is open.
    var openResourceFrame: Frame? {
        guard hasTop else { return nil }
        if top.kind == .resource { return top }
        for frame in below where frame.kind == .resource { return frame }
        return nil
    }

    /// Whether the open resource is an element of the `data` or `included` array (the frames
    /// below it are exactly the document's and the array's).
    var resourceFrameIsInArray: Bool {
        guard below.count >= 2, below[0].kind == .topLevel,
            below[1].kind == .dataArray || below[1].kind == .includedArray
        else { return false }
        return below.count == 2 ? top.kind == .resource : below[2].kind == .resource
    }

    /// Whether no member or element is under way whose bytes the builder may still read: the
    /// builder is between the elements of `data`/`included` or between top-level members.
    var isBetweenStreamUnits: Bool {
        guard hasTop else { return false }
        switch top.kind {
        // Primary data of identifiers (a relationship document) is read whole: its records
        // are needed together when it ends.
        case .dataArray: return below.count == 1 && !arena.topLevel.primaryIsLinkage
        case .includedArray: return below.count == 1
        case .topLevel: return below.isEmpty && top.member == .none
        default: return false
        }
    }

    /// Empties the record arrays (every record in them was handed out) and, when `rollingBack`,
    /// returns to the state before the open resource's `{`: its frames are popped and its
    /// diagnostics dropped (scanning it again records them again).
    ///
    /// Every builder field a resource object changes is listed here or is restored by the pops:
    /// a new such field must be added, or sliding inside a resource breaks (the split-at-every-
    /// window tests catch it).
    mutating func dropDeliveredRecords(rollingBack: Bool, retainFrom: Int) {
        if rollingBack {
            while hasTop && top.kind != .dataArray && top.kind != .includedArray { _ = pop() }
            top.member = .none
            opaqueDepth = 0
            fieldNames.removeAll(keepingCapacity: true)
            fieldNamesEscaped = false
            if !pending.isEmpty {
                let dropped = pending.filter { $0.offset >= retainFrom && $0.severity == .error }.count
                pending.removeAll { $0.offset >= retainFrom }
                errorCount -= dropped
            }
        }
        arena.resources.removeAll(keepingCapacity: true)
        arena.relationships.removeAll(keepingCapacity: true)
        arena.linkages.removeAll(keepingCapacity: true)
        arena.errors.removeAll(keepingCapacity: true)
        arena.foreignMembers.removeAll(keepingCapacity: true)
        arena.resourceLids.entries.removeAll(keepingCapacity: true)
        arena.resourceMeta.entries.removeAll(keepingCapacity: true)
        arena.relationshipLinks.entries.removeAll(keepingCapacity: true)
        arena.relationshipMeta.entries.removeAll(keepingCapacity: true)
        arena.linkageLids.entries.removeAll(keepingCapacity: true)
        arena.linkageMeta.entries.removeAll(keepingCapacity: true)
        resourceDigests.removeAll(keepingCapacity: true)
        linkageDigests.removeAll(keepingCapacity: true)
        arena.topLevel.primaryStart = 0
        arena.topLevel.includedStart = 0
        arena.topLevel.meta = .absent
        arena.topLevel.links = .absent
        arena.topLevel.jsonapi = .absent
        arena.topLevel.errors = .absent
    }

    /// Marks the starts of the frames that outlive a slide (the document's, and the array's) as
    /// outside the window: `UInt32.max`, which the stream reports at the document's start.
    mutating func markOuterFramesReleased() {
        for i in below.indices {
            below[i].start = .max
            below[i].valueStart = .max
        }
        if hasTop && (top.kind == .topLevel || top.kind == .dataArray || top.kind == .includedArray) {
            top.start = .max
            top.valueStart = .max
        }
    }
}

extension JSONScanner {
    /// Puts the scanner before a value at the front of the window, inside an array (depth 2)
    /// inside the document's object (depth 1): where it was before the open resource's `{`.
    mutating func restartBeforeArrayElement() {
        offset = 0
        expect = .element
        depth = 2
        inObject = false
        innerContainers = 0b01
        pending = .none
    }
}
