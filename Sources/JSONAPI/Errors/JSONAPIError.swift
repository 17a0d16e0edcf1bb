/// The one error type of the library.
///
/// Every problem with an input, from a stray byte to a broken JSON:API rule, is a
/// ``JSONAPIError``. It carries a ``Code`` to switch on, a human-readable message, the byte
/// offset where the problem was found, its line and column, and the JSON Pointer (RFC 6901) of
/// the offending member. When a document breaks several rules at once, ``diagnostics`` lists
/// them all (errors and, in lenient mode, warnings) and the error's own fields describe the
/// first error among them.
///
/// ```swift
/// do {
///     _ = try Document(parsing: #"{"data": {"type": "articles", "id": 1}}"#)
/// } catch {
///     print(error)  // 1:37: error: resource `id` must be a string (/data/id)
/// }
/// ```
public struct JSONAPIError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of problem this is.
    ///
    /// A struct wrapping a private enumeration, so new codes can be added without breaking
    /// anyone's exhaustive `switch`: compare against the static members instead.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Raw: UInt8, Sendable {
            case invalidJSON
            case invalidUTF8
            case invalidEscape
            case invalidNumber
            case unexpectedEnd
            case depthLimitExceeded
            case documentTooLarge
            case stringTooLong
            case tooManyResources
            case specViolation
            case duplicateResource
            case missingResource
            case unreachableResource
            case typeMismatch
            case resourceTypeConflict
            case decodingFailed
            case encodingFailed
            case io
            case invalidOption
        }

        private let raw: Raw
        private init(_ raw: Raw) { self.raw = raw }

        /// The bytes are not JSON (RFC 8259): an unexpected byte, a missing separator, trailing data.
        public static let invalidJSON = Code(.invalidJSON)
        /// A string (or the document) is not well-formed UTF-8.
        public static let invalidUTF8 = Code(.invalidUTF8)
        /// A string holds a bad escape sequence or an unpaired UTF-16 surrogate escape.
        public static let invalidEscape = Code(.invalidEscape)
        /// A number does not follow the JSON number grammar.
        public static let invalidNumber = Code(.invalidNumber)
        /// The input ended inside a value.
        public static let unexpectedEnd = Code(.unexpectedEnd)
        /// Objects and arrays are nested deeper than ``ParsingOptions/maximumDepth``.
        public static let depthLimitExceeded = Code(.depthLimitExceeded)
        /// The input is longer than ``ParsingOptions/maximumDocumentBytes``.
        public static let documentTooLarge = Code(.documentTooLarge)
        /// A string is longer than ``ParsingOptions/maximumStringBytes``.
        public static let stringTooLong = Code(.stringTooLong)
        /// The document holds more resources than ``ParsingOptions/maximumResourceCount``.
        public static let tooManyResources = Code(.tooManyResources)
        /// The JSON is well formed but breaks a rule of the JSON:API specification.
        public static let specViolation = Code(.specViolation)
        /// Two resource objects share a (type, id) pair.
        public static let duplicateResource = Code(.duplicateResource)
        /// A resource linkage names a resource the document does not contain.
        public static let missingResource = Code(.missingResource)
        /// An included resource is not reachable from primary data (full linkage).
        public static let unreachableResource = Code(.unreachableResource)
        /// A value has a different JSON type than the one asked for.
        public static let typeMismatch = Code(.typeMismatch)
        /// A primary resource is of another type than the model it is decoded as: a request body
        /// whose `type` is not the endpoint's. The HTTP error mapping answers it with 409 Conflict,
        /// as JSON:API requires; a wrongly typed resource anywhere else is a ``typeMismatch``.
        public static let resourceTypeConflict = Code(.resourceTypeConflict)
        /// Projecting the document onto a user type failed.
        public static let decodingFailed = Code(.decodingFailed)
        /// Writing a value or document failed.
        public static let encodingFailed = Code(.encodingFailed)
        /// Reading or writing a file or stream failed.
        public static let io = Code(.io)
        /// A limit in ``ParsingOptions`` or ``DecodingOptions`` is out of its documented range.
        public static let invalidOption = Code(.invalidOption)

        public var description: String {
            switch raw {
            case .invalidJSON: "invalid JSON"
            case .invalidUTF8: "invalid UTF-8"
            case .invalidEscape: "invalid escape"
            case .invalidNumber: "invalid number"
            case .unexpectedEnd: "unexpected end of input"
            case .depthLimitExceeded: "nesting too deep"
            case .documentTooLarge: "document too large"
            case .stringTooLong: "string too long"
            case .tooManyResources: "too many resources"
            case .specViolation: "JSON:API rule broken"
            case .duplicateResource: "duplicate resource"
            case .missingResource: "missing resource"
            case .unreachableResource: "unreachable resource"
            case .typeMismatch: "type mismatch"
            case .resourceTypeConflict: "resource type conflict"
            case .decodingFailed: "decoding failed"
            case .encodingFailed: "encoding failed"
            case .io: "I/O error"
            case .invalidOption: "invalid option"
            }
        }

        /// A stable name for reports and logs: the name of the static member (`specViolation`).
        public var identifier: String {
            switch raw {
            case .invalidJSON: "invalidJSON"
            case .invalidUTF8: "invalidUTF8"
            case .invalidEscape: "invalidEscape"
            case .invalidNumber: "invalidNumber"
            case .unexpectedEnd: "unexpectedEnd"
            case .depthLimitExceeded: "depthLimitExceeded"
            case .documentTooLarge: "documentTooLarge"
            case .stringTooLong: "stringTooLong"
            case .tooManyResources: "tooManyResources"
            case .specViolation: "specViolation"
            case .duplicateResource: "duplicateResource"
            case .missingResource: "missingResource"
            case .unreachableResource: "unreachableResource"
            case .typeMismatch: "typeMismatch"
            case .resourceTypeConflict: "resourceTypeConflict"
            case .decodingFailed: "decodingFailed"
            case .encodingFailed: "encodingFailed"
            case .io: "io"
            case .invalidOption: "invalidOption"
            }
        }

        /// True for codes that mean the bytes are not acceptable JSON at all.
        public var isSyntaxError: Bool {
            switch raw {
            case .invalidJSON, .invalidUTF8, .invalidEscape, .invalidNumber, .unexpectedEnd, .depthLimitExceeded:
                true
            default:
                false
            }
        }
    }

    /// What kind of problem this is.
    public var code: Code
    /// A sentence saying what is wrong, with the expected and the found where that helps.
    public var message: String
    /// Byte offset from the start of the input (0-based), or -1 when the problem has no place.
    public var offset: Int
    /// Line of ``offset`` (1-based), or 0 when unknown.
    public var line: Int
    /// Column of ``offset`` on its line (1-based, counted in Unicode scalars), or 0 when unknown.
    public var column: Int
    /// JSON Pointer (RFC 6901) of the member or element the problem is about; `""` is the root.
    public var pointer: String
    /// Every problem found, in document order, when more than one was reported together.
    /// Empty when this error is the only one.
    public var diagnostics: [Diagnostic]

    /// Creates an error. Location fields are usually filled in by the parser, which has the bytes.
    public init(
        _ code: Code, _ message: String, offset: Int = -1, line: Int = 0, column: Int = 0, pointer: String = "",
        diagnostics: [Diagnostic] = []
    ) {
        self.code = code
        self.message = message
        self.offset = offset
        self.line = line
        self.column = column
        self.pointer = pointer
        self.diagnostics = diagnostics
    }

    /// `LINE:COLUMN: error: MESSAGE (POINTER)`, one line per diagnostic when there are several.
    public var description: String {
        if diagnostics.count > 1 {
            return diagnostics.map(\.description).joined(separator: "\n")
        }
        return Diagnostic(
            severity: .error, code: code, message: message, offset: offset, line: line, column: column,
            pointer: pointer
        ).description
    }
}

