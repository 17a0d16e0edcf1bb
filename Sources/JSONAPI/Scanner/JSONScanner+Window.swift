// What a caller that releases the bytes behind the scanner (the resource stream's window) may do
// to it. Offsets are the caller's coordinates: after a release, byte 0 is the first byte kept.

extension JSONScanner {
    /// Whether the scanner is between tokens: no string, number or literal is half read, so the
    /// bytes before ``bytesConsumed`` are no longer needed.
    var isBetweenTokens: Bool { pending.isNone }

    /// Moves the scanner's coordinates after the caller dropped its first `count` bytes; only
    /// between tokens (``isBetweenTokens``), and `count` is at most ``bytesConsumed``. Nesting and
    /// expectation stay: the next byte is read exactly as it would have been.
    mutating func rebase(droppingFirst count: Int) {
        offset &-= count
    }

    /// Puts the scanner at offset 0, before a value inside an array (depth 2) inside an object
    /// (depth 1): where it was before an element of the document's `data` or `included` array.
    /// The caller then scans that element again from its first byte.
    mutating func restartBeforeArrayElement() {
        offset = 0
        expect = .element
        depth = 2
        inObject = false
        innerContainers = 0b01
        pending = .none
    }
}
