import Foundation

@testable @_spi(Backend) import JSONAPI

/// What a reader sees of a document, reduced to lines that a ``ResourceStream`` and
/// `Document(parsing:)` must agree on: every resource and top-level part with its absolute
/// offset and pointer, every diagnostic, and the error (strict mode) that ends the parse.
struct StreamOutcome: Equatable, CustomStringConvertible {
    /// One line per part, in document order.
    var parts: [String] = []
    /// One line per diagnostic, sorted.
    var diagnostics: [String] = []
    /// The error that ended the parse.
    var failure: String?
    /// Its code and offset.
    var failureCode: JSONAPIError.Code?
    var failureOffset = -1
    /// The in-memory parse's errors when it failed (every one it found), as lines.
    var errorLines: Set<String> = []

    /// Whether a stream's outcome `self` agrees with `document`, the in-memory parse's: equal,
    /// or (strict mode) both failed, the document on a syntax error and the stream earlier on a
    /// rule. A stream reports the first error in the order it reads; the in-memory parser reads
    /// everything first and reports a syntax error before any rule.
    func agrees(withDocument document: StreamOutcome) -> Bool {
        if self == document { return true }
        guard let code = failureCode, let documentCode = document.failureCode, let failure else { return false }
        if documentCode.isSyntaxError { return !code.isSyntaxError && failureOffset < document.failureOffset }
        // Both failed on rules: the stream on one it found before the document's first.
        return document.errorLines.contains(failure)
    }

    var description: String {
        (["failure: \(failure ?? "none")"] + diagnostics.map { "diagnostic: \($0)" } + parts.map { "part: \($0)" })
            .joined(separator: "\n")
    }

    /// The first line where `self` and `other` differ, for a failure message.
    func firstDifference(from other: StreamOutcome) -> String {
        if failure != other.failure { return "failure: \(failure ?? "none") vs \(other.failure ?? "none")" }
        if diagnostics != other.diagnostics {
            return
                "diagnostics:\n  \(diagnostics.joined(separator: "\n  "))\nvs\n  \(other.diagnostics.joined(separator: "\n  "))"
        }
        for (a, b) in zip(parts, other.parts) where a != b {
            // From a little before the first character that differs.
            let same = zip(a, b).prefix { $0 == $1 }.count
            let from = max(0, same - 120)
            return "part:\n  …\(a.dropFirst(from).prefix(400))\nvs\n  …\(b.dropFirst(from).prefix(400))"
        }
        return "part counts \(parts.count) vs \(other.parts.count)"
    }

    static func line(_ resource: ResourceObject, section: String, index: Int, pointer: String) -> String {
        let relationships = resource.relationships.map { relationship in
            let identifiers = relationship.identifiers.map { identifier in
                "\(identifier.identifier) meta:\(identifier.meta?.jsonValue?.jsonString() ?? "-")"
            }
            return
                "\(relationship.name)\(relationship.isToMany ? "[]" : "") \(identifiers) links:\(relationship.links?.jsonValue.jsonString() ?? "-") meta:\(relationship.meta?.jsonValue?.jsonString() ?? "-")"
        }
        return
            "@\(resource.byteOffset) \(pointer) \(section) \(index) \(resource.identifier) included:\(resource.isIncluded) attributes:\(resource.attributes.jsonValue?.jsonString() ?? "-") links:\(resource.links?.jsonValue.jsonString() ?? "-") meta:\(resource.meta?.jsonValue?.jsonString() ?? "-") relationships:\(relationships) raw:\(resource.rawJSON.jsonString())"
    }

    /// A diagnostic's line. Unreachable included resources are decided when the input has
    /// ended, when a stream no longer has their bytes to count lines in: their line and column
    /// are left out of the comparison.
    static func line(_ diagnostic: Diagnostic) -> String {
        let place = diagnostic.code == .unreachableResource ? "" : " \(diagnostic.line):\(diagnostic.column)"
        return
            "\(diagnostic.severity) \(diagnostic.code) @\(diagnostic.offset) \(diagnostic.pointer)\(place) \(diagnostic.message)"
    }

    static func line(_ error: JSONAPIError) -> String {
        "\(error.code) @\(error.offset) \(error.pointer) \(error.line):\(error.column) \(error.message)"
    }

