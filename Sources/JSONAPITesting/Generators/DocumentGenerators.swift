import JSONAPI
import PropertyBased

/// Generators of JSON:API documents for property-based tests (swift-property-based): valid
/// documents for a set of model types, worked out from their `ResourceShape`s, and
/// invalid ones that break exactly one ``DocumentRule``.
///
/// ```swift
/// let generators = try DocumentGenerators(Article.self, Person.self, Comment.self)
///
/// @Test func decodesEveryValidDocument() async throws {
///     await propertyCheck(input: generators.validDocument) { document in
///         #expect(throws: Never.self) { try JSONAPIDecoder().decode([Article].self, from: document.bytes) }
///     }
/// }
/// ```
///
/// A valid document's primary data is an array of one to three resources of the first model
/// type. Every attribute gets a value of its shape (an optional one is sometimes `null` or
/// absent), every relationship linkage to resources of its target types: a relationship that
/// resolves models (or `Lazy` references) links to resources put in `included`, so
/// that full linkage holds and every model decodes; eager relationships form no cycle, so
/// `JSONAPIDecoder` never meets one. Strings include characters that need escaping.
///
/// The set must contain every model a resolved relationship points to, and no model may have a
/// required value the generator cannot make (`ValueShape.Kind.opaque`) or a name
/// JSON:API rejects: ``init(_:)`` throws ``DocumentGeneratorError`` listing them.
public struct DocumentGenerators: Sendable {
    /// The shapes of the models, the primary model's first.
    public let shapes: [ResourceShape]

    /// Generators for documents of `models`; the first is the primary data's type.
    ///
    /// - Throws: ``DocumentGeneratorError`` when a model cannot be generated.
    public init(_ models: any (JSONAPIResource & Decodable).Type...) throws(DocumentGeneratorError) {
        try self.init(models: models)
    }

    /// Generators for documents of `models`; the first is the primary data's type.
    ///
    /// - Throws: ``DocumentGeneratorError`` when `models` is empty or a model cannot be generated.
    public init(models: [any (JSONAPIResource & Decodable).Type]) throws(DocumentGeneratorError) {
        shapes = models.map { Self.shape(of: $0) }
        let problems = GenerationPlan.problems(in: shapes)
        guard problems.isEmpty else { throw DocumentGeneratorError(problems: problems) }
    }

    private static func shape<Model: JSONAPIResource & Decodable>(of model: Model.Type) -> ResourceShape {
        ResourceShape(of: Model.self)
    }

    /// Valid documents (strict response documents) for the models.
    public var validDocument: Generator<GeneratedDocument, Shrink.None<GeneratedDocument>> {
        let shapes = shapes
        return Generator { rng in
            var random = RandomSource(rng)
            let document = GenerationPlan(shapes: shapes).document(&random)
            rng = random.rng
            return GeneratedDocument(json: document, brokenRule: nil)
        }
    }

    /// Documents that break `rule` and no other: a valid document with one change.
    public func invalidDocument(breaking rule: DocumentRule) -> Generator<
        GeneratedDocument, Shrink.None<GeneratedDocument>
    > {
        let shapes = shapes
        return Generator { rng in
            var random = RandomSource(rng)
            let broken = rule.apply(to: GenerationPlan(shapes: shapes).document(&random), &random)
            rng = random.rng
            return GeneratedDocument(json: broken.document, brokenRule: rule, brokenRulePointer: broken.pointer)
        }
    }

    /// Documents that each break one rule, chosen at random among `DocumentRule.allCases`.
    public var invalidDocument: Generator<GeneratedDocument, Shrink.None<GeneratedDocument>> {
        let shapes = shapes
        return Generator { rng in
            var random = RandomSource(rng)
            let rule = DocumentRule.allCases[random.int(in: 0...(DocumentRule.allCases.count - 1))]
            let broken = rule.apply(to: GenerationPlan(shapes: shapes).document(&random), &random)
            rng = random.rng
            return GeneratedDocument(json: broken.document, brokenRule: rule, brokenRulePointer: broken.pointer)
        }
    }
}

/// A generated document.
public struct GeneratedDocument: Sendable, CustomStringConvertible {
    /// The document as a `JSON` value.
    public let json: JSON
    /// The rule the document breaks, nil for a valid document.
    public let brokenRule: DocumentRule?
    /// The JSON Pointer of the one place that breaks ``brokenRule``, where a strict parse
    /// reports it (`"/data/0/attributes/id"`; `""`, the document root, for
    /// ``DocumentRule/dataAndErrors``); nil for a valid document.
    ///
    /// ```swift
    /// await propertyCheck(input: generators.invalidDocument) { document in
    ///     let error = try #require(throws: JSONAPIError.self) { try Document(parsing: document.bytes) }
    ///     #expect(error.pointer == document.brokenRulePointer)
    /// }
    /// ```
    public let brokenRulePointer: String?

    /// Creates a generated document.
    public init(json: JSON, brokenRule: DocumentRule?, brokenRulePointer: String? = nil) {
        self.json = json
        self.brokenRule = brokenRule
        self.brokenRulePointer = brokenRulePointer
    }

    /// The document as compact JSON text.
    public var text: String { (try? json.jsonString()) ?? "" }

    /// The UTF-8 of ``text``.
    public var bytes: [UInt8] { Array(text.utf8) }

    /// The rule broken and where, if any, then the JSON text.
    public var description: String {
        guard let brokenRule else { return text }
        return "breaks \(brokenRule) at \(brokenRulePointer.map { $0.isEmpty ? "the root" : $0 } ?? "?"): \(text)"
    }
}

/// Why ``DocumentGenerators`` cannot generate documents for a set of models.
public struct DocumentGeneratorError: Error, Sendable, CustomStringConvertible {
    /// One line per problem: the model, the member and what is wrong.
    public let problems: [String]

    /// Creates an error.
    public init(problems: [String]) {
        self.problems = problems
    }

    /// The problems, one per line.
    public var description: String {
        "cannot generate documents for these models:\n" + problems.map { "  - \($0)" }.joined(separator: "\n")
    }
}

/// Random choices from the property checker's seeded generator, so that a failing case
/// replays from its seed.
struct RandomSource: RandomNumberGenerator {
    var rng: any SeededRandomNumberGenerator

    init(_ rng: any SeededRandomNumberGenerator) {
        self.rng = rng
    }

    mutating func next() -> UInt64 { rng.next() }

    mutating func int(in range: ClosedRange<Int>) -> Int {
        Int.random(in: range, using: &self)
    }

    mutating func chance(_ probability: Double) -> Bool {
        Double.random(in: 0..<1, using: &self) < probability
    }

    mutating func element<T>(_ elements: [T]) -> T? {
        elements.isEmpty ? nil : elements[int(in: 0...(elements.count - 1))]
    }
}
