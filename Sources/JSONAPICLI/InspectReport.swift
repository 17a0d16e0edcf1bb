import JSONAPI

/// Everything `jsonapi inspect` reports about one parsed document.
struct InspectReport {
    /// Resources of one type, by section.
    struct TypeCount {
        var name: String
        var primary = 0
        var included = 0
    }

    var file: String
    var options: ParsingOptions
    var statistics: Document.Statistics
    var primaryShape: String
    var topLevelMembers: [String]
    var types: [TypeCount] = []
    var toOneRelationships = 0
    var toManyRelationships = 0
    var relationshipsWithoutData = 0
    /// A few identifiers whose resource is not in the document, as `people/9 (articles/1 → author)`.
    var unresolvedExamples: [String] = []
    var unreachablePointers: [String] = []
    var unreachableCount = 0
    var diagnostics: [Diagnostic]
    var timings: Timings
    var residentBeforeReading: Int
    var residentAfterParsing: Int
    var comparison: FoundationComparison?

    static let exampleLimit = 10

    init(file: String, document: Document, timings: Timings, residentBeforeReading: Int, residentAfterParsing: Int) {
        self.file = file
        self.options = document.options
        self.statistics = document.statistics
        self.diagnostics = document.diagnostics
        self.timings = timings
        self.residentBeforeReading = residentBeforeReading
        self.residentAfterParsing = residentAfterParsing

        switch document.primary {
        case .absent: primaryShape = "absent"
        case .null: primaryShape = "null"
        case .one: primaryShape = "one resource"
        case .many: primaryShape = "array of resources"
        case .identifier: primaryShape = "one identifier"
        case .identifiers: primaryShape = "array of identifiers"
        }
        var members: [String] = []
        if let jsonapi = document.jsonapi { members.append("jsonapi" + (jsonapi.version.map { " \($0)" } ?? "")) }
        if document.links != nil { members.append("links") }
        if document.meta != nil { members.append("meta") }
        members += document.extensionMembers.map(\.name)
        topLevelMembers = members

        countResources(of: document)
        for diagnostic in diagnostics where diagnostic.code == .unreachableResource {
            unreachableCount += 1
            if unreachablePointers.count < Self.exampleLimit { unreachablePointers.append(diagnostic.pointer) }
        }
    }

    /// One pass over every resource: counts by type and relationship shape, and collects a few
    /// unresolved identifiers (only when the statistics say there are any).
    private mutating func countResources(of document: Document) {
        var positions: [String: Int] = [:]
        for (position, name) in document.types.enumerated() {
            positions[name] = position
            types.append(TypeCount(name: name))
        }
        let wantsExamples = statistics.resolvedLinkageCount < statistics.linkageCount
        for identifier in document.primaryIdentifiers where wantsExamples && identifier.resource == nil {
            if unresolvedExamples.count < Self.exampleLimit {
                unresolvedExamples.append("\(identifier.identifier) (data)")
            }
        }
        for resource in document.allResources {
            let type = resource.type
            let position: Int
            if let known = positions[type] {
                position = known
            } else {
                position = types.count
                positions[type] = position
                types.append(TypeCount(name: type))
            }
            if resource.isIncluded { types[position].included += 1 } else { types[position].primary += 1 }

            for relationship in resource.relationships {
                if relationship.isToMany {
                    toManyRelationships += 1
                } else if case .absent = relationship.linkage {
                    relationshipsWithoutData += 1
                } else {
                    toOneRelationships += 1
                }
                guard wantsExamples && unresolvedExamples.count < Self.exampleLimit else { continue }
                for identifier in relationship.identifiers where identifier.resource == nil {
                    guard unresolvedExamples.count < Self.exampleLimit else { break }
                    unresolvedExamples.append(
                        "\(identifier.identifier) (\(resource.identifier) → \(relationship.name))")
                }
            }
        }
    }

    var isValid: Bool { !diagnostics.contains { $0.severity == .error } }

    var unresolvedCount: Int { statistics.linkageCount - statistics.resolvedLinkageCount }

    var inputBytes: Int { statistics.inputByteCount }

    private func ratio(_ bytes: Int) -> Double { inputBytes > 0 ? Double(bytes) / Double(inputBytes) : 0 }

    private var modeDescription: String {
        "kind \(DocumentKind.named(options.kind).rawValue), \(options.isLenient ? "lenient" : "strict"), backend \(options.backend.name)"
    }

    // MARK: - Text

