import JSONAPI

/// A filter of the service's filter language, as parsed from a request's `filter` parameter: a
/// typed tree whose fields may go through relationships (`author.name`).
///
/// The syntax (see <doc:FilterLanguage>):
///
/// | Expression | Holds when |
/// |---|---|
/// | `equals(year,1965)`, `notEquals`, `lessThan`, `lessOrEqual`, `greaterThan`, `greaterOrEqual` | the attribute compares so with the value |
/// | `contains(title,'Dune')`, `startsWith`, `endsWith` | the string attribute matches the text (exact bytes) |
/// | `any(status,'draft','review')` | the attribute equals one of the values |
/// | `isNull(rating)`, `isNull(author)` | the attribute is `null` or absent; the relationship links to nothing |
/// | `and(e1,e2,...)`, `or(e1,e2,...)`, `not(e)` | boolean logic |
///
/// Values are `'text'` (a quote inside doubled: `'it''s'`), numbers (`12`, `-1.5e3`), `true`,
/// `false` and `null` (only in `equals`, meaning `isNull`). A field is an attribute name, or
/// relationship names and an attribute name joined by dots (`reviews.stars`): a condition through
/// a to-many relationship holds when it holds for at least one related resource. Spaces are
/// allowed between tokens.
///
/// ```swift
/// let filter = try FilterExpression(parsing: "and(greaterThan(year,1960),contains(author.name,'Herbert'))")
/// // .and([.compare(year, .greaterThan, 1960), .text(author.name, .contains, "Herbert")])
/// ```
public indirect enum FilterExpression: Sendable, Hashable {
    /// An attribute compared with a value.
    case compare(FilterField, FilterComparison, JSON)
    /// A string attribute matched against text.
    case text(FilterField, FilterTextMatch, String)
    /// An attribute equal to one of the values.
    case oneOf(FilterField, [JSON])
    /// An attribute that is `null` or absent, or a relationship that links to nothing.
    case isNull(FilterField)
    /// Every expression holds.
    case and([FilterExpression])
    /// At least one expression holds.
    case or([FilterExpression])
    /// The expression does not hold.
    case not(FilterExpression)

    /// Parses `text`, the decoded value of a `filter` parameter.
    ///
    /// - Parameters:
    ///   - text: The expression.
    ///   - maximumNesting: How deeply calls may nest (a bound on the parser's recursion).
    /// - Throws: ``FilterSyntaxError`` with the byte offset of the first problem.
    public init(parsing text: String, maximumNesting: Int = 16) throws(FilterSyntaxError) {
        var parser = FilterParser(bytes: Array(text.utf8), maximumNesting: maximumNesting)
        self = try parser.parseWhole()
    }
}

/// A field of a filter: relationship names, then the member compared, and where it was written.
public struct FilterField: Sendable, Hashable, CustomStringConvertible {
    /// The names, outermost first: `author.name` is `["author", "name"]`.
    public var names: [String]
    /// The byte offset of the field in the parameter's value.
    public var offset: Int

    /// Creates a field.
    public init(_ names: [String], offset: Int = 0) {
        self.names = names
        self.offset = offset
    }

    /// The names joined by dots.
    public var description: String { names.joined(separator: ".") }
}

/// What is wrong with a filter expression, and where.
public struct FilterSyntaxError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What was wrong.
    public var message: String
    /// The byte offset in the parameter's value.
    public var offset: Int

    /// Creates an error.
    public init(_ message: String, offset: Int) {
        self.message = message
        self.offset = offset
    }

    public var description: String { "\(message) (offset \(offset))" }
}

/// A recursive-descent parser over the bytes of the expression; its recursion is bounded by
/// `maximumNesting`.
struct FilterParser {
    let bytes: [UInt8]
    let maximumNesting: Int
    var position = 0

    init(bytes: [UInt8], maximumNesting: Int) {
        self.bytes = bytes
        self.maximumNesting = maximumNesting
    }

    mutating func parseWhole() throws(FilterSyntaxError) -> FilterExpression {
        skipSpaces()
        let expression = try parseCall(depth: 1)
        skipSpaces()
        guard position == bytes.count else {
            throw FilterSyntaxError("unexpected text after the expression", offset: position)
        }
        return expression
    }

