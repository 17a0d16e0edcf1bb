import JSONAPI

extension JSONAPIError {
    /// Every problem the error stands for: its `diagnostics` when the parser listed several,
    /// otherwise the error itself.
    var allDiagnostics: [Diagnostic] {
        if !diagnostics.isEmpty { return diagnostics }
        return [
            Diagnostic(
                severity: .error, code: code, message: message, offset: offset, line: line, column: column,
                pointer: pointer)
        ]
    }
}

extension Diagnostic {
    /// An I/O failure reported in the same shape as a parsing problem.
    init(_ failure: IOFailure) {
        self.init(severity: .error, code: .io, message: failure.description, offset: -1)
    }

    /// `FILE:LINE:COLUMN: error|warning: MESSAGE (POINTER)`; `FILE: ...` when the problem has no place.
    func formatted(file: String) -> String {
        let place = line > 0 ? "\(file):\(line):\(column):" : "\(file):"
        return "\(place) \(severity.rawValue): \(message) (\(pointer))"
    }

    /// The diagnostic as a member of a `--json` report.
    var report: ReportValue {
        .object([
            ("severity", .string(severity.rawValue)),
            ("code", .string(code.identifier)),
            ("message", .string(message)),
            ("offset", .integer(offset)),
            ("line", .integer(line)),
            ("column", .integer(column)),
            ("pointer", .string(pointer)),
        ])
    }
}