    /// The in-memory parse of `bytes`, with linkage resolution left out (a stream has none).
    init(document bytes: [UInt8], options: ParsingOptions) {
        do {
            let document = try Document(parsing: bytes, options: options)
            var parts: [(Int, String)] = []
            // Each resource's pointer and place from a walk of the whole document: an element
            // that is not a resource object (read on in lenient mode) keeps its place too.
            let resources =
                document.primaryResources.map { ($0, "primary") } + document.included.map { ($0, "included") }
            let places = bytes.withUnsafeBytes { SourceLocator.locate(offsets: resources.map(\.0.byteOffset), in: $0) }
            for ((resource, section), place) in zip(resources, places) {
                let index = place.pointer.split(separator: "/").last.flatMap { Int($0) } ?? 0
                parts.append(
                    (resource.byteOffset, Self.line(resource, section: section, index: index, pointer: place.pointer)))
            }
            if let meta = document.meta?.jsonValue {
                parts.append((meta.byteOffset, "meta \(meta.jsonString())"))
            }
            if let links = document.links?.jsonValue { parts.append((links.byteOffset, "links \(links.jsonString())")) }
            if let jsonapi = document.jsonapi?.jsonValue {
                parts.append((jsonapi.byteOffset, "jsonapi \(jsonapi.jsonString())"))
            }
            for (index, error) in document.errors.enumerated() {
                parts.append((error.jsonValue.byteOffset, "error \(index) \(error.jsonValue.jsonString())"))
            }
            for member in document.extensionMembers {
                parts.append((member.value.byteOffset, "member \(member.name) \(member.value.jsonString())"))
            }
            self.parts = parts.sorted { $0.0 < $1.0 }.map(\.1)
            diagnostics = document.diagnostics.map(Self.line).sorted()
        } catch {
            failure = Self.line(error)
            failureCode = error.code
            failureOffset = error.offset
            errorLines = Set(
                error.diagnostics.filter { $0.severity == .error }.map {
                    Self.line(
                        JSONAPIError(
                            $0.code, $0.message, offset: $0.offset, line: $0.line, column: $0.column,
                            pointer: $0.pointer))
                })
        }
    }

    /// `bytes` through a ``ResourceStream``, fed in chunks of the sizes `chunks` cycles through
    /// (the whole input at once when empty).
    init(stream bytes: [UInt8], options: ResourceStream.Options, chunks: [Int] = [], useFileDescriptor: Bool = false) {
        var parts: [(Int, String)] = []
        func take(_ part: StreamPart) {
            switch part {
            case .resource(let resource):
                parts.append(
                    (
                        resource.offset,
                        Self.line(
                            resource.object, section: resource.section.rawValue, index: resource.index,
                            pointer: resource.pointer)
                    ))
            case .meta(let meta):
                let value = meta.jsonValue
                parts.append((value?.byteOffset ?? -1, "meta \(value?.jsonString() ?? "-")"))
            case .links(let links): parts.append((links.jsonValue.byteOffset, "links \(links.jsonValue.jsonString())"))
            case .jsonapi(let info): parts.append((info.jsonValue.byteOffset, "jsonapi \(info.jsonValue.jsonString())"))
            case .error(let error, let index):
                parts.append((error.jsonValue.byteOffset, "error \(index) \(error.jsonValue.jsonString())"))
            case .member(let name, let value): parts.append((value.byteOffset, "member \(name) \(value.jsonString())"))
            }
        }
        var stream: ResourceStream
        do {
            stream = try ResourceStream(options: options)
        } catch {
            failure = "options: \(error)"
            return
        }
        do {
            var offset = 0
            var turn = 0
            while offset < bytes.count {
                let size = chunks.isEmpty ? bytes.count : max(1, chunks[turn % chunks.count])
                turn += 1
                let end = min(bytes.count, offset + size)
                try bytes[offset..<end].withUnsafeBytes { try stream.feed($0) }
                offset = end
                while let part = try stream.next() { take(part) }
            }
            try stream.finish()
            while let part = try stream.next() { take(part) }
            self.parts = parts.sorted { $0.0 < $1.0 }.map(\.1)
            diagnostics = stream.diagnostics.map(Self.line).sorted()
        } catch let error as JSONAPIError {
            failure = Self.line(error)
            failureCode = error.code
            failureOffset = error.offset
        } catch {
            failure = "\(error)"
        }
    }
}
