import Foundation
import JSONAPI
import Testing

@testable import JSONAPITestSupport

/// Every document a decoder hands back keeps the decoder's settings, so its typed views
/// (`primary(as:)`, `included(of:)`, `resource(_:id:)`, `decode(_:)`) decode as the decoder did.
/// The document's member names are kebab-case: with the default key strategy `firstName` and
/// `publishedAt` are not found.
@Suite("Documents keep their decoder's settings")
struct DocumentSettingsTests {
    struct Person: Decodable, Equatable, JSONAPIResource {
        static let resourceType = "people"
        var id: String
        var firstName: String
    }

    struct Article: Decodable, Equatable, JSONAPIResource {
        static let resourceType = "articles"
        var id: String
        var publishedAt: Date
        var author: Person
    }

    static let text = #"""
        {"data": [{"type": "articles", "id": "1", "attributes": {"published-at": 1700000000},
                   "relationships": {"author": {"data": {"type": "people", "id": "9"}}}}],
         "included": [{"type": "people", "id": "9", "attributes": {"first-name": "Dan"}}]}
        """#

    static let dan = Person(id: "9", firstName: "Dan")
    static let article = Article(id: "1", publishedAt: Date(timeIntervalSince1970: 1_700_000_000), author: dan)

    /// Kebab-case keys and dates as seconds: neither is a default.
    static func decoder() -> JSONAPIDecoder {
        let decoder = JSONAPIDecoder()
        decoder.keyDecodingStrategy = .convertFromKebabCase
        decoder.dateDecodingStrategy = .secondsSince1970
        return decoder
    }

    /// The typed views of `document` decode with the decoder's settings.
    func expectTypedViewsUseTheSettings(
        of document: Document, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        #expect(
            try document.included(of: Person.self).decodeAll() == [Self.dan], sourceLocation: sourceLocation)
        #expect(
            try document.primary(as: Article.self).decodeAll() == [Self.article], sourceLocation: sourceLocation)
        #expect(
            try document.primary(as: Article.self).element(at: 0) == Self.article, sourceLocation: sourceLocation)
        #expect(try document.resource(Person.self, id: "9") == Self.dan, sourceLocation: sourceLocation)
        #expect(try document.decode([Article].self) == [Self.article], sourceLocation: sourceLocation)
        #expect(
            try document.primary(as: Article.self).decodeAllReporting().document.included(of: Person.self)
                .decodeAll() == [Self.dan], sourceLocation: sourceLocation)
    }

    @Test func withoutTheSettingsTheKeysAreNotFound() throws {
        let document = try Document(parsing: Self.text)
        let error = decodingError { try document.included(of: Person.self).decodeAll() }
        guard case .keyNotFound(let key, _)? = error else {
            Issue.record("expected keyNotFound, got \(String(describing: error))")
            return
        }
        #expect(key.stringValue == "firstName")
    }

    @Test func aDocumentParsedByTheDecoder() throws {
        try expectTypedViewsUseTheSettings(of: Self.decoder().document(from: Self.text))
        try expectTypedViewsUseTheSettings(of: Self.decoder().document(from: Data(Self.text.utf8)))
    }

    @Test func theDocumentOfAReport() throws {
        let decoder = Self.decoder()
        let fromBytes = try decoder.decodeReporting([Article].self, from: Array(Self.text.utf8))
        #expect(fromBytes.value == [Self.article])
        try expectTypedViewsUseTheSettings(of: fromBytes.document)
        try expectTypedViewsUseTheSettings(
            of: decoder.decodeReporting([Article].self, from: Data(Self.text.utf8)).document)
        try expectTypedViewsUseTheSettings(of: decoder.decodeReporting([Article].self, from: Self.text).document)
        // A document parsed elsewhere comes back with the options it was decoded with.
        let parsed = try Document(parsing: Self.text)
        try expectTypedViewsUseTheSettings(of: decoder.decodeReporting([Article].self, from: parsed).document)
    }

    @Test func theDocumentOfACompoundDocument() throws {
        let compound = try Self.decoder().decode(CompoundDocument<[Article], NoMeta, NoLinks>.self, from: Self.text)
        #expect(compound.data == [Self.article])
        try expectTypedViewsUseTheSettings(of: compound.document)
        // Decoded from a document, too.
        let parsed = try Document(parsing: Self.text)
        let again = try Self.decoder().decode(CompoundDocument<[Article], NoMeta, NoLinks>.self, from: parsed)
        try expectTypedViewsUseTheSettings(of: again.document)
    }

    @Test func theDocumentOfATypedViewsReportHasTheOptionsItDecodedWith() throws {
        var options = DecodingOptions()
        options.keyDecodingStrategy = .convertFromKebabCase
        options.dateDecodingStrategy = .secondsSince1970
        let document = try Document(parsing: Self.text)
        let report = try document.primary(as: Article.self, options: options).decodeAllReporting()
        try expectTypedViewsUseTheSettings(of: report.document)
        let walk = try document.included(of: Person.self, options: options).forEachDecodedReporting { _ in }
        try expectTypedViewsUseTheSettings(of: walk.document)
    }

    @Test func aDocumentKeepsTheOptionsAsGiven() throws {
        // Lenient decoding implies skipping missing resources and unhandled types; the document
        // keeps what the caller set.
        let decoder = Self.decoder()
        decoder.tolerance = .lenient
        decoder.maximumRelationshipDepth = 7
        let report = try decoder.decodeReporting([Article].self, from: Self.text)
        #expect(report.document.decodingOptions.tolerance == .lenient)
        #expect(report.document.decodingOptions.ignoresMissingResources == false)
        #expect(report.document.decodingOptions.ignoresUnhandledResourceTypes == false)
        #expect(report.document.decodingOptions.maximumRelationshipDepth == 7)
        let compound = try decoder.decode(CompoundDocument<[Article], NoMeta, NoLinks>.self, from: Self.text)
        #expect(compound.document.decodingOptions.maximumRelationshipDepth == 7)
    }

    @Test func anErrorDocumentKeepsTheSettings() throws {
        let text = #"{"errors": [{"status": "404"}]}"#
        do {
            _ = try Self.decoder().decode([Article].self, from: text)
            Issue.record("an error document decoded")
        } catch let failure as DocumentErrors {
            #expect(failure.status == 404)
            #expect(failure.document.decodingOptions.maximumRelationshipDepth == 32)
            guard case .convertFromKebabCase = failure.document.decodingOptions.keyDecodingStrategy else {
                Issue.record("the error document lost the key strategy")
                return
            }
        }
    }
}
