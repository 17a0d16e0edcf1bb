import Foundation
import JSONAPI
import Testing

@testable import JSONAPITestSupport

/// One way of parsing a document.
struct ParseConfiguration: CustomStringConvertible {
    enum Feeding: CustomStringConvertible {
        case whole
        /// `DocumentParser` fed 1-byte chunks.
        case oneByte
        /// `DocumentParser` fed chunks whose sizes this seed draws (some tiny, some 64 KiB).
        case random(UInt64)

        var description: String {
            switch self {
            case .whole: "whole"
            case .oneByte: "1-byte chunks"
            case .random(let seed): "random chunks (seed \(seed))"
            }
        }
    }

    var lenient: Bool
    var feeding: Feeding
    var checksFullLinkage = true
    var maximumDiagnostics = 1_000

    var description: String {
        "\(lenient ? "lenient" : "strict"), \(feeding)"
            + (checksFullLinkage ? "" : ", checksFullLinkage = false")
    }

    func options(linkageDocument: Bool) -> ParsingOptions {
        var options = ParsingOptions(kind: linkageDocument ? .relationshipUpdate : .response, lenient: lenient)
        options.checksFullLinkage = checksFullLinkage
        options.maximumDiagnostics = maximumDiagnostics
        return options
    }

    func parse(_ bytes: [UInt8], linkageDocument: Bool) -> Result<Document, JSONAPIError> {
        let options = options(linkageDocument: linkageDocument)
        do {
            switch feeding {
            case .whole:
                return .success(try Document(parsing: bytes, options: options))
            case .oneByte:
                var parser = DocumentParser(options: options)
                for byte in bytes { try parser.feed([byte]) }
                return .success(try parser.finish())
            case .random(let seed):
                var sizes = SplitMix64(seed: seed)
                var parser = DocumentParser(options: options)
                var offset = 0
                while offset < bytes.count {
                    let limit = sizes.element([1, 2, 3, 7, 16, 100, 1_000, 65_536])
                    let end = min(bytes.count, offset + sizes.int(1...limit))
                    try parser.feed(Array(bytes[offset..<end]))
                    offset = end
                }
                return .success(try parser.finish())
            }
        } catch {
            return .failure(error)
        }
    }
}