    var text: String {
        var lines: [String] = []
        func row(_ label: String, _ value: String) {
            lines.append("  " + label.padding(to: 18) + value)
        }
        let errors = diagnostics.count { $0.severity == .error }
        let warnings = diagnostics.count - errors

        lines.append(file)
        row("input", "\(inputBytes.grouped) bytes (\(inputBytes.bytesFormatted))")
        row("options", modeDescription)
        row("verdict", (isValid ? "valid" : "invalid") + ", \(errors) errors, \(warnings) warnings")
        for diagnostic in diagnostics.prefix(20) { lines.append("    " + diagnostic.formatted(file: file)) }
        if diagnostics.count > 20 {
            lines.append("    … \(diagnostics.count - 20) more diagnostics (--json lists all)")
        }

        lines.append("sections")
        row("data", "\(primaryShape): \(statistics.primaryCount.grouped)")
        row("included", "\(statistics.includedCount.grouped) resources")
        row("errors", "\(statistics.errorCount.grouped) error objects")
        row("top level", topLevelMembers.isEmpty ? "-" : topLevelMembers.joined(separator: ", "))

        lines.append("types (primary + included)")
        for type in types {
            let note = type.primary + type.included == 0 ? "  (in linkage only)" : ""
            row(type.name, "\(type.primary.grouped) + \(type.included.grouped)\(note)")
        }

        lines.append("relationships")
        row(
            "relationships",
            "\(statistics.relationshipCount.grouped): to-one \(toOneRelationships.grouped), "
                + "to-many \(toManyRelationships.grouped), without data \(relationshipsWithoutData.grouped)")
        row(
            "linkage",
            "\(statistics.linkageCount.grouped) identifiers: \(statistics.resolvedLinkageCount.grouped) resolved, "
                + "\(unresolvedCount.grouped) unresolved")
        for example in unresolvedExamples { lines.append("    unresolved " + example) }
        if unresolvedCount > unresolvedExamples.count {
            lines.append("    … \((unresolvedCount - unresolvedExamples.count).grouped) more unresolved")
        }
        row("unreachable", "\(unreachableCount.grouped) included resources not reachable from primary data")
        for pointer in unreachablePointers { lines.append("    unreachable \(pointer)") }

        lines.append("cost")
        let arena = statistics.arenaByteCount
        row("arena", "\(arena.grouped) bytes (\(arena.bytesFormatted)) = \(ratio(arena).fixed(3))x input")
        let medianRate = megabytesPerSecond(bytes: inputBytes, in: timings.median)
        let bestRate = megabytesPerSecond(bytes: inputBytes, in: timings.best)
        let runs = timings.runs.count == 1 ? "1 run" : "median of \(timings.runs.count) runs"
        row(
            "parse",
            "\(timings.median.formatted) (\(runs); best \(timings.best.formatted)) = "
                + "\(medianRate.fixed(1)) MB/s median, \(bestRate.fixed(1)) MB/s best")
        row(
            "peak RSS",
            "\(residentAfterParsing.bytesFormatted) = \(ratio(residentAfterParsing).fixed(2))x input "
                + "(\(residentBeforeReading.bytesFormatted) before reading the input)")
        if let comparison { lines += comparison.textLines }
        return lines.joined(separator: "\n")
    }

    // MARK: - JSON

    var json: ReportValue {
        var members: [(String, ReportValue)] = [
            ("file", .string(file)),
            ("inputBytes", .integer(inputBytes)),
            ("kind", .string(DocumentKind.named(options.kind).rawValue)),
            ("lenient", .bool(options.isLenient)),
            ("backend", .string(options.backend.name)),
            ("valid", .bool(isValid)),
            ("diagnostics", .array(diagnostics.map(\.report))),
            (
                "sections",
                .object([
                    ("primaryShape", .string(primaryShape)),
                    ("primary", .integer(statistics.primaryCount)),
                    ("included", .integer(statistics.includedCount)),
                    ("errors", .integer(statistics.errorCount)),
                    ("topLevelMembers", .array(topLevelMembers.map(ReportValue.string))),
                ])
            ),
            (
                "types",
                .array(
                    types.map {
                        .object([
                            ("type", .string($0.name)), ("primary", .integer($0.primary)),
                            ("included", .integer($0.included)),
                        ])
                    })
            ),
            (
                "relationships",
                .object([
                    ("total", .integer(statistics.relationshipCount)),
                    ("toOne", .integer(toOneRelationships)),
                    ("toMany", .integer(toManyRelationships)),
                    ("withoutData", .integer(relationshipsWithoutData)),
                ])
            ),
            (
                "linkage",
                .object([
                    ("total", .integer(statistics.linkageCount)),
                    ("resolved", .integer(statistics.resolvedLinkageCount)),
                    ("unresolved", .integer(unresolvedCount)),
                    ("unresolvedExamples", .array(unresolvedExamples.map(ReportValue.string))),
                ])
            ),
            (
                "unreachableIncluded",
                .object([
                    ("count", .integer(unreachableCount)),
                    ("pointers", .array(unreachablePointers.map(ReportValue.string))),
                ])
            ),
            (
                "arena",
                .object([
                    ("bytes", .integer(statistics.arenaByteCount)),
                    ("ratioToInput", .number(ratio(statistics.arenaByteCount), places: 4)),
                ])
            ),
            (
                "parse",
                .object([
                    ("runs", .integer(timings.runs.count)),
                    ("medianSeconds", .number(timings.median.value, places: 6)),
                    ("bestSeconds", .number(timings.best.value, places: 6)),
                    (
                        "medianMegabytesPerSecond",
                        .number(megabytesPerSecond(bytes: inputBytes, in: timings.median), places: 2)
                    ),
                    (
                        "bestMegabytesPerSecond",
                        .number(megabytesPerSecond(bytes: inputBytes, in: timings.best), places: 2)
                    ),
                ])
            ),
            (
                "memory",
                .object([
                    ("peakResidentBytes", .integer(residentAfterParsing)),
                    ("peakResidentKiB", .integer(residentAfterParsing / 1024)),
                    ("ratioToInput", .number(ratio(residentAfterParsing), places: 3)),
                    ("residentBeforeReadingBytes", .integer(residentBeforeReading)),
                ])
            ),
        ]
        if let comparison { members.append(("foundation", comparison.json)) }
        return .object(members)
    }
}

extension String {
    /// The string followed by spaces up to `width` characters (never truncated).
    func padding(to width: Int) -> String {
        count >= width ? self + " " : self + String(repeating: " ", count: width - count)
    }
}