/// One problem found in a document: an error, or a warning that lenient mode let through.
public struct Diagnostic: Sendable, Hashable, CustomStringConvertible {
    /// How serious a problem is.
    public enum Severity: String, Sendable, Hashable {
        /// The document breaks a rule; strict parsing rejects it.
        case error
        /// The document breaks a rule, but lenient parsing kept it; or a SHOULD was not met.
        case warning
    }

    /// Error or warning.
    public var severity: Severity
    /// What kind of problem this is.
    public var code: JSONAPIError.Code
    /// What is wrong.
    public var message: String
    /// Byte offset from the start of the input (0-based), or -1 when the problem has no place.
    public var offset: Int
    /// Line of ``offset`` (1-based), or 0 when unknown.
    public var line: Int
    /// Column of ``offset`` (1-based, in Unicode scalars), or 0 when unknown.
    public var column: Int
    /// JSON Pointer of the offending member.
    public var pointer: String

    /// Creates a diagnostic.
    public init(
        severity: Severity, code: JSONAPIError.Code, message: String, offset: Int, line: Int = 0, column: Int = 0,
        pointer: String = ""
    ) {
        self.severity = severity
        self.code = code
        self.message = message
        self.offset = offset
        self.line = line
        self.column = column
        self.pointer = pointer
    }

    /// `LINE:COLUMN: error|warning: MESSAGE (POINTER)`.
    public var description: String {
        let place = line > 0 ? "\(line):\(column): " : (offset >= 0 ? "byte \(offset): " : "")
        // The root's pointer is the empty string; it prints as `()` so the format stays parseable.
        return "\(place)\(severity.rawValue): \(message) (\(pointer))"
    }
}

extension JSONAPIError {
    /// An error at `offset` whose line, column and pointer are filled in later by the parser.
    @usableFromInline
    static func at(_ offset: Int, _ code: Code, _ message: String) -> JSONAPIError {
        JSONAPIError(code, message, offset: offset)
    }
}
