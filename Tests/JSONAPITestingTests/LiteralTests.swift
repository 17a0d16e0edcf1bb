import JSONAPI
import JSONAPITesting
import Testing

@Suite("Literals and test documents")
struct LiteralTests {
    struct Person: Codable, Equatable, JSONAPIResource {
        static let resourceType = "people"
        var id: String
        var name: String
    }

    struct Article: Codable, JSONAPIResource {
        static let resourceType = "articles"
        var id: String
        var title: String
        var author: Person
        var reviewer: Identifier<Person>
    }

    @Test("identifiers from integer and string literals")
    func identifiers() {
        let byInteger: Identifier<Person> = 9
        let byString: Identifier<Person> = "9"
        #expect(byInteger == byString)
        #expect(byInteger.id == "9")
        #expect([1, 2] as [Identifier<Person>] == [Identifier("1"), Identifier("2")])
    }

    @Test("resource identifiers from `type/id` and `type/lid:local` literals")
    func resourceIdentifiers() {
        #expect(("people/9" as ResourceIdentifier) == ResourceIdentifier(type: "people", id: "9"))
        #expect(("articles/lid:new-1" as ResourceIdentifier) == ResourceIdentifier(type: "articles", lid: "new-1"))
        #expect(("a/b/c" as ResourceIdentifier) == ResourceIdentifier(type: "a", id: "b/c"))
        #expect(("people" as ResourceIdentifier) == ResourceIdentifier(type: "people"))
    }

    @Test("a document made from models decodes back into them")
    func makesDocuments() throws {
        let author = Person(id: "9", name: "Dan")
        let article = Article(id: "1", title: "JSON:API", author: author, reviewer: 12)
        let document = try makeDocument([article])
        #expect(document.included.count == 1)
        let decoded = try JSONAPIDecoder().decode([Article].self, from: document)
        #expect(decoded.first?.author == author)
        #expect(decoded.first?.reviewer == 12)
        expectEquivalentDocuments(
            document,
            try Document(
                parsing: #"""
                    {"data": [{"type": "articles", "id": "1", "attributes": {"title": "JSON:API"},
                      "relationships": {"author": {"data": {"type": "people", "id": "9"}},
                                        "reviewer": {"data": {"type": "people", "id": "12"}}}}],
                     "included": [{"type": "people", "id": "9", "attributes": {"name": "Dan"}}]}
                    """#))
    }
}
