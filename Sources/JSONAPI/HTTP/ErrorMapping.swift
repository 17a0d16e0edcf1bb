/// An error that knows how to describe itself to a JSON:API client.
///
/// Adopt it for your server's errors; ``JSONAPIErrorDocument/init(describing:jsonapi:)`` then
/// uses your error objects instead of a generic 500.
///
/// ```swift
/// enum ArticleError: Error, JSONAPIErrorConvertible {
///     case notFound(id: String)
///
///     var jsonapiErrors: [JSONAPIErrorObject] {
///         switch self {
///         case .notFound(let id):
///             [JSONAPIErrorObject(status: 404, code: "article-not-found", title: "Not Found",
///                                 detail: "There is no article with id \(id).")]
///         }
///     }
/// }
/// ```
///
/// ## Built-in mapping
///
/// ``JSONAPIErrorObject/errors(describing:)`` (and so ``JSONAPIErrorDocument/init(describing:jsonapi:)``)
/// maps a thrown error to error objects like this:
///
/// | Thrown error | `status` | `source` | `code` | one object per |
/// |---|---|---|---|---|
/// | a ``JSONAPIErrorConvertible`` | its own | its own | its own | its choice |
/// | ``JSONAPIError`` with a syntax code (`invalidJSON`, `invalidUTF8`, `invalidEscape`, `invalidNumber`, `unexpectedEnd`, `depthLimitExceeded`) | 400 | `pointer`: the error's pointer | `invalid-json`, ... | error diagnostic |
/// | ``JSONAPIError`` `specViolation`, `duplicateResource`, `missingResource`, `unreachableResource` | 400 | `pointer`: the diagnostic's pointer | `spec-violation`, ... | error diagnostic |
/// | ``JSONAPIError`` `documentTooLarge`, `stringTooLong`, `tooManyResources` (a ``ParsingOptions`` limit) | 413 | `pointer` | `document-too-large`, ... | error |
/// | ``JSONAPIError`` `typeMismatch`, `decodingFailed` (projecting a valid document onto your types) | 422 | `pointer` | `type-mismatch`, ... | error |
/// | ``JSONAPIError`` `resourceTypeConflict` (a primary resource of another type than the endpoint's) | 409 | `pointer` | `resource-type-conflict` | error |
/// | ``JSONAPIError`` `encodingFailed`, `io` (the server's own failure) | 500 | none | none | error |
/// | ``QueryFailure`` (the query parameters, see ``JSONAPIQuery/init(parsing:rules:options:)``) | 400 | `parameter`: the parameter as the client wrote it, decoded | `unsupported-include`, `max-size-exceeded`, ... (``QueryProblem/Code``) | problem |
/// | ``NegotiationFailure`` | 415 or 406 | `header`: `Content-Type` or `Accept` | `unsupported-media-type`, `not-acceptable` | failure |
/// | ``DecodingFailure`` (every problem of a request body, see ``JSONAPIDecoder/decodeListingProblems(_:from:)-(_,Document)``) | as `DecodingError`, each | as `DecodingError` | as `DecodingError` | problem |
/// | `DecodingError` | 422 (409 for a primary resource of another type) | `pointer`: where ``JSONAPIDecoder`` found the problem, else the coding path under `/data` (see ``JSONAPIErrorObject/init(decodingError:resourcePointer:relationshipNames:)``) | `invalid-value`, `missing-member`, `resource-type-conflict`, ... | error |
/// | anything else | 500 | none | none | error |
///
/// Parsing errors carry their place in `meta` (`{"offset": 36, "line": 1, "column": 37}`) and
/// their message in `detail`; warnings (lenient mode) are not reported. A 500 says only
/// "Internal Server Error": nothing of the underlying error (its type, message or stack) reaches
/// the client, so log it yourself.
public protocol JSONAPIErrorConvertible: Error {
    /// The error objects that describe this error to a client; at least one.
    var jsonapiErrors: [JSONAPIErrorObject] { get }
}

extension JSONAPIErrorObject {
    /// The error objects that describe `error` to a client, mapped as the table in
    /// ``JSONAPIErrorConvertible`` says.
    ///
    /// ```swift
    /// JSONAPIErrorObject.errors(describing: NegotiationFailure.notAcceptable("no usable media range"))
    /// // [{"status":"406","code":"not-acceptable","title":"Not Acceptable", "detail": ...,
    /// //   "source":{"header":"Accept"}}]
    /// ```
    public static func errors(describing error: any Error) -> [JSONAPIErrorObject] {
        if let convertible = error as? any JSONAPIErrorConvertible {
            let errors = convertible.jsonapiErrors
            return errors.isEmpty ? [internalServerError] : errors
        }
        return [internalServerError]
    }

