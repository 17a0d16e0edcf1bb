import JSONAPI

/// What `jsonapi inspect` reports about a document read through the resource stream: what one
/// pass can count without the whole document in memory, the pass's cost and the stream's
/// memory figures.
struct StreamInspectReport {
    var file: String
    var options: ParsingOptions
    var primary = 0
    var singlePrimary = false
    var included = 0
    var errorObjects = 0
    var topLevelMembers: [String] = []
    var types: [InspectReport.TypeCount] = []
    private var typePositions: [String: Int] = [:]
    var relationships = 0
    var toOneRelationships = 0
    var toManyRelationships = 0
    var relationshipsWithoutData = 0
    /// Resource identifier objects in relationships.
    var linkage = 0
    var diagnostics: [Diagnostic] = []
    var failure: JSONAPIError?
    var bytes = 0
    var elapsed = Seconds(0)
    /// The stream's statistics at the end (`ResourceStream.Statistics` has no public
    /// initializer, so the report starts without them).
    var statistics: ResourceStream.Statistics?
    var residentBeforeReading = 0
    var residentAfterParsing = 0

    init(file: String, options: ParsingOptions) {
        self.file = file
        self.options = options
    }

    /// Counts one part.
    mutating func add(_ part: StreamPart) {
        switch part {
        case .resource(let resource):
            let object = resource.object
            let type = object.type
            let position: Int
            if let known = typePositions[type] {
                position = known
            } else {
                position = types.count
                typePositions[type] = position
                types.append(InspectReport.TypeCount(name: type))
            }
            switch resource.section {
            case .primary:
                primary += 1
                types[position].primary += 1
                if resource.pointer == "/data" { singlePrimary = true }
            case .included:
                included += 1
                types[position].included += 1
            }
            for relationship in object.relationships {
                relationships += 1
                switch relationship.linkage {
                case .absent: relationshipsWithoutData += 1
                case .null: toOneRelationships += 1
                case .one:
                    toOneRelationships += 1
                    linkage += 1
                case .many(let identifiers):
                    toManyRelationships += 1
                    linkage += identifiers.count
                }
            }
        case .meta: topLevelMembers.append("meta")
        case .links: topLevelMembers.append("links")
        case .jsonapi(let info): topLevelMembers.append("jsonapi" + (info.version.map { " \($0)" } ?? ""))
        case .error: errorObjects += 1
        case .member(let name, _): topLevelMembers.append(name)
        }
    }

    /// A figure of the stream's statistics, 0 before they are known.
    private func stream(_ figure: KeyPath<ResourceStream.Statistics, Int>) -> Int {
        statistics?[keyPath: figure] ?? 0
    }

    var isValid: Bool { failure == nil && !diagnostics.contains { $0.severity == .error } }

    var unreachable: [Diagnostic] { diagnostics.filter { $0.code == .unreachableResource } }

    private var rate: Double { megabytesPerSecond(bytes: bytes, in: elapsed) }

    private func ratio(_ value: Int) -> Double { bytes > 0 ? Double(value) / Double(bytes) : 0 }

    private var primaryShape: String {
        singlePrimary ? "one resource" : primary > 0 ? "array of resources" : "no resources"
    }

    // MARK: - Text

