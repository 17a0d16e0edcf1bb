import Foundation
import JSONAPI
import Testing

/// A structural comparison of two parsed documents through their views: what a reader of the
/// document can see must be the same in both.
enum DocumentEquivalence {
    /// The differences between `a` and `b`, empty when they are the same document. With
    /// `ordered`, object members must also come in the same order.
    static func differences(_ a: Document, _ b: Document, ordered: Bool) -> [String] {
        var problems: [String] = []
        func check(_ condition: Bool, _ what: @autoclosure () -> String) {
            if !condition { problems.append(what()) }
        }
        func same(_ x: JSONValue?, _ y: JSONValue?, _ what: String) {
            switch (x, y) {
            case (nil, nil): break
            case (let x?, let y?): check(x.isEquivalent(to: y, ignoringMemberOrder: !ordered), "\(what) differs")
            default: problems.append("\(what) present in only one")
            }
        }
        func identifiers(_ list: [ResourceIdentifierObject]) -> [String] {
            list.map { "\($0.identifier) meta:\($0.meta?.jsonValue?.jsonString() ?? "-")" }
        }
        func sameResource(_ x: ResourceObject, _ y: ResourceObject, _ what: String) {
            check(x.identifier == y.identifier, "\(what): identifier \(x.identifier) vs \(y.identifier)")
            same(x.attributes.jsonValue, y.attributes.jsonValue, "\(what) attributes")
            same(x.links?.jsonValue, y.links?.jsonValue, "\(what) links")
            same(x.meta?.jsonValue, y.meta?.jsonValue, "\(what) meta")
            same(x.rawJSON, y.rawJSON, "\(what) object")
            var xRelationships = x.relationships
            var yRelationships = y.relationships
            if !ordered {
                xRelationships.sort { $0.name < $1.name }
                yRelationships.sort { $0.name < $1.name }
            }
            check(
                xRelationships.map(\.name) == yRelationships.map(\.name),
                "\(what) relationship names \(xRelationships.map(\.name)) vs \(yRelationships.map(\.name))")
            for (r, s) in zip(xRelationships, yRelationships) {
                let where_ = "\(what) relationship \(r.name)"
                check(r.isToMany == s.isToMany, "\(where_) shape")
                check(identifiers(r.identifiers) == identifiers(s.identifiers), "\(where_) linkage")
                check(
                    r.resolvedResources.map(\.identifier) == s.resolvedResources.map(\.identifier),
                    "\(where_) resolved resources")
                same(r.links?.jsonValue, s.links?.jsonValue, "\(where_) links")
                same(r.meta?.jsonValue, s.meta?.jsonValue, "\(where_) meta")
            }
        }
        func sameResources(_ x: ResourceCollection, _ y: ResourceCollection, _ what: String) {
            check(x.count == y.count, "\(what) count \(x.count) vs \(y.count)")
            for (index, (r, s)) in zip(x, y).enumerated() { sameResource(r, s, "\(what)[\(index)]") }
        }

        switch (a.primary, b.primary) {
        case (.absent, .absent), (.null, .null): break
        case (.one(let x), .one(let y)): sameResource(x, y, "data")
        case (.many(let x), .many(let y)): sameResources(x, y, "data")
        case (.identifier(let x), .identifier(let y)): check(identifiers([x]) == identifiers([y]), "data identifier")
        case (.identifiers(let x), .identifiers(let y)): check(identifiers(x) == identifiers(y), "data identifiers")
        default: problems.append("primary data has a different shape")
        }
        check(a.hasIncluded == b.hasIncluded, "included presence")
        sameResources(a.included, b.included, "included")
        check(a.hasErrors == b.hasErrors, "errors presence")
        check(a.errors.count == b.errors.count, "error count")
        for (index, (x, y)) in zip(a.errors, b.errors).enumerated() {
            same(x.jsonValue, y.jsonValue, "errors[\(index)]")
            check(x.description == y.description && x.source == y.source, "errors[\(index)] fields")
        }
        same(a.meta?.jsonValue, b.meta?.jsonValue, "meta")
        same(a.links?.jsonValue, b.links?.jsonValue, "links")
        check(a.links?.names == b.links?.names || !ordered, "link names")
        same(a.jsonapi.map { $0.jsonValue(in: a) } ?? nil, b.jsonapi.map { $0.jsonValue(in: b) } ?? nil, "jsonapi")
        var xMembers = a.extensionMembers
        var yMembers = b.extensionMembers
        if !ordered {
            xMembers.sort { $0.name < $1.name }
            yMembers.sort { $0.name < $1.name }
        }
        check(xMembers.map(\.name) == yMembers.map(\.name), "extension member names")
        for (x, y) in zip(xMembers, yMembers) { same(x.value, y.value, "extension member \(x.name)") }
        check(a.types.sorted() == b.types.sorted(), "types")
        check(a.statistics.resourceCount == b.statistics.resourceCount, "resource count")
        check(a.statistics.resolvedLinkageCount == b.statistics.resolvedLinkageCount, "resolved linkage count")
        check(
            a.diagnostics.map { "\($0.severity) \($0.code) \($0.pointer)" }
                == b.diagnostics.map { "\($0.severity) \($0.code) \($0.pointer)" } || !ordered,
            "diagnostics")
        same(a.jsonValue, b.jsonValue, "whole document")
        return problems
    }

    /// Runs `python3 -m json.tool` on each file; returns the files it rejected, or nil when
    /// python3 is not available.
    static func rejectedByPythonJSONTool(_ files: [URL]) -> [String]? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/usr/local/bin"
        let python = path.split(separator: ":").map { $0 + "/python3" }.first {
            FileManager.default.isExecutableFile(atPath: $0)
        }
        guard let python else { return nil }
        var rejected: [String] = []
        for chunk in stride(from: 0, to: files.count, by: 200).map({ Array(files[$0..<min($0 + 200, files.count)]) }) {
            // One interpreter for many files: json.tool's own entry point, once per file.
            let script = """
                import sys, json.tool
                for path in sys.argv[1:]:
                    sys.argv = ["json.tool", path, "/dev/null"]
                    try:
                        json.tool.main()
                    except SystemExit as exit:
                        if exit.code not in (0, None):
                            print(path)
                """
            let process = Process()
            process.executableURL = URL(fileURLWithPath: python)
            process.arguments = ["-c", script] + chunk.map(\.path)
            let output = Pipe()
            process.standardOutput = output
            process.standardError = FileHandle.nullDevice
            do { try process.run() } catch { return nil }
            let data = output.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            rejected += String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
            if process.terminationStatus != 0 { rejected.append("python3 exited with \(process.terminationStatus)") }
        }
        return rejected
    }
}

extension ImplementationInfo {
    /// The object as a plain value, found again in its document.
    fileprivate func jsonValue(in document: Document) -> JSONValue? { document.jsonValue["jsonapi"] }
}