    /// The generic 500 error object: `{"status":"500","title":"Internal Server Error"}`.
    public static var internalServerError: JSONAPIErrorObject {
        JSONAPIErrorObject(status: 500, title: "Internal Server Error")
    }

    /// Describes a `DecodingError` thrown while decoding a request document into your types as
    /// a 422 error whose `source.pointer` is where the value is in the document.
    ///
    /// An error thrown by ``JSONAPIDecoder`` carries that place
    /// (``Swift/DecodingError/jsonapiError``): its pointer is used as it is, so a wrongly typed
    /// linkage of `author` is at `/data/relationships/author/data`. A primary resource of another
    /// type than the model (``JSONAPIError/Code/resourceTypeConflict``, a body sent to the wrong
    /// endpoint) is a 409 Conflict at its `type`, as JSON:API requires.
    ///
    /// For other errors (those of another decoder) the coding path is turned into a JSON
    /// Pointer. A coding path that starts with a top-level member (`data`, `included`, `meta`,
    /// ...) is taken as a path in the whole document. Otherwise it is taken as a path in the resource
    /// object at `resourcePointer`: `type`, `id` and `lid` stay where they are, a name in
    /// `relationshipNames` goes under `relationships`, anything else under `attributes`.
    /// For a missing member the pointer names the object that lacks it (a pointer must name a
    /// value that exists).
    ///
    /// ```swift
    /// // DecodingError.typeMismatch at path [title]
    /// JSONAPIErrorObject(decodingError: error).source?.pointer     // "/data/attributes/title"
    /// // DecodingError.keyNotFound(author) at path [] with relationshipNames ["author"]
    /// // -> pointer "/data", detail "the member `author` is missing"
    /// ```
    ///
    /// - Parameters:
    ///   - decodingError: The error.
    ///   - resourcePointer: Where the decoded resource object is in the document (`/data/0` for the
    ///     first of several).
    ///   - relationshipNames: Coding keys that are relationships rather than attributes.
    public init(decodingError: DecodingError, resourcePointer: String = "/data", relationshipNames: Set<String> = []) {
        // An error of ``JSONAPIDecoder`` knows where its value is in the document (a linkage is
        // under `relationships/…/data`, whatever the property's coding path looks like).
        let located = decodingError.jsonapiError
        func pointer(_ path: [any CodingKey]) -> String {
            if let located, located.offset >= 0 { return located.pointer }
            return Self.pointer(
                forCodingPath: path, resourcePointer: resourcePointer, relationshipNames: relationshipNames)
        }
        switch decodingError {
        case .typeMismatch(_, let context) where located?.code == .resourceTypeConflict:
            self.init(
                status: 409, code: "resource-type-conflict", title: "Conflict", detail: context.debugDescription,
                source: .pointer(located.map { $0.pointer + "/type" } ?? pointer(context.codingPath)))
        case .typeMismatch(_, let context):
            self.init(
                status: 422, code: "type-mismatch", title: "Invalid value", detail: context.debugDescription,
                source: .pointer(pointer(context.codingPath)))
        case .valueNotFound(_, let context):
            self.init(
                status: 422, code: "missing-value", title: "Missing value", detail: context.debugDescription,
                source: .pointer(pointer(context.codingPath)))
        case .keyNotFound(let key, let context):
            self.init(
                status: 422, code: "missing-member", title: "Missing member",
                detail: "the member `\(key.stringValue)` is missing", source: .pointer(pointer(context.codingPath)))
        case .dataCorrupted(let context):
            self.init(
                status: 422, code: "invalid-value", title: "Invalid value", detail: context.debugDescription,
                source: .pointer(pointer(context.codingPath)))
        @unknown default:
            self.init(status: 422, code: "invalid-value", title: "Invalid value")
        }
    }

    /// The JSON Pointer of a coding path; see ``init(decodingError:resourcePointer:relationshipNames:)``.
    static func pointer(
        forCodingPath path: [any CodingKey], resourcePointer: String, relationshipNames: Set<String>
    ) -> String {
        let topLevel = Set(JSONAPIRules.standard.names(in: .topLevel))
        let resourceMembers = Set(JSONAPIRules.standard.names(in: .resource))
        var result: String
        var rest = path[...]
        if let first = path.first, first.intValue == nil, topLevel.contains(first.stringValue) {
            result = ""
        } else {
            result = resourcePointer
            if let first = path.first, first.intValue == nil {
                if relationshipNames.contains(first.stringValue) {
                    result += "/relationships"
                } else if !resourceMembers.contains(first.stringValue) {
                    result += "/attributes"
                }
            }
        }
        while let key = rest.popFirst() {
            result += "/" + (key.intValue.map(String.init) ?? escapePointerToken(key.stringValue))
        }
        return result
    }

