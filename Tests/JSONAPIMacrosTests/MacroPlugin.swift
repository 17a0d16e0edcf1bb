import Foundation
import Testing

/// Expands `@ResourceReadable` as the compiler does: through the macro plugin the build made for
/// the compiler (`JSONAPIMacrosPlugin-tool`, beside the test bundle), over the compiler's plugin
/// protocol (JSON messages on standard input and output, each after its length as 8 bytes,
/// little-endian). The expansions tested are the plugin's own, and the tests need no swift-syntax
/// of their own: a test build compiles swift-syntax once, for the plugin.
enum MacroPlugin {
    /// A diagnostic the macro reported, with its line and column (1-based, UTF-8) in the source.
    struct Diagnostic: Equatable, CustomStringConvertible {
        var message: String
        var line: Int
        var column: Int
        var description: String { "\(line):\(column): \(message)" }
    }

    /// The extensions the macro wrote, each as the plugin formatted it, and its diagnostics.
    struct Expansion {
        var extensions: [String]
        var diagnostics: [Diagnostic]
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// The plugin executable, or nil when the build has not made it.
    static let executable: URL? = {
        var directories = [URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()]
        // macOS runs tests inside a bundle (`….xctest/Contents/MacOS/…`); the products sit beside it.
        for bundle in Bundle.allBundles where bundle.bundlePath.hasSuffix(".xctest") {
            directories.append(bundle.bundleURL.deletingLastPathComponent())
        }
        return directories.map { $0.appendingPathComponent("JSONAPIMacrosPlugin-tool") }
            .first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }()

    /// Expands the macro attached to the declaration `source` (which starts with the attribute),
    /// extending `type` with the conformances the compiler would pass: those of the macro's list
    /// the type does not declare (none is passed as no list).
    static func expand(_ source: String, type: String, conformances: [String]) throws -> Expansion {
        guard let executable else {
            throw Failure(
                description: "no JSONAPIMacrosPlugin-tool beside the test bundle: build with --enable-all-traits")
        }
        func syntax(_ kind: String, _ text: String) -> [String: Any] {
            let location: [String: Any] = [
                "fileID": "JSONAPIMacrosTests/Expanded.swift", "fileName": "Expanded.swift", "offset": 0, "line": 1,
                "column": 1,
            ]
            return ["kind": kind, "source": text, "location": location]
        }
        var expansion: [String: Any] = [
            "macro": [
                "moduleName": "JSONAPIMacrosPlugin", "typeName": "ResourceReadableMacro", "name": "ResourceReadable",
            ],
            "macroRole": "extension",
            "discriminator": "$s8Expanded16ResourceReadablefMe_",
            "attributeSyntax": syntax("attribute", "@ResourceReadable"),
            "declSyntax": syntax("declaration", source),
            "extendedTypeSyntax": syntax("type", type),
        ]
        if !conformances.isEmpty {
            // The compiler sends the conformances as the inheritance clause of a placeholder struct.
            expansion["conformanceListSyntax"] = syntax(
                "declaration", "struct __: \(conformances.joined(separator: ", ")) {}")
        }
        let request = try JSONSerialization.data(withJSONObject: ["expandAttachedMacro": expansion])
        let reply = try exchange(request, with: executable)
        guard let object = try JSONSerialization.jsonObject(with: reply) as? [String: Any],
            let result = object["expandAttachedMacroResult"] as? [String: Any]
        else {
            throw Failure(description: "unexpected reply: \(String(decoding: reply, as: UTF8.self))")
        }
        let lines = LineTable(source)
        let diagnostics = (result["diagnostics"] as? [[String: Any]] ?? []).map { item in
            let offset = (item["position"] as? [String: Any])?["offset"] as? Int ?? -1
            let (line, column) = lines.place(offset)
            return Diagnostic(message: item["message"] as? String ?? "", line: line, column: column)
        }
        return Expansion(extensions: result["expandedSources"] as? [String] ?? [], diagnostics: diagnostics)
    }

    /// Sends one message to a new plugin process and reads its one reply; the plugin ends when
    /// its input closes.
    static func exchange(_ message: Data, with executable: URL) throws -> Data {
        let process = Process()
        process.executableURL = executable
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        var header = UInt64(message.count).littleEndian
        input.fileHandleForWriting.write(Data(bytes: &header, count: 8))
        input.fileHandleForWriting.write(message)
        try input.fileHandleForWriting.close()
        let reply = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard reply.count >= 8 else {
            throw Failure(description: "the plugin replied \(reply.count) bytes, exit \(process.terminationStatus)")
        }
        let length = reply.prefix(8).enumerated().reduce(0) { $0 | Int($1.element) << (8 * $1.offset) }
        guard reply.count == 8 + length else {
            throw Failure(description: "the plugin's reply is \(reply.count - 8) bytes, its header says \(length)")
        }
        return reply.dropFirst(8)
    }

    /// Line and column (1-based, UTF-8) of a byte offset in a text.
    struct LineTable {
        var starts: [Int] = [0]
        init(_ text: String) {
            for (offset, byte) in text.utf8.enumerated() where byte == UInt8(ascii: "\n") { starts.append(offset + 1) }
        }
        func place(_ offset: Int) -> (line: Int, column: Int) {
            let line = starts.lastIndex { $0 <= offset } ?? 0
            return (line + 1, offset - starts[line] + 1)
        }
    }
}

/// A diagnostic a test expects, where the source puts it.
struct DiagnosticSpec {
    var message: String
    var line: Int
    var column: Int
}

/// Checks the file the compiler would compile after expanding `@ResourceReadable` on `source`
/// (whose first line is the attribute): the declaration without the attribute, then each
/// extension the macro wrote, a blank line apart; and the diagnostics, in order.
func assertExpansion(
    _ source: String, _ expanded: String, diagnostics: [DiagnosticSpec] = [], conformances: [String],
    sourceLocation: SourceLocation = #_sourceLocation
) {
    let attribute = "@ResourceReadable\n"
    guard source.hasPrefix(attribute),
        let name = source.firstMatch(of: /(?:struct|enum|class|actor)\s+(\w+)/)?.output.1
    else {
        Issue.record("the source must start with \(attribute) on a line of its own", sourceLocation: sourceLocation)
        return
    }
    let expansion: MacroPlugin.Expansion
    do {
        expansion = try MacroPlugin.expand(source, type: String(name), conformances: conformances)
    } catch {
        Issue.record("\(error)", sourceLocation: sourceLocation)
        return
    }
    func trimmed(_ text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false)
            .map { line in String(line.reversed().drop { $0 == " " }.reversed()) }
            .joined(separator: "\n").trimmingCharacters(in: .whitespacesAndNewlines)
    }
    let file = ([String(source.dropFirst(attribute.count))] + expansion.extensions).map(trimmed)
        .joined(separator: "\n\n")
    #expect(file == trimmed(expanded), sourceLocation: sourceLocation)
    let expected = diagnostics.map { MacroPlugin.Diagnostic(message: $0.message, line: $0.line, column: $0.column) }
    #expect(expansion.diagnostics == expected, sourceLocation: sourceLocation)
}