    var text: String {
        var lines: [String] = []
        func row(_ label: String, _ value: String) {
            lines.append("  " + label.padding(to: 18) + value)
        }
        let errors = diagnostics.count { $0.severity == .error }
        let warnings = diagnostics.count - errors

        lines.append("\(file) (streaming pass: one read of the input, memory bounded by the largest resource)")
        row("input", "\(bytes.grouped) bytes (\(bytes.bytesFormatted))")
        row(
            "options",
            "kind \(DocumentKind.named(options.kind).rawValue), \(options.isLenient ? "lenient" : "strict"), "
                + "backend \(options.backend.name)")
        row("verdict", (isValid ? "valid" : "invalid") + ", \(errors) errors, \(warnings) warnings")
        for diagnostic in diagnostics.prefix(20) { lines.append("    " + diagnostic.formatted(file: file)) }
        if diagnostics.count > 20 {
            lines.append("    … \(diagnostics.count - 20) more diagnostics (--json lists all)")
        }

        lines.append("sections")
        row("data", "\(primaryShape): \(primary.grouped)")
        row("included", "\(included.grouped) resources")
        row("errors", "\(errorObjects.grouped) error objects")
        row("top level", topLevelMembers.isEmpty ? "-" : topLevelMembers.joined(separator: ", "))

        lines.append("types (primary + included)")
        for type in types { row(type.name, "\(type.primary.grouped) + \(type.included.grouped)") }

        lines.append("relationships")
        row(
            "relationships",
            "\(relationships.grouped): to-one \(toOneRelationships.grouped), "
                + "to-many \(toManyRelationships.grouped), without data \(relationshipsWithoutData.grouped)")
        row("linkage", "\(linkage.grouped) identifiers (a stream does not resolve linkage)")
        row("unreachable", "\(unreachable.count.grouped) included resources not reachable from primary data")
        for diagnostic in unreachable.prefix(InspectReport.exampleLimit) {
            lines.append("    unreachable \(diagnostic.pointer)")
        }

        lines.append("cost (streaming pass)")
        row("pass", "\(elapsed.formatted) (read and parse, 1 run) = \(rate.fixed(1)) MB/s")
        row(
            "window",
            "\(stream(\.windowCapacity).grouped) bytes capacity, \(stream(\.slides).grouped) slides, "
                + "\(stream(\.rescannedBytes).grouped) bytes scanned twice")
        row(
            "identity index",
            "\(stream(\.identityIndexBytes).grouped) bytes (\(stream(\.identityIndexBytes).bytesFormatted)), "
                + "\(stream(\.identityKeys).grouped) keys, \(stream(\.deferredResources).grouped) deferred resources")
        row(
            "peak RSS",
            "\(residentAfterParsing.bytesFormatted) = \(ratio(residentAfterParsing).fixed(3))x input "
                + "(\(residentBeforeReading.bytesFormatted) before reading the input)")
        return lines.joined(separator: "\n")
    }

    // MARK: - JSON

    var json: ReportValue {
        .object([
            ("file", .string(file)),
            ("streaming", .bool(true)),
            ("inputBytes", .integer(bytes)),
            ("kind", .string(DocumentKind.named(options.kind).rawValue)),
            ("lenient", .bool(options.isLenient)),
            ("backend", .string(options.backend.name)),
            ("valid", .bool(isValid)),
            ("diagnostics", .array(diagnostics.map(\.report))),
            (
                "sections",
                .object([
                    ("primaryShape", .string(primaryShape)),
                    ("primary", .integer(primary)),
                    ("included", .integer(included)),
                    ("errors", .integer(errorObjects)),
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
                    ("total", .integer(relationships)),
                    ("toOne", .integer(toOneRelationships)),
                    ("toMany", .integer(toManyRelationships)),
                    ("withoutData", .integer(relationshipsWithoutData)),
                ])
            ),
            ("linkage", .object([("total", .integer(linkage))])),
            (
                "unreachableIncluded",
                .object([
                    ("count", .integer(unreachable.count)),
                    (
                        "pointers",
                        .array(unreachable.prefix(InspectReport.exampleLimit).map { .string($0.pointer) })
                    ),
                ])
            ),
            (
                "pass",
                .object([
                    ("seconds", .number(elapsed.value, places: 6)),
                    ("megabytesPerSecond", .number(rate, places: 2)),
                ])
            ),
            (
                "stream",
                .object([
                    ("slides", .integer(stream(\.slides))),
                    ("rescannedBytes", .integer(stream(\.rescannedBytes))),
                    ("windowCapacity", .integer(stream(\.windowCapacity))),
                    ("identityKeys", .integer(stream(\.identityKeys))),
                    ("identityIndexBytes", .integer(stream(\.identityIndexBytes))),
                    ("deferredResources", .integer(stream(\.deferredResources))),
                ])
            ),
            (
                "memory",
                .object([
                    ("peakResidentBytes", .integer(residentAfterParsing)),
                    ("peakResidentKiB", .integer(residentAfterParsing / 1024)),
                    ("ratioToInput", .number(ratio(residentAfterParsing), places: 4)),
                    ("residentBeforeReadingBytes", .integer(residentBeforeReading)),
                ])
            ),
        ])
    }
}
