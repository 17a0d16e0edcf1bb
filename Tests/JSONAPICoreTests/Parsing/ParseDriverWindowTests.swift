import Testing

@testable @_spi(Backend) import JSONAPI

/// The driver's window operations (what the resource stream uses to release bytes): where it may
/// release, the release itself, and reading on afterwards, against the same document read whole.
@Suite("Parse driver: releasing a window's front")
struct ParseDriverWindowTests {
    /// Three primary resources; the second breaks a rule inside its attributes.
    static let elements = [
        #"{"type":"a","id":"1","attributes":{"t":"one"}}"#,
        #"{"type":"a","id":"2","attributes":{"type":"clash","t":"two"}}"#,
        #"{"type":"a","id":"3","relationships":{"r":{"data":{"type":"a","id":"1"}}}}"#,
    ]
    static let text = #"{"data":["# + elements.joined(separator: ",") + #"],"meta":{"n":1}}"#
    static let bytes = Array(text.utf8)
    static let secondStart = 9 + elements[0].utf8.count + 1

    /// Feeds `bytes` (every byte so far) from `from`.
    static func feed(_ driver: inout ParseDriver, _ bytes: ArraySlice<UInt8>, from: Int, isFinal: Bool) throws {
        try Array(bytes).withUnsafeBytes { all in try driver.feed(all: all, from: from, isFinal: isFinal) }
    }

    @Test("inside an element of data, everything before its brace goes and the element is read again")
    func releaseInsideElement() throws {
        let whole = try Document(parsing: Self.text, options: ParsingOptions(kind: .response, lenient: true))
        let wholeArena = whole.storage.arena
        let start = Self.secondStart
        let end = start + Self.elements[1].utf8.count
        for cut in (start + 1)..<end {
            var driver = ParseDriver(options: ParsingOptions(kind: .response, lenient: true))
            try Self.feed(&driver, Self.bytes[0..<cut], from: 0, isFinal: false)
            #expect(driver.openUnitStart == start)
            let (count, rescans) = driver.releasablePrefix
            #expect(count == start && rescans, "cut at \(cut)")
            // The first element's problem-free record is taken; the second's problem (if read
            // yet) stays with the open element.
            let early = driver.takeDiagnostics(before: start)
            #expect(early.diagnostics.isEmpty)
            driver.releasePrefix(count, rescanning: true)
            #expect(driver.arena.resources.isEmpty && driver.arena.linkages.isEmpty)
            try Self.feed(&driver, Self.bytes[start..<cut], from: 0, isFinal: false)
            try Self.feed(&driver, Self.bytes[start...], from: cut - start, isFinal: true)
            let arena = driver.arena
            #expect(arena.resources.count == 2)
            for (mine, theirs) in zip(arena.resources, wholeArena.resources.dropFirst()) {
                #expect(Int(mine.object.start) + start == Int(theirs.object.start))
                #expect(Int(mine.id.start) + start == Int(theirs.id.start) && mine.type == theirs.type)
            }
            #expect(Int(arena.linkages[0].id.start) + start == Int(wholeArena.linkages[0].id.start))
            // The second element's problem is reported once, however often it was read.
            let taken = driver.takeDiagnostics(before: .max).diagnostics.filter { $0.code != .unreachableResource }
            let wholeProblems = whole.diagnostics.map(\.offset)
            #expect(taken.map { $0.offset + start } == wholeProblems, "cut at \(cut)")
        }
    }

    @Test("between units, what was scanned goes and nothing is read again")
    func releaseBetweenUnits() throws {
        let cut = Self.secondStart  // just after the comma
        var driver = ParseDriver(options: ParsingOptions())
        try Self.feed(&driver, Self.bytes[0..<cut], from: 0, isFinal: false)
        #expect(driver.openUnitStart == nil)
        let (count, rescans) = driver.releasablePrefix
        #expect(count == cut && !rescans)
        driver.releasePrefix(count, rescanning: false)
        let rest = Self.bytes[cut...]
        try Self.feed(&driver, rest, from: 0, isFinal: true)
        #expect(driver.arena.resources.map { Int($0.object.start) } == [0, Self.elements[1].utf8.count + 1])
    }

    @Test("inside a top-level member other than data and included, nothing may go")
    func noReleaseInsideMeta() throws {
        let metaStart = Self.text.utf8.count - 9
        var driver = ParseDriver(options: ParsingOptions(kind: .response, lenient: true))
        try Self.feed(&driver, Self.bytes[0..<(metaStart + 3)], from: 0, isFinal: false)
        #expect(driver.openUnitStart == 0)
        #expect(driver.releasablePrefix.count == 0)
    }
}
