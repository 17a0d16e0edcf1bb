import JSONAPI

/// What a model type declares that compiles but that JSON:API, or reading documents into the
/// model, does not accept or advises against: the `ResourceShape` of the type and its
/// findings, as a readable list.
///
/// ```swift
/// @Test func articleModel() throws {
///     let check = ModelCheck(Article.self)
///     #expect(check.isClean, "\(check)")
///     // or: try ModelCheck(Article.self).requireClean()
/// }
/// ```
///
/// A check reports (`ShapeFinding.Kind`): an optional array attribute (JSON:API prefers
/// an empty array), a property that is neither an attribute nor a relationship (a property
/// named `type`), an attribute or relationship with a reserved name (`id`, `type`, `lid`,
/// `links`, `relationships`) or a name that breaks the member-name rules, `meta` or `links` read
/// as something other than an object, a to-many relationship declared optional, an empty or
/// invalid `resourceType`, a key read twice, and a type whose initializer rejects every sample
/// value (so the model could not be described in full).
public struct ModelCheck: Sendable, CustomStringConvertible {
    /// The model's shape.
    public let shape: ResourceShape
    /// The shape's findings, less the kinds the check was told to ignore.
    public let findings: [ShapeFinding]

    /// Checks `model`.
    ///
    /// - Parameters:
    ///   - model: The model type.
    ///   - ignoring: Kinds of finding the model has on purpose (an optional to-many relationship in
    ///     a model for PATCH bodies, say).
    public init<Model: JSONAPIResource & Decodable>(_ model: Model.Type, ignoring: Set<ShapeFinding.Kind> = []) {
        shape = ResourceShape(of: Model.self)
        findings = shape.findings.filter { !ignoring.contains($0.kind) }
    }

    /// Whether there is nothing to report.
    public var isClean: Bool { findings.isEmpty }

    /// `Article (articles): no findings`, or a header and one finding per line.
    public var description: String {
        let header = "\(shape.typeName) (\(shape.resourceType))"
        guard !findings.isEmpty else { return "\(header): no findings" }
        let lines = findings.map { "  - [\($0.kind)] \($0)" }
        return "\(header): \(findings.count) finding\(findings.count == 1 ? "" : "s")\n" + lines.joined(separator: "\n")
    }

    /// Throws when there are findings.
    ///
    /// - Throws: ``ModelCheckFailure``, whose description lists them.
    public func requireClean() throws(ModelCheckFailure) {
        if !isClean { throw ModelCheckFailure(check: self) }
    }
}

/// A ``ModelCheck`` with findings, thrown by ``ModelCheck/requireClean()``.
public struct ModelCheckFailure: Error, Sendable, CustomStringConvertible {
    /// The check.
    public let check: ModelCheck

    /// The check's readable list of findings.
    public var description: String { check.description }
}
