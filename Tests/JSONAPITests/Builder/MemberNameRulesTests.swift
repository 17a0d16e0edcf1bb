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
            "https://ü.example/ä",
        ] {
            #expect(link(good) == nil, "\(good)")
        }
        for bad in [
            "", "wrong", "articles/1", "http://a b", "http://a%2", "http://a%zz", "http://a\"b", "http://a<b>",
            "http://a{b}", "1http://x",
        ] {
            #expect(link(bad) != nil, "\(bad)")
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
