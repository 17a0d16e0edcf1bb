extension JSONValue {
    /// Whether two values hold the same JSON, whatever their formatting.
    ///
    /// Whitespace between tokens does not matter. Strings are compared by their unescaped
    /// contents (`"\u00e9"` equals `"é"`, `"\/"` equals `"/"`), numbers by their exact text (`1.0`
    /// differs from `1`, `1e2` from `100`), arrays element by element. Objects are compared member
    /// by member; when `ignoringMemberOrder` is true (the default) their members are first ordered
    /// by unescaped key, members with the same key keeping their order.
    ///
    /// The two values may come from different documents. Use it to check that a document
    /// survives being written and parsed again:
    ///
    /// ```swift
    /// let reparsed = try Document(parsing: document.jsonBytes(options: .init(sortsKeys: true)))
    /// document.jsonValue.isEquivalent(to: reparsed.jsonValue)                               // true
    /// document.jsonValue.isEquivalent(to: reparsed.jsonValue, ignoringMemberOrder: false)   // maybe not
    /// ```
    ///
    /// - Complexity: O(n log n) in the size of the values; an explicit stack, not recursion,
    ///   walks nested values.
    public func isEquivalent(to other: JSONValue, ignoringMemberOrder: Bool = true) -> Bool {
        unsafe storage.withBytes { a in
            unsafe other.storage.withBytes { b in
                unsafe JSONEquivalence(
                    a: a, b: b, aEnds: ContainerEnds(a, from: Int(range.start), to: Int(range.end)),
                    bEnds: ContainerEnds(b, from: Int(other.range.start), to: Int(other.range.end)),
                    ignoringMemberOrder: ignoringMemberOrder
                ).equal(range, other.range)
            }
        }
    }
}

/// A depth-first comparison of two valid JSON values in two buffers.
///
/// `@safe`: made inside the `withBytes` scopes of both values and dropped before they end, and it
/// reads only at ranges inside `a` and `b` that the scanner validated.
@safe
private struct JSONEquivalence {
    let a: UnsafeRawBufferPointer
    let b: UnsafeRawBufferPointer
    let aEnds: ContainerEnds
    let bEnds: ContainerEnds
    let ignoringMemberOrder: Bool

    /// A member of an object: raw key contents, whether it has escapes, value range.
    typealias Member = (key: ByteRange, escaped: Bool, value: ByteRange)

    func equal(_ first: ByteRange, _ second: ByteRange) -> Bool {
        var pending = [(first, second)]
        while let (x, y) = pending.popLast() {
            let xStart = Int(x.start)
            let yStart = Int(y.start)
            guard x.isPresent, y.isPresent, unsafe xStart < a.count, unsafe yStart < b.count else {
                return x.isPresent == y.isPresent
            }
            let xByte = unsafe a[xStart]
            let yByte = unsafe b[yStart]
            switch xByte {
            case UInt8(ascii: "{"):
                guard yByte == UInt8(ascii: "{") else { return false }
                var xMembers = unsafe members(a, aEnds, xStart)
                var yMembers = unsafe members(b, bEnds, yStart)
                guard xMembers.count == yMembers.count else { return false }
                if ignoringMemberOrder {
                    xMembers = unsafe sorted(xMembers, in: a)
                    yMembers = unsafe sorted(yMembers, in: b)
                }
                for (m, n) in zip(xMembers, yMembers) {
                    guard unsafe unescaped(a, m.key, m.escaped) == unescaped(b, n.key, n.escaped) else { return false }
                    pending.append((m.value, n.value))
                }
            case UInt8(ascii: "["):
                guard yByte == UInt8(ascii: "[") else { return false }
                var xElements: [ByteRange] = []
                var yElements: [ByteRange] = []
                unsafe aEnds.forEachElement(a, array: xStart) {
                    xElements.append($0); return true
                }
                unsafe bEnds.forEachElement(b, array: yStart) {
                    yElements.append($0); return true
                }
                guard xElements.count == yElements.count else { return false }
                pending.append(contentsOf: zip(xElements, yElements))
            case UInt8(ascii: "\""):
                guard yByte == UInt8(ascii: "\"") else { return false }
                let xRaw = unsafe a.slice(ByteRange(xStart + 1, max(xStart + 1, Int(x.end) - 1)))
                let yRaw = unsafe b.slice(ByteRange(yStart + 1, max(yStart + 1, Int(y.end) - 1)))
                let backslash = UInt8(ascii: "\\")
                if unsafe !xRaw.contains(backslash) && !yRaw.contains(backslash) {
                    guard unsafe xRaw.elementsEqual(yRaw) else { return false }
                } else {
                    var xDecoded: [UInt8] = []
                    var yDecoded: [UInt8] = []
                    unsafe JSONStringDecoding.unescape(xRaw, into: &xDecoded)
                    unsafe JSONStringDecoding.unescape(yRaw, into: &yDecoded)
                    guard xDecoded == yDecoded else { return false }
                }
            default:
                // Numbers by their exact text; `true`, `false` and `null` are their text too.
                guard unsafe a.slice(x).elementsEqual(b.slice(y)) else { return false }
            }
        }
        return true
    }

    private func members(_ bytes: UnsafeRawBufferPointer, _ ends: ContainerEnds, _ start: Int) -> [Member] {
        var result: [Member] = []
        unsafe ends.forEachMember(bytes, object: start) { key, escaped, value in
            result.append((key, escaped, value))
            return true
        }
        return result
    }

    private func unescaped(_ bytes: UnsafeRawBufferPointer, _ key: ByteRange, _ escaped: Bool) -> [UInt8] {
        guard escaped else { return unsafe Array(bytes.slice(key)) }
        var out: [UInt8] = []
        unsafe JSONStringDecoding.unescape(bytes.slice(key), into: &out)
        return out
    }

    /// Members ordered by unescaped key, equal keys in document order.
    private func sorted(_ members: [Member], in bytes: UnsafeRawBufferPointer) -> [Member] {
        guard members.count > 1 else { return members }
        let keys = members.map { unsafe unescaped(bytes, $0.key, $0.escaped) }
        return members.indices.sorted { lhs, rhs in
            if keys[lhs] == keys[rhs] { return lhs < rhs }
            return keys[lhs].lexicographicallyPrecedes(keys[rhs])
        }.map { members[$0] }
    }
}