/// Compares the library with ``ModelDocument/expectations(objectOffsets:pointers:lenient:checksFullLinkage:maximumDiagnostics:)``.
enum DifferentialCheck {
    /// The differences between what the library reports for `rendered` and what the model
    /// expects; empty when they agree.
    static func mismatches(
        _ model: ModelDocument, _ rendered: RenderedDocument, _ configuration: ParseConfiguration,
        absentKeys: [ResourceIdentifierKey]
    ) -> [String] {
        let expected = model.expectations(
            objectOffsets: rendered.objectOffsets, pointers: rendered.pointers, lenient: configuration.lenient,
            checksFullLinkage: configuration.checksFullLinkage, maximumDiagnostics: configuration.maximumDiagnostics)
        var problems: [String] = []
        func diagnostics(_ list: [Diagnostic]) -> [ExpectedDiagnostic] {
            list.map {
                ExpectedDiagnostic(
                    isError: $0.severity == .error, code: $0.code.identifier, message: $0.message, offset: $0.offset,
                    pointer: $0.pointer)
            }
        }
        func compareDiagnostics(_ got: [ExpectedDiagnostic]) {
            guard got != expected.diagnostics else { return }
            // The first difference and what follows it, not lists of thousands.
            let first =
                zip(got, expected.diagnostics).enumerated().first { $0.element.0 != $0.element.1 }?.offset
                ?? min(got.count, expected.diagnostics.count)
            problems.append(
                """
                \(got.count) diagnostics, expected \(expected.diagnostics.count); from diagnostic \(first) on:
                  expected \(expected.diagnostics.dropFirst(first).prefix(3).map(\.description))
                  got      \(got.dropFirst(first).prefix(3).map(\.description))
                """)
        }

        let document: Document
        switch configuration.parse(rendered.bytes, linkageDocument: model.kind == .linkage) {
        case .failure(let error):
            guard !configuration.lenient && expected.strictFails else {
                return [
                    "parsing threw \(error.code.identifier) at \(error.offset): \(error.message); expected a document"
                ]
            }
            guard let first = expected.diagnostics.first(where: \.isError) else { return ["no expected error"] }
            if error.code != .duplicateResource || error.offset != first.offset
                || !error.message.utf8.elementsEqual(first.message.utf8)
            {
                problems.append(
                    "thrown error \(error.code.identifier) at \(error.offset): \(error.message); expected \(first)")
            }
            compareDiagnostics(diagnostics(error.diagnostics))
            return problems
        case .success(let parsed):
            if !configuration.lenient && expected.strictFails {
                problems.append("strict parsing accepted a document with duplicates")
            }
            compareDiagnostics(diagnostics(parsed.diagnostics))
            document = parsed
        }

        // Every record, in document order, with the right type and id.
        let records = model.records
        let all = document.allResources
        guard all.count == records.count else {
            return problems + ["\(all.count) records, expected \(records.count)"]
        }
        for (position, record) in records.enumerated() {
            let resource = all[position]
            let key = expected.keys[position]
            if !resource.type.utf8.elementsEqual(key.type.utf8)
                || !(resource.id ?? "\u{FFFF}").utf8.elementsEqual(key.id.utf8)
                || resource.isIncluded != record.isIncluded
            {
                problems.append(
                    "record \(position) is \(resource.type.debugDescription)/\((resource.id ?? "nil").debugDescription) (included: \(resource.isIncluded)), expected \(key) (included: \(record.isIncluded))"
                )
            }
        }

        // Lookups of every key, and of near misses the document does not hold.
        for (key, position) in expected.firstPosition {
            let found = document.resource(type: key.type, id: key.id)?.recordIndex
            if found != position {
                problems.append("resource(\(key)) gave record \(found.map(String.init) ?? "nil"), expected \(position)")
            }
        }
        for key in absentKeys where expected.firstPosition[key] == nil {
            if let found = document.resource(type: key.type, id: key.id) {
                problems.append("resource(\(key)) gave record \(found.recordIndex) (\(found.identifier)), expected nil")
            }
        }

        // Every relationship's linkage resolves to the record the model says.
        for (position, record) in records.enumerated() {
            let relationships = all[position].relationships
            guard relationships.count == record.resource.relationships.count else {
                problems.append(
                    "record \(position) has \(relationships.count) relationships, expected \(record.resource.relationships.count)"
                )
                continue
            }
            for (r, modelRelationship) in record.resource.relationships.enumerated() {
                let relationship = relationships[r]
                let place = "record \(position) relationship \(modelRelationship.name)"
                let wanted = expected.targets[position][r]
                let identifiers = relationship.identifiers
                guard identifiers.count == wanted.count else {
                    problems.append("\(place): \(identifiers.count) identifiers, expected \(wanted.count)")
                    continue
                }
                let got = identifiers.map { $0.resource?.recordIndex }
                if got != wanted {
                    let keys = modelRelationship.data.identifiers.map(\.key)
                    problems.append("\(place): \(keys) resolved to \(got), expected \(wanted)")
                }
                if relationship.resolvedResources.map(\.recordIndex) != wanted.compactMap({ $0 }) {
                    problems.append("\(place): resolvedResources differ from the identifiers' resources")
                }
                switch (modelRelationship.data, relationship.linkage) {
                case (.absent, .absent), (.null, .null), (.many, .many): break
                case (.one, .one):
                    if relationship.resolvedResource?.recordIndex != wanted.first ?? nil {
                        problems.append("\(place): resolvedResource is not the identifier's resource")
                    }
                default:
                    problems.append("\(place): linkage \(relationship.linkage), expected \(modelRelationship.data)")
                }
            }
        }
        if model.kind == .linkage {
            let got = document.primaryIdentifiers.map { $0.resource?.recordIndex }
            if got != expected.primaryTargets {
                problems.append("primary identifiers resolved to \(got), expected \(expected.primaryTargets)")
            }
        }
        return problems
    }

    /// The ways one document is parsed: strict and lenient, whole and chunked (1-byte chunks for
    /// small documents).
    static func configurations(byteCount: Int, random: inout SplitMix64) -> [ParseConfiguration] {
        let checksFullLinkage = !random.chance(10)
        var result: [ParseConfiguration] = []
        for lenient in [false, true] {
            result.append(ParseConfiguration(lenient: lenient, feeding: .whole))
            result.append(ParseConfiguration(lenient: lenient, feeding: .random(random.next())))
        }
        if byteCount <= 2_048 {
            result.append(ParseConfiguration(lenient: random.chance(50), feeding: .oneByte))
        }
        for index in result.indices { result[index].checksFullLinkage = checksFullLinkage }
        return result
    }