    /// An argument: a call, a field or a literal.
    enum Argument {
        case call(FilterExpression)
        case field(FilterField)
        case literal(JSON, offset: Int)
    }

    mutating func parseCall(depth: Int) throws(FilterSyntaxError) -> FilterExpression {
        let start = position
        guard depth <= maximumNesting else {
            throw FilterSyntaxError("expressions nest more than \(maximumNesting) deep", offset: start)
        }
        let name = readName()
        guard !name.isEmpty else { throw FilterSyntaxError("expected a function such as `equals(`", offset: start) }
        skipSpaces()
        guard peek == UInt8(ascii: "(") else {
            throw FilterSyntaxError("expected `(` after `\(name)`", offset: position)
        }
        position += 1
        var arguments: [(Argument, Int)] = []
        skipSpaces()
        if peek == UInt8(ascii: ")") {
            position += 1
        } else {
            while true {
                skipSpaces()
                let offset = position
                arguments.append((try parseArgument(depth: depth), offset))
                skipSpaces()
                if peek == UInt8(ascii: ",") {
                    position += 1
                    continue
                }
                guard peek == UInt8(ascii: ")") else {
                    throw FilterSyntaxError(
                        position == bytes.count ? "expected `)`" : "expected `,` or `)`", offset: position)
                }
                position += 1
                break
            }
        }
        return try build(name, arguments, offset: start)
    }

