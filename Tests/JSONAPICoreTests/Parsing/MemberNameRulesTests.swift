import Testing

@testable import JSONAPI

@Suite("Member names, links and pointers")
struct MemberNameRulesTests {
    @Test("the URI byte masks are exactly the RFC 3986 unreserved, reserved and bracket characters")
    func uriMasks() {
        var low: UInt64 = 0
        for byte in Array("!#$&'()*+,-./0123456789:;=?".utf8) { low |= 1 << UInt64(byte) }
        var high: UInt64 = 0
        for byte in Array("@ABCDEFGHIJKLMNOPQRSTUVWXYZ[]_abcdefghijklmnopqrstuvwxyz~".utf8) {
            high |= 1 << UInt64(byte - 64)
        }
        #expect(MemberNameRules.lowURIBytes == low)
        #expect(MemberNameRules.highURIBytes == high)
    }

    private func link(_ text: String) -> String? {
        var bytes = Array(text.utf8)
        return bytes.withUnsafeMutableBytes { MemberNameRules.linkProblem(UnsafeRawBufferPointer($0)) }
    }

    private func name(_ text: String) -> MemberNameRules.Verdict {
        var bytes = Array(text.utf8)
        return bytes.withUnsafeMutableBytes { MemberNameRules.classify(UnsafeRawBufferPointer($0)) }
    }

    @Test("links")
    func links() {
        for good in [
            "http://example.com/a?page[number]=2&x=%20", "/articles/1", "?page=2", "#top", "urn:isbn:0451",
            "https://ü.example/ä", "",
        ] {
            #expect(link(good) == nil, "\(good)")
        }
        for bad in [
            "wrong", "articles/1", "http://a b", "http://a%2", "http://a%zz", "http://a\"b", "http://a<b>",
            "http://a{b}", "1http://x",
        ] {
            #expect(link(bad) != nil, "\(bad)")
        }
    }

    @Test("every byte at every position of links of every length up to 40: the vector path agrees with the byte rule")
    func linkBytesEverywhere() {
        var allowed = [Bool](repeating: false, count: 256)
        for byte in Array("!#$&'()*+,-./0123456789:;=?@ABCDEFGHIJKLMNOPQRSTUVWXYZ[]_abcdefghijklmnopqrstuvwxyz~".utf8) {
            allowed[Int(byte)] = true
        }
        for byte in 0x80...0xFF { allowed[byte] = true }
        for length in 1...40 {
            for position in 0..<length {
                for byte in 0...255 where byte != Int(UInt8(ascii: "%")) {
                    var bytes = Array(("/" + String(repeating: "a", count: length - 1)).utf8)
                    if position == 0 && byte != Int(UInt8(ascii: "/")) { continue }
                    bytes[position] = UInt8(byte)
                    let problem = bytes.withUnsafeMutableBytes {
                        MemberNameRules.linkProblem(UnsafeRawBufferPointer($0))
                    }
                    if (problem == nil) != allowed[byte] {
                        Issue.record("length \(length), byte \(byte) at \(position): \(problem ?? "accepted")")
                        return
                    }
                }
            }
        }
    }

    @Test("the sixteen-byte plain-name test agrees with the byte loop for every byte at every position")
    func plainNamesInBuffers() {
        for length in 1...18 {
            for position in 0..<length {
                for byte in 0...255 {
                    // Trailing bytes that fail, so a test that looked past the name would err.
                    var buffer = [UInt8](repeating: UInt8(ascii: "a"), count: length)
                    buffer += [UInt8](repeating: UInt8(ascii: "!"), count: 20)
                    buffer[position] = UInt8(byte)
                    let (fast, loop) = buffer.withUnsafeBytes { all in
                        let name = UnsafeRawBufferPointer(rebasing: all[0..<length])
                        return (MemberNameRules.isPlainFast(name, in: all), MemberNameRules.isPlainFast(name))
                    }
                    if fast != loop {
                        Issue.record("length \(length), byte \(byte) at \(position): \(fast) against \(loop)")
                        return
                    }
                }
            }
        }
    }

    @Test("member names")
    func memberNames() {
        for plain in ["a", "title", "first-name", "first_name", "first name", "ünïcödé", "a1"] {
            #expect(name(plain) == .plain, "\(plain)")
        }
        #expect(name("@context") == .atMember)
        #expect(name("atomic:operations") == .extensionMember)
        for bad in [
            "", "-a", "a-", "_a", "a_", " a", "a ", "a.b", "a+b", "a/b", "a@b", "bad ns:x", "ns:", "ns:-x", "@",
        ] {
            if case .invalid = name(bad) {} else { Issue.record("accepted \(bad)") }
        }
    }
}
