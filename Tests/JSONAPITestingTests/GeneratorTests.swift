import Foundation
import JSONAPI
import JSONAPITesting
import PropertyBased
import Testing

@Suite("Document generators")
struct GeneratorTests {
    enum Status: String, Decodable, CaseIterable {
        case draft, published
    }

    struct Address: Decodable {
        var street: String
        var zip: Int?
    }

    struct Person: Decodable, JSONAPIResource {
        static let resourceType = "people"
        var id: String
        var name: String
        var address: Address?
        var articles: [Lazy<Article>]
    }

    struct Tag: Decodable, JSONAPIResource {
        static let resourceType = "tags"
        var id: Int
        var label: String
    }

    enum Contributor: ResourceUnion {
        case person(Person)
        case tag(Tag)

        static let members: [ResourceUnionMember<Contributor>] = [
            .member(Person.self, Contributor.person),
            .member(Tag.self, Contributor.tag),
        ]
    }

    struct CountMeta: Decodable {
        var count: Int
    }

    struct Article: Decodable, JSONAPIResource {
        static let resourceType = "articles"
        var id: UUID
        var title: String
        var body: String?
        var status: Status
        var published: Date?
        var homepage: URL?
        var rating: Double
        var flags: [String: Bool]
        var extra: JSON?
        var author: Person
        var editor: Person?
        var tags: [Tag]
        var reviewers: [Identifier<Person>]
        var lead: Contributor?
        var comments: Related<[Identifier<Tag>], CountMeta, Links>
        var meta: JSONObject?
        var links: Links?
    }

    static let generators: DocumentGenerators = {
        do {
            return try DocumentGenerators(Article.self, Person.self, Tag.self)
        } catch {
            fatalError("\(error)")
        }
    }()

    @Test("every generated valid document parses strictly, without warnings, and decodes into the models")
    func validDocuments() async {
        await propertyCheck(count: 200, input: Self.generators.validDocument) { document in
            let parsed = try Document(parsing: document.bytes)
            #expect(parsed.diagnostics.isEmpty, "\(parsed.diagnostics) in \(document)")
            #expect(throws: Never.self, "\(document)") {
                try JSONAPIDecoder().decode([Article].self, from: document.bytes)
            }
        }
    }

    @Test(
        "every generated invalid document is reported with the code of the rule it breaks, and no other",
        arguments: DocumentRule.allCases)
    func invalidDocuments(_ rule: DocumentRule) async {
        await propertyCheck(count: 50, input: Self.generators.invalidDocument(breaking: rule)) { document in
            #expect(document.brokenRule == rule)
            #expect(Self.reports(document, rule), "\(document)")
        }
    }

    @Test("the mixed invalid generator names the rule each document breaks")
    func anyInvalidDocument() async {
        await propertyCheck(count: 200, input: Self.generators.invalidDocument) { document in
            let rule = try #require(document.brokenRule)
            #expect(Self.reports(document, rule), "\(document)")
        }
    }

    @Test(
        "every generated invalid document breaks its rule once, at the place it names, leniently and strictly",
        arguments: DocumentRule.allCases)
    func invalidDocumentsBreakOneRuleAtItsPlace(_ rule: DocumentRule) async {
        await propertyCheck(count: 50, input: Self.generators.invalidDocument(breaking: rule)) { document in
            try Self.expectOnePlace(document, rule)
        }
    }

    @Test("the mixed invalid generator names the place each document breaks its rule")
    func anyInvalidDocumentBreaksOneRuleAtItsPlace() async {
        await propertyCheck(count: 200, input: Self.generators.invalidDocument) { document in
            try Self.expectOnePlace(document, try #require(document.brokenRule))
        }
    }

    /// A lenient parse reports exactly one diagnostic, with `rule`'s code, at the document's
    /// ``GeneratedDocument/brokenRulePointer``; a strict one reports it there too (thrown for an
    /// error rule, with no other diagnostic; kept as the only warning otherwise).
    static func expectOnePlace(
        _ document: GeneratedDocument, _ rule: DocumentRule, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let pointer = try #require(document.brokenRulePointer, sourceLocation: sourceLocation)
        var lenient = ParsingOptions()
        lenient.isLenient = true
        let parsed = try Document(parsing: document.bytes, options: lenient)
        #expect(parsed.diagnostics.map(\.pointer) == [pointer], "\(document)", sourceLocation: sourceLocation)
        #expect(parsed.diagnostics.map(\.code) == [rule.expectedCode], "\(document)", sourceLocation: sourceLocation)

        switch rule.severity {
        case .error:
            let error = try #require(throws: JSONAPIError.self, sourceLocation: sourceLocation) {
                try Document(parsing: document.bytes)
            }
            #expect(error.code == rule.expectedCode, "\(document)", sourceLocation: sourceLocation)
            #expect(error.pointer == pointer, "\(error) in \(document)", sourceLocation: sourceLocation)
            #expect(error.diagnostics.map(\.pointer) == [pointer], "\(document)", sourceLocation: sourceLocation)
        case .warning:
            let strict = try Document(parsing: document.bytes)
            #expect(strict.diagnostics.map(\.pointer) == [pointer], "\(document)", sourceLocation: sourceLocation)
            #expect(strict.diagnostics.map(\.severity) == [.warning], "\(document)", sourceLocation: sourceLocation)
        }
    }

    @Test("a valid document names no broken rule and no place")
    func validDocumentsNameNoPlace() async {
        await propertyCheck(count: 20, input: Self.generators.validDocument) { document in
            #expect(document.brokenRule == nil && document.brokenRulePointer == nil)
            #expect(!document.description.hasPrefix("breaks"))
        }
    }

    /// Whether a strict parse reports exactly `rule`: a thrown error whose every error diagnostic
    /// has the rule's code, or (for a warning rule) a document whose only diagnostics are
    /// warnings with that code.
    static func reports(_ document: GeneratedDocument, _ rule: DocumentRule) -> Bool {
        do {
            let parsed = try Document(parsing: document.bytes)
            return rule.severity == .warning && !parsed.diagnostics.isEmpty
                && parsed.diagnostics.allSatisfy { $0.code == rule.expectedCode && $0.severity == .warning }
        } catch {
            let errors = error.diagnostics.filter { $0.severity == .error }
            return rule.severity == .error && error.code == rule.expectedCode
                && errors.allSatisfy { $0.code == rule.expectedCode }
        }
    }

    struct Orphan: Decodable, JSONAPIResource {
        static let resourceType = "orphans"
        var id: String
        var owner: Person
    }

    struct Weird: Decodable, JSONAPIResource {
        static let resourceType = "weirds"
        var id: String
        var mode: Plain

        enum Plain: String, Decodable { case on }
    }

    @Test("models the generator cannot serve are refused with the reasons")
    func refusesModels() throws {
        let error = try #require(throws: DocumentGeneratorError.self) { try DocumentGenerators(Orphan.self) }
        #expect(error.problems == ["Orphan.owner: no model of type people was given"])
        let weird = try #require(throws: DocumentGeneratorError.self) { try DocumentGenerators(Weird.self) }
        #expect(weird.problems.contains("Weird.mode: no value of Plain can be made"))
        #expect(throws: DocumentGeneratorError.self) { try DocumentGenerators(models: []) }
    }
}