    mutating func parseArgument(depth: Int) throws(FilterSyntaxError) -> Argument {
        let start = position
        guard let byte = peek else { throw FilterSyntaxError("expected a value", offset: start) }
        if byte == UInt8(ascii: "'") { return .literal(.string(try readQuoted()), offset: start) }
        if byte == UInt8(ascii: "-") || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) {
            return .literal(try readNumber(), offset: start)
        }
        var names = [readName()]
        guard !names[0].isEmpty else {
            throw FilterSyntaxError("expected a field, a value or a function", offset: start)
        }
        let afterName = position
        skipSpaces()
        if peek == UInt8(ascii: "("), names.count == 1 {
            position = start
            return .call(try parseCall(depth: depth + 1))
        }
        position = afterName
        if names.count == 1 && peek != UInt8(ascii: ".") {
            switch names[0] {
            case "true": return .literal(.bool(true), offset: start)
            case "false": return .literal(.bool(false), offset: start)
            case "null": return .literal(.null, offset: start)
            default: break
            }
        }
        while peek == UInt8(ascii: ".") {
            position += 1
            let name = readName()
            guard !name.isEmpty else { throw FilterSyntaxError("expected a name after `.`", offset: position) }
            names.append(name)
        }
        return .field(FilterField(names, offset: start))
    }

    func build(_ name: String, _ arguments: [(Argument, Int)], offset: Int) throws(FilterSyntaxError)
        -> FilterExpression
    {
        func field(_ index: Int) throws(FilterSyntaxError) -> FilterField {
            guard index < arguments.count, case .field(let field) = arguments[index].0 else {
                throw FilterSyntaxError(
                    "`\(name)` takes a field as argument \(index + 1)",
                    offset: index < arguments.count ? arguments[index].1 : offset)
            }
            return field
        }
        func literal(_ index: Int) throws(FilterSyntaxError) -> JSON {
            guard index < arguments.count, case .literal(let value, _) = arguments[index].0 else {
                throw FilterSyntaxError(
                    "`\(name)` takes a value as argument \(index + 1)",
                    offset: index < arguments.count ? arguments[index].1 : offset)
            }
            return value
        }
        func count(_ expected: Int) throws(FilterSyntaxError) {
            guard arguments.count == expected else {
                throw FilterSyntaxError(
                    "`\(name)` takes \(expected) argument\(expected == 1 ? "" : "s")", offset: offset)
            }
        }
        if let comparison = FilterComparison(rawValue: name) {
            try count(2)
            let subject = try field(0)
            let value = try literal(1)
            if value == .null {
                switch comparison {
                case .equal: return .isNull(subject)
                case .notEqual: return .not(.isNull(subject))
                default: throw FilterSyntaxError("`\(name)` cannot compare with null", offset: arguments[1].1)
                }
            }
            return .compare(subject, comparison, value)
        }
        if let match = FilterTextMatch(rawValue: name) {
            try count(2)
            let subject = try field(0)
            guard case .string(let text) = try literal(1) else {
                throw FilterSyntaxError("`\(name)` takes text in quotes", offset: arguments[1].1)
            }
            return .text(subject, match, text)
        }
        switch name {
        case "any":
            guard arguments.count >= 2 else {
                throw FilterSyntaxError("`any` takes a field and values", offset: offset)
            }
            var values: [JSON] = []
            for index in 1..<arguments.count { values.append(try literal(index)) }
            return .oneOf(try field(0), values)
        case "isNull":
            try count(1)
            return .isNull(try field(0))
        case "and", "or":
            guard !arguments.isEmpty else { throw FilterSyntaxError("`\(name)` takes expressions", offset: offset) }
            var expressions: [FilterExpression] = []
            for (argument, argumentOffset) in arguments {
                guard case .call(let expression) = argument else {
                    throw FilterSyntaxError("`\(name)` takes expressions", offset: argumentOffset)
                }
                expressions.append(expression)
            }
            return name == "and" ? .and(expressions) : .or(expressions)
        case "not":
            try count(1)
            guard case .call(let expression) = arguments[0].0 else {
                throw FilterSyntaxError("`not` takes an expression", offset: arguments[0].1)
            }
            return .not(expression)
        default:
            throw FilterSyntaxError(
                "unknown function `\(name)`; the functions are "
                    + (FilterComparison.allCases.map(\.rawValue) + FilterTextMatch.allCases.map(\.rawValue)
                    + ["any", "isNull", "and", "or", "not"]).joined(separator: ", "),
                offset: offset)
        }
    }

    // MARK: Tokens

    var peek: UInt8? { position < bytes.count ? bytes[position] : nil }

    mutating func skipSpaces() {
        while let byte = peek, byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") { position += 1 }
    }

    /// A member name: letters, digits, `_`, `-` and any non-ASCII UTF-8 byte (JSON:API's
    /// allowed characters); empty when none is there.
    mutating func readName() -> String {
        let start = position
        while let byte = peek {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "-"), 0x80...0xFF:
                position += 1
            default:
                return String(decoding: bytes[start..<position], as: UTF8.self)
            }
        }
        return String(decoding: bytes[start..<position], as: UTF8.self)
    }

    mutating func readQuoted() throws(FilterSyntaxError) -> String {
        let start = position
        position += 1
        var text: [UInt8] = []
        while let byte = peek {
            position += 1
            if byte == UInt8(ascii: "'") {
                if peek == UInt8(ascii: "'") {
                    text.append(byte)
                    position += 1
                    continue
                }
                guard let string = String(validatingUTF8Bytes: text) else {
                    throw FilterSyntaxError("text is not valid UTF-8", offset: start)
                }
                return string
            }
            text.append(byte)
        }
        throw FilterSyntaxError("text has no closing `'`", offset: start)
    }

    mutating func readNumber() throws(FilterSyntaxError) -> JSON {
        let start = position
        func digits() -> Int {
            let from = position
            while let byte = peek, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) { position += 1 }
            return position - from
        }
        if peek == UInt8(ascii: "-") { position += 1 }
        var isInteger = true
        guard digits() > 0 else { throw FilterSyntaxError("expected digits", offset: position) }
        if peek == UInt8(ascii: ".") {
            position += 1
            isInteger = false
            guard digits() > 0 else { throw FilterSyntaxError("expected digits after `.`", offset: position) }
        }
        if peek == UInt8(ascii: "e") || peek == UInt8(ascii: "E") {
            position += 1
            isInteger = false
            if peek == UInt8(ascii: "+") || peek == UInt8(ascii: "-") { position += 1 }
            guard digits() > 0 else { throw FilterSyntaxError("expected digits in the exponent", offset: position) }
        }
        let text = String(decoding: bytes[start..<position], as: UTF8.self)
        if isInteger, let value = Int64(text) { return .int(value) }
        guard let value = Double(text), value.isFinite else {
            throw FilterSyntaxError("`\(text)` is out of range", offset: start)
        }
        return .double(value)
    }
}
