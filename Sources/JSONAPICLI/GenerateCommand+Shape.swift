import JSONAPI
import JSONAPIGenerator

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension GenerateCommand {
    /// `generate --shape`: a document of ``CorpusDocumentGenerator``, written whole (documents of
    /// this generator are held in memory), then verified when asked.
    func runShape(_ shape: CorpusShape) throws {
        let generator =
            if let resources {
                CorpusDocumentGenerator(shape: shape, primaryCount: resources, seed: seed)
            } else {
                CorpusDocumentGenerator(shape: shape, approximateBytes: approximateBytes ?? 0, seed: seed)
            }
        let bytes = generator.generate()
        if let output {
            let temporary = "\(output).partial-\(getpid())"
            do {
                let file = try FileDescriptor.create(temporary)
                do {
                    defer { file.close() }
                    try bytes.withUnsafeBytes { try file.write($0, name: temporary) }
                }
                guard rename(temporary, output) == 0 else {
                    throw IOFailure("cannot rename \(temporary) to \(output)", errno: errno)
                }
            } catch let failure as IOFailure {
                _ = unlink(temporary)
                Console.standardError.line("jsonapi: error: \(failure)")
                throw ExitStatus.usageOrIOError
            }
            Console.standardError.line(
                "jsonapi: wrote \(bytes.count.grouped) bytes (shape \(shape), \(generator.primaryCount.grouped) "
                    + "primary, \(generator.includedCount.grouped) included; seed \(seed)) to \(output)")
        } else if !verify {
            do {
                try bytes.withUnsafeBytes { try FileDescriptor.standardOutput.write($0, name: "standard output") }
            } catch {
                Console.standardError.line("jsonapi: error: \(error)")
                throw ExitStatus.usageOrIOError
            }
        }
        if verify { try Self.verify(bytes, generator: generator) }
    }

    /// Builds a ``CorpusDocumentGenerator`` document in strict mode and checks its counts and
    /// that every linkage identifier resolves to a resource with its type and id.
    ///
    /// - Throws: ``ExitStatus/invalid`` when the document does not build or a check fails.
    static func verify(_ bytes: [UInt8], generator: CorpusDocumentGenerator) throws {
        let document: Document
        do {
            document = try Document(parsing: bytes)
        } catch {
            Console.standardError.line("jsonapi: verify: the generated document does not build: \(error)")
            throw ExitStatus.invalid
        }
        var problems: [String] = []
        let expected = generator.primaryCount + generator.includedCount
        if document.allResources.count != expected {
            problems.append("\(document.allResources.count) resources, expected \(expected)")
        }
        if !document.diagnostics.isEmpty { problems.append("diagnostics: \(document.diagnostics[0])") }
        var identifiers = 0
        for resource in document.allResources {
            for relationship in resource.relationships {
                for identifier in relationship.identifiers {
                    identifiers += 1
                    guard let target = identifier.resource, target.type == identifier.type,
                        (target.id ?? "").utf8.elementsEqual((identifier.id ?? "").utf8)
                    else {
                        if problems.count < 20 {
                            problems.append("\(resource.identifier) \(relationship.name): \(identifier.identifier)")
                        }
                        continue
                    }
                }
            }
        }
        for line in problems { Console.standardError.line("jsonapi: verify: \(line)") }
        Console.standardError.line(
            "jsonapi: verify: \(problems.isEmpty ? "ok" : "FAILED"): \(bytes.count.grouped) bytes, "
                + "\(document.allResources.count.grouped) resources and \(identifiers.grouped) linkage identifiers "
                + "checked (shape \(generator.shape))")
        if !problems.isEmpty { throw ExitStatus.invalid }
    }
}
