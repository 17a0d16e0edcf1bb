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

extension JSONAPIError.Code {
    /// A stable identifier for reports: the name of the static member (`specViolation`).
    ///
    /// Codes are a struct rather than an enum, so there is no raw value to print; a code added to
    /// the library later falls back to its description until it is named here.
    var identifier: String {
        let known: [(JSONAPIError.Code, String)] = [
            (.invalidJSON, "invalidJSON"), (.invalidUTF8, "invalidUTF8"), (.invalidEscape, "invalidEscape"),
            (.invalidNumber, "invalidNumber"), (.unexpectedEnd, "unexpectedEnd"),
            (.depthLimitExceeded, "depthLimitExceeded"), (.documentTooLarge, "documentTooLarge"),
            (.stringTooLong, "stringTooLong"), (.tooManyResources, "tooManyResources"),
            (.specViolation, "specViolation"), (.duplicateResource, "duplicateResource"),
            (.missingResource, "missingResource"), (.unreachableResource, "unreachableResource"),
            (.typeMismatch, "typeMismatch"), (.decodingFailed, "decodingFailed"),
            (.encodingFailed, "encodingFailed"), (.io, "io"),
        ]
        return known.first { $0.0 == self }?.1 ?? description
    }
}