    /// Smaller documents that still fail under `configuration`: resources, relationships and
    /// identifiers removed one at a time while the failure persists.
    static func shrink(
        _ model: ModelDocument, _ configuration: ParseConfiguration, absentKeys: [ResourceIdentifierKey]
    ) -> ModelDocument {
        func fails(_ candidate: ModelDocument) -> Bool {
            !mismatches(candidate, candidate.render(), configuration, absentKeys: absentKeys).isEmpty
        }
        var current = model
        var budget = 3_000
        var progress = true
        while progress && budget > 0 {
            progress = false
            for candidate in smaller(current) {
                budget -= 1
                if budget <= 0 { break }
                if fails(candidate) {
                    current = candidate
                    progress = true
                    break
                }
            }
        }
        return current
    }

    /// Every document one step smaller than `model`.
    private static func smaller(_ model: ModelDocument) -> [ModelDocument] {
        var result: [ModelDocument] = []
        if model.looseness > 0 {
            var candidate = model
            candidate.looseness = 0
            result.append(candidate)
        }
        if model.included?.isEmpty == true {
            var candidate = model
            candidate.included = nil
            result.append(candidate)
        }
        for index in model.primary.indices where model.kind == .many {
            var candidate = model
            candidate.primary.remove(at: index)
            result.append(candidate)
        }
        for index in (model.included ?? []).indices {
            var candidate = model
            candidate.included?.remove(at: index)
            result.append(candidate)
        }
        for index in model.primaryLinkage.indices {
            var candidate = model
            candidate.primaryLinkage.remove(at: index)
            result.append(candidate)
        }
        func relationshipSteps(_ resource: ModelResource) -> [ModelResource] {
            var steps: [ModelResource] = []
            for r in resource.relationships.indices {
                var without = resource
                without.relationships.remove(at: r)
                steps.append(without)
                if case .many(let identifiers) = resource.relationships[r].data {
                    for i in identifiers.indices {
                        var fewer = identifiers
                        fewer.remove(at: i)
                        var step = resource
                        step.relationships[r].data = .many(fewer)
                        steps.append(step)
                    }
                }
            }
            return steps
        }
        for index in model.primary.indices {
            for step in relationshipSteps(model.primary[index]) {
                var candidate = model
                candidate.primary[index] = step
                result.append(candidate)
            }
        }
        if let included = model.included {
            for index in included.indices {
                for step in relationshipSteps(included[index]) {
                    var candidate = model
                    candidate.included?[index] = step
                    result.append(candidate)
                }
            }
        }
        return result
    }

    /// Checks `model` every way; records an issue naming the first failing configuration, with
    /// the shrunk document and how to replay it.
    @discardableResult
    static func check(
        _ model: ModelDocument, absentKeys: [ResourceIdentifierKey], random: inout SplitMix64, replay: String,
        configurations: [ParseConfiguration]? = nil, sourceLocation: SourceLocation = #_sourceLocation
    ) -> Bool {
        let rendered = model.render()
        let list = configurations ?? Self.configurations(byteCount: rendered.bytes.count, random: &random)
        for configuration in list {
            let problems = mismatches(model, rendered, configuration, absentKeys: absentKeys)
            guard !problems.isEmpty else { continue }
            let shrunk = rendered.bytes.count > 200_000 ? model : shrink(model, configuration, absentKeys: absentKeys)
            let shrunkText = shrunk.render()
            let shrunkProblems = mismatches(shrunk, shrunkText, configuration, absentKeys: absentKeys)
            Issue.record(
                """
                The library disagrees with the reference model (\(configuration); \(replay)).
                \(shrunkProblems.prefix(20).joined(separator: "\n"))
                Document (shrunk from \(rendered.bytes.count) to \(shrunkText.bytes.count) bytes):
                \(shrunkText.displayText)
                As a Swift literal: \(shrunkText.displayText.debugDescription)
                """, sourceLocation: sourceLocation)
            return false
        }
        return true
    }
}
