import JSONAPI

/// The outcome of one parse, reduced to what two ways of parsing the same bytes must agree on:
/// the digest of every view and the diagnostics, or the error's code, offset, message and
/// diagnostics.
struct ParseOutcome: Equatable, CustomStringConvertible {
    enum Verdict: Equatable {
        case document(digest: String)
        case failure(code: JSONAPIError.Code, offset: Int, message: String, diagnostics: [Diagnostic])
    }

    var verdict: Verdict
    /// Broken invariants seen while walking the document (not part of the comparison).
    var problems: [String] = []
    /// The document, when the parse succeeded.
    var document: Document?

    init(_ body: () throws(JSONAPIError) -> Document) {
        do {
            let document = try body()
            var walk = ViewWalk(positions: true)
            walk.walk(document)
            verdict = .document(digest: walk.digest)
            problems = walk.problems
            self.document = document
        } catch {
            verdict = .failure(
                code: error.code, offset: error.offset, message: error.message, diagnostics: error.diagnostics)
        }
    }

    static func == (lhs: ParseOutcome, rhs: ParseOutcome) -> Bool { lhs.verdict == rhs.verdict }

    var description: String {
        switch verdict {
        case .document(let digest): "document (\(digest.utf8.count) bytes of digest)"
        case .failure(let code, let offset, let message, let diagnostics):
            "\(code) @\(offset): \(message) (\(diagnostics.count) diagnostics)"
        }
    }

    /// The first line where two digests differ, to say what two documents disagree on.
    static func firstDifference(_ lhs: ParseOutcome, _ rhs: ParseOutcome) -> String {
        guard case .document(let a) = lhs.verdict, case .document(let b) = rhs.verdict else {
            return "\(lhs) vs \(rhs)"
        }
        return firstDifference(a, b)
    }

    static func firstDifference(_ a: String, _ b: String) -> String {
        let aLines = a.split(separator: "\n", omittingEmptySubsequences: false)
        let bLines = b.split(separator: "\n", omittingEmptySubsequences: false)
        for (index, (x, y)) in zip(aLines, bLines).enumerated() where x != y {
            return "line \(index + 1): \(x.prefix(300)) vs \(y.prefix(300))"
        }
        return "\(aLines.count) lines vs \(bLines.count) lines"
    }
}
