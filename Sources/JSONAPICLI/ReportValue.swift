/// A JSON value for the tool's machine-readable reports, with members kept in the order given
/// so reports read the same every time.
enum ReportValue {
    case object([(String, ReportValue)])
    case array([ReportValue])
    case string(String)
    case integer(Int)
    case number(Double)
    case bool(Bool)
    case null

    /// A number rounded to `places` decimals, so timings do not print sixteen noisy digits.
    static func number(_ value: Double, places: Int) -> ReportValue {
        var scale = 1.0
        for _ in 0..<places { scale *= 10 }
        return .number((value * scale).rounded() / scale)
    }

    /// The value as pretty-printed JSON (two-space indentation), without a final newline.
    var rendered: String {
        var output = ""
        render(into: &output, indentation: "")
        return output
    }

    private func render(into output: inout String, indentation: String) {
        let inner = indentation + "  "
        switch self {
        case .object(let members):
            guard !members.isEmpty else { return output += "{}" }
            output += "{\n"
            for (position, (key, value)) in members.enumerated() {
                output += inner
                Self.appendString(key, to: &output)
                output += ": "
                value.render(into: &output, indentation: inner)
                output += position + 1 < members.count ? ",\n" : "\n"
            }
            output += indentation + "}"
        case .array(let elements):
            guard !elements.isEmpty else { return output += "[]" }
            output += "[\n"
            for (position, element) in elements.enumerated() {
                output += inner
                element.render(into: &output, indentation: inner)
                output += position + 1 < elements.count ? ",\n" : "\n"
            }
            output += indentation + "]"
        case .string(let string):
            Self.appendString(string, to: &output)
        case .integer(let integer):
            output += String(integer)
        case .number(let number):
            // JSON has no infinities or NaN; `description` is otherwise valid JSON (`1.5`, `1e-05`).
            output += number.isFinite ? number.description : "null"
        case .bool(let bool):
            output += bool ? "true" : "false"
        case .null:
            output += "null"
        }
    }

    /// Appends `string` as a JSON string literal (RFC 8259 §7).
    private static func appendString(_ string: String, to output: inout String) {
        output += "\""
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"": output += "\\\""
            case "\\": output += "\\\\"
            case "\n": output += "\\n"
            case "\r": output += "\\r"
            case "\t": output += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                output += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default:
                output.unicodeScalars.append(scalar)
            }
        }
        output += "\""
    }
}
