import Foundation
import JSONAPI
import JSONAPIOpenAPI
import Testing

/// `JSONAPISchemas.memberNamePattern` against the parser: a name the pattern matches is one
/// `Document(parsing:)` accepts inside `meta`, and the other way round.
@Suite struct MemberNamePatternTests {
    static let names = [
        "a", "A1", "a b", "a-b", "a_b", "a--b", "é", "日本", "a😀b", "😀", "@a", "@a-b", "ns:a", "ns1:a b", "1",
        "", " ", "-a", "a-", "_a", "a_", " a", "a ", "a+b", "a.b", "a/b", "a\nb", "a\n", "@", "@-a", "ns:", ":a",
        "n-s:a", "ns:-a", "a:b:c", "a\u{7F}", "\u{80}", "a\"b", "a\\b", "a$", "$a", "a[b]",
    ]

    @Test("pattern and parser agree", arguments: names)
    func agree(_ name: String) throws {
        let regex = try NSRegularExpression(pattern: JSONAPISchemas.memberNamePattern)
        let whole = NSRange(name.startIndex..., in: name)
        let matches = regex.firstMatch(in: name, range: whole).map { $0.range == whole } ?? false
        let bytes = [UInt8](try JSONSerialization.data(withJSONObject: ["meta": ["outer": [name: 1]]]))
        let parses = (try? Document(parsing: bytes)) != nil
        #expect(matches == parses, "\(name.debugDescription): pattern \(matches), parser \(parses)")
    }
}
