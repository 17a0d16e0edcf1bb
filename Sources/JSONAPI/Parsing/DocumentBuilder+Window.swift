// What a reader that releases bytes while the document is still arriving (the resource stream,
// through `ParseDriver.releasePrefix(_:rescanning:)`) asks of the builder: where the open unit
// begins, whether it may release now, and the release itself. Offsets are the caller's window
// coordinates.

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
        guard hasTop, opaqueDepth == 0 else { return false }
        switch top.kind {
        // Primary data of identifiers (a relationship document) is read whole: its records
        // are needed together when it ends.
        case .dataArray: return below.count == 1 && !arena.topLevel.primaryIsLinkage
        case .includedArray: return below.count == 1
        case .topLevel: return below.isEmpty && top.member == .none
        default: return false
        }
    }

    /// The document's (top-level object's) frame, while it is open.
    var documentFrame: Frame? {
        guard hasTop else { return nil }
        let document = below.first ?? top
        return document.kind == .topLevel ? document : nil
    }

    /// Releases every record (each was handed out) and, when `rollingBack`, returns to the state
    /// before the open resource's `{`: its frames are popped and its diagnostics (those at or
    /// after `retainFrom`) dropped, since scanning it again records them again.
    ///
    /// Every builder field a resource object changes is reset here or restored by the pops: a new
    /// such field must be added, or sliding inside a resource breaks (the stream's
    /// split-at-every-window tests catch it).
    mutating func releaseRecords(rollingBack: Bool, retainFrom: Int) {
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
        arena.releaseRecords()
        resourceDigests.removeAll(keepingCapacity: true)
        linkageDigests.removeAll(keepingCapacity: true)
        markOuterFramesReleased()
    }

    /// What the frames that outlive a release hold as their start: a position past every window,
    /// and one an `Int` holds on every platform. That is `UInt32.max` where `Int` has 64 bits, and
    /// `Int32.max` where it has 32 (watchOS devices), where no document reaches it
    /// (``ParsingOptions/largestDocumentBytes``).
    static let releasedStart = UInt32(clamping: Int.max)

    /// Marks the starts of the frames that outlive a release (the document's, and the array's)
    /// as outside the window: ``releasedStart``, which the stream reports at the document's start;
    /// their current member's key is outside it too, and is absent until the next key.
    private mutating func markOuterFramesReleased() {
        for i in below.indices {
            below[i].start = Self.releasedStart
            below[i].valueStart = Self.releasedStart
            below[i].key = .absent
        }
        if hasTop && (top.kind == .topLevel || top.kind == .dataArray || top.kind == .includedArray) {
            top.start = Self.releasedStart
            top.valueStart = Self.releasedStart
            top.key = .absent
        }
    }

    /// Hands over the diagnostics recorded before window offset `end`, in document order, and
    /// the count of those not recorded (``ParsingOptions/maximumDiagnostics``). Those at or after
    /// `end` belong to the open resource, which a release may scan again: they stay until it
    /// closes. Diagnostics at the document's start (``releasedStart``) always go.
    mutating func takeDiagnostics(before end: Int) -> (diagnostics: [PendingDiagnostic], uncounted: Int) {
        let uncounted = uncountedDiagnostics
        uncountedDiagnostics = 0
        guard !pending.isEmpty else { return ([], uncounted) }
        var kept: [PendingDiagnostic] = []
        var taken: [PendingDiagnostic] = []
        for item in pending {
            if item.offset >= end && item.offset != Int(Self.releasedStart) {
                kept.append(item)
            } else {
                taken.append(item)
            }
        }
        pending = kept
        errorCount = kept.filter { $0.severity == .error }.count
        taken.sort { $0.offset < $1.offset }
        return (taken, uncounted)
    }
}