    /// Escapes one JSON Pointer reference token (RFC 6901): `~` as `~0`, `/` as `~1`.
    static func escapePointerToken(_ token: String) -> String {
        guard token.contains(where: { $0 == "~" || $0 == "/" }) else { return token }
        return token.replacing("~", with: "~0").replacing("/", with: "~1")
    }
}

extension DecodingError: JSONAPIErrorConvertible {
    /// One 422 error object, its pointer under `/data`; see
    /// ``JSONAPIErrorObject/init(decodingError:resourcePointer:relationshipNames:)``.
    public var jsonapiErrors: [JSONAPIErrorObject] { [JSONAPIErrorObject(decodingError: self)] }
}

extension DecodingFailure: JSONAPIErrorConvertible {
    /// One error object per problem, each mapped as its `DecodingError` is (422, or 409 for a
    /// primary resource of another type), with its pointer.
    public var jsonapiErrors: [JSONAPIErrorObject] { errors.flatMap(\.jsonapiErrors) }
}

extension NegotiationFailure: JSONAPIErrorConvertible {
    /// One error object: 415 with `source.header` `Content-Type`, or 406 with `Accept`.
    public var jsonapiErrors: [JSONAPIErrorObject] {
        let header = status == 415 ? "Content-Type" : (status == 406 ? "Accept" : nil)
        let code = status == 415 ? "unsupported-media-type" : (status == 406 ? "not-acceptable" : nil)
        return [
            JSONAPIErrorObject(
                status: status, code: code, title: title, detail: reason,
                source: header.map(JSONAPIErrorObject.Source.header))
        ]
    }
}

extension JSONAPIError: JSONAPIErrorConvertible {
    /// One error object per error diagnostic (or for the error itself when it has none), with the
    /// status of its code, `source.pointer`, and its place in `meta`; see
    /// ``JSONAPIErrorConvertible`` for the statuses.
    public var jsonapiErrors: [JSONAPIErrorObject] {
        let problems = diagnostics.filter { $0.severity == .error }
        if problems.isEmpty {
            return [
                Self.errorObject(
                    code: code, message: message, offset: offset, line: line, column: column, pointer: pointer)
            ]
        }
        return problems.map {
            Self.errorObject(
                code: $0.code, message: $0.message, offset: $0.offset, line: $0.line, column: $0.column,
                pointer: $0.pointer)
        }
    }

    private static func errorObject(
        code: Code, message: String, offset: Int, line: Int, column: Int, pointer: String
    ) -> JSONAPIErrorObject {
        let (status, identifier) = statusAndIdentifier(code)
        guard status != 500 else { return .internalServerError }
        var place = JSON.Object()
        if offset >= 0 { place["offset"] = JSON(offset) }
        if line > 0 {
            place["line"] = JSON(line)
            place["column"] = JSON(column)
        }
        let title: String
        switch status {
        case 413: title = "Request body too large"
        case 422: title = "Unprocessable document"
        default: title = code.isSyntaxError ? "Malformed JSON" : "Invalid JSON:API document"
        }
        return JSONAPIErrorObject(
            status: status, code: identifier, title: title, detail: message, source: .pointer(pointer),
            meta: place.isEmpty ? nil : place)
    }

    /// The HTTP status and the `code` string of each error code: the code's identifier in
    /// kebab case (`invalidJSON` -> `invalid-json`), so a new code is named without a table here.
    private static func statusAndIdentifier(_ code: Code) -> (Int, String) {
        let status: Int
        switch code {
        case .documentTooLarge, .stringTooLong, .tooManyResources: status = 413
        case .typeMismatch, .decodingFailed: status = 422
        case .resourceTypeConflict: status = 409
        case .encodingFailed, .io, .invalidOption: status = 500
        default: status = 400
        }
        var kebab = ""
        var previousWasLower = false
        for character in code.identifier {
            if character.isUppercase && previousWasLower { kebab.append("-") }
            kebab.append(contentsOf: character.lowercased())
            previousWasLower = character.isLowercase || character.isNumber
        }
        return (status, kebab)
    }
}

extension JSONAPIErrorDocument {
    /// An error document describing `error`, mapped as the table in ``JSONAPIErrorConvertible``
    /// says; answer with ``httpStatus``.
    ///
    /// ```swift
    /// let errors = JSONAPIErrorDocument(describing: NegotiationFailure.unsupportedMediaType("ext not supported"))
    /// errors.httpStatus   // 415
    /// ```
    public init(describing error: any Error, jsonapi: JSONAPIImplementationInfo? = nil) {
        self.init(errors: JSONAPIErrorObject.errors(describing: error), jsonapi: jsonapi)
    }
}
