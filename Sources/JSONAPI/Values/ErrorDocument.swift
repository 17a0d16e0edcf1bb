/// An error object built in code, for the `errors` of an error document.
///
/// (``ErrorObject`` is the read-only view of an error object in a parsed document; this is its
/// owned counterpart.)
///
/// ```swift
/// let error = JSONAPIErrorObject(
///     status: 422, code: "too-short", title: "Invalid attribute",
///     detail: "First name must contain at least two characters.",
///     source: .pointer("/data/attributes/firstName"))
/// print(try error.jsonString())
/// // {"status":"422","code":"too-short","title":"Invalid attribute",
/// //  "detail":"First name must contain at least two characters.",
/// //  "source":{"pointer":"/data/attributes/firstName"}}   (one line)
/// ```
public struct JSONAPIErrorObject: Sendable, Hashable {
    /// Where in the request the problem is.
    public struct Source: Sendable, Hashable {
        /// A JSON Pointer (RFC 6901) to the value in the request document that caused the error.
        public var pointer: String?
        /// The URI query parameter that caused the error.
        public var parameter: String?
        /// The request header that caused the error (1.1).
        public var header: String?

        /// Creates a source; set one member.
        public init(pointer: String? = nil, parameter: String? = nil, header: String? = nil) {
            self.pointer = pointer
            self.parameter = parameter
            self.header = header
        }

        /// A source pointing into the request document (`/data/attributes/title`).
        public static func pointer(_ pointer: String) -> Source { Source(pointer: pointer) }
        /// A source naming a query parameter (`include`, `page[size]`).
        public static func parameter(_ name: String) -> Source { Source(parameter: name) }
        /// A source naming a request header (`Content-Type`).
        public static func header(_ name: String) -> Source { Source(header: name) }
    }

    /// The error object's links.
    public struct Links: Sendable, Hashable {
        /// Leads to further details about this occurrence of the problem.
        public var about: JSONAPILink?
        /// Identifies the type of error this particular error is an instance of (1.1).
        public var type: JSONAPILink?

        /// Creates the links.
        public init(about: JSONAPILink? = nil, type: JSONAPILink? = nil) {
            self.about = about
            self.type = type
        }
    }

    /// A unique identifier for this occurrence of the problem.
    public var id: String?
    /// The error's links; left out when nil or empty.
    public var links: Links?
    /// The HTTP status code for this problem, as a string (`"422"`).
    public var status: String?
    /// An application-specific error code.
    public var code: String?
    /// A short, human-readable summary that does not change between occurrences.
    public var title: String?
    /// A human-readable explanation specific to this occurrence.
    public var detail: String?
    /// Where the problem is.
    public var source: Source?
    /// Non-standard meta-information about the error.
    public var meta: JSON.Object?

    /// Creates an error object.
    ///
    /// - Parameters:
    ///   - id: A unique identifier for this occurrence of the problem.
    ///   - status: The HTTP status code, written as a string as the specification requires.
    ///   - code: An application-specific error code.
    ///   - title: A short, human-readable summary that does not change between occurrences.
    ///   - detail: A human-readable explanation specific to this occurrence.
    ///   - source: Where the problem is.
    ///   - links: The error's links; left out when nil or empty.
    ///   - meta: Non-standard meta-information about the error.
    public init(
        id: String? = nil, status: Int? = nil, code: String? = nil, title: String? = nil, detail: String? = nil,
        source: Source? = nil, links: Links? = nil, meta: JSON.Object? = nil
    ) {
        self.id = id
        self.status = status.map(String.init)
        self.code = code
        self.title = title
        self.detail = detail
        self.source = source
        self.links = links
        self.meta = meta
    }

    /// Copies an error object of a parsed document.
    public init(_ view: ErrorObject) {
        self.init(id: view.id, code: view.code, title: view.title, detail: view.detail)
        status = view.status
        source = view.source.map { Source(pointer: $0.pointer, parameter: $0.parameter, header: $0.header) }
        if let links = view.links {
            self.links = Links(about: links["about"].map(JSONAPILink.init), type: links["type"].map(JSONAPILink.init))
        }
        meta = view.meta.map { JSON($0).objectValue ?? [:] }
    }

    /// ``status`` as a number, when it is one.
    public var httpStatus: Int? { status.flatMap { Int($0) } }
}

extension JSONAPIErrorObject: JSONWritable {
    /// Writes `id`, `links`, `status`, `code`, `title`, `detail`, `source` and `meta`, leaving out
    /// what is nil (and `links` or `source` when none of their members is set).
    public func write(to writer: inout JSONWriter, sortingKeys: Bool) {
        var members: [(String, (inout JSONWriter) -> Void)] = []
        if let id { members.append(("id", { $0.string(id) })) }
        if let links, links.about != nil || links.type != nil {
            members.append(
                (
                    "links",
                    { writer in
                        var linkMembers: [(String, (inout JSONWriter) -> Void)] = []
                        if let about = links.about {
                            linkMembers.append(("about", { about.write(to: &$0, sortingKeys: sortingKeys) }))
                        }
                        if let type = links.type {
                            linkMembers.append(("type", { type.write(to: &$0, sortingKeys: sortingKeys) }))
                        }
                        writer.writeObject(linkMembers, sortingKeys: sortingKeys)
                    }
                ))
        }
        if let status { members.append(("status", { $0.string(status) })) }
        if let code { members.append(("code", { $0.string(code) })) }
        if let title { members.append(("title", { $0.string(title) })) }
        if let detail { members.append(("detail", { $0.string(detail) })) }
        if let source, source.pointer != nil || source.parameter != nil || source.header != nil {
            members.append(
                (
                    "source",
                    { writer in
                        var sourceMembers: [(String, (inout JSONWriter) -> Void)] = []
                        if let pointer = source.pointer { sourceMembers.append(("pointer", { $0.string(pointer) })) }
                        if let parameter = source.parameter {
                            sourceMembers.append(("parameter", { $0.string(parameter) }))
                        }
                        if let header = source.header { sourceMembers.append(("header", { $0.string(header) })) }
                        writer.writeObject(sourceMembers, sortingKeys: sortingKeys)
                    }
                ))
        }
        if let meta { members.append(("meta", { JSON.object(meta).write(to: &$0, sortingKeys: sortingKeys) })) }
        writer.writeObject(members, sortingKeys: sortingKeys)
    }
}

/// An error document built in code: `{"errors": [...]}` with optional `jsonapi`, `meta` and `links`.
///
/// Build one from error objects, or from any thrown Swift error with
/// ``init(describing:jsonapi:)`` (see ``JSONAPIErrorConvertible`` for the mapping), and answer
/// with ``httpStatus``.
///
/// ```swift
/// do {
///     let document = try Document(parsing: body, options: ParsingOptions(kind: .createRequest))
///     ...
/// } catch {
///     let errors = JSONAPIErrorDocument(describing: error)
///     return Response(status: errors.httpStatus, body: try errors.jsonBytes())
///     // 400 {"errors":[{"status":"400","code":"spec-violation","title":"Invalid JSON:API document",
///     //      "detail":"resource `id` must be a string","source":{"pointer":"/data/id"}, ...}]}
/// }
/// ```
public struct JSONAPIErrorDocument: Sendable, Hashable {
    /// The error objects, in order.
    public var errors: [JSONAPIErrorObject]
    /// The `jsonapi` object; nil leaves it out.
    public var jsonapi: JSONAPIImplementationInfo?
    /// Top-level meta-information; nil leaves it out.
    public var meta: JSON.Object?
    /// Top-level links (`self`, `describedby`); nil leaves them out.
    public var links: JSONAPILinks?

    /// Creates an error document.
    public init(
        errors: [JSONAPIErrorObject], jsonapi: JSONAPIImplementationInfo? = nil, meta: JSON.Object? = nil,
        links: JSONAPILinks? = nil
    ) {
        self.errors = errors
        self.jsonapi = jsonapi
        self.meta = meta
        self.links = links
    }

    /// Copies the errors (and `jsonapi`, `meta`, `links`) of a parsed error document.
    public init(_ document: Document) {
        self.init(
            errors: document.errors.map(JSONAPIErrorObject.init),
            jsonapi: document.jsonapi.map(JSONAPIImplementationInfo.init),
            meta: document.meta.map { JSON($0).objectValue ?? [:] }, links: document.links.map(JSONAPILinks.init))
    }

    /// The HTTP status to answer with: the status all errors share, otherwise the most generally
    /// applicable one, as the specification recommends: 500 when any error is a 5xx (or has no
    /// status), 400 for a mix of 4xx statuses. 500 when there are no errors.
    public var httpStatus: Int {
        let statuses = errors.map { $0.httpStatus ?? 500 }
        guard let first = statuses.first else { return 500 }
        if statuses.allSatisfy({ $0 == first }) { return first }
        return statuses.contains { $0 >= 500 || $0 < 400 } ? 500 : 400
    }
}

extension JSONAPIErrorDocument: JSONWritable {
    /// Writes `jsonapi`, `errors`, `meta` and `links`, leaving out what is nil.
    public func write(to writer: inout JSONWriter, sortingKeys: Bool) {
        var members: [(String, (inout JSONWriter) -> Void)] = []
        if let jsonapi { members.append(("jsonapi", { jsonapi.write(to: &$0, sortingKeys: sortingKeys) })) }
        members.append(
            (
                "errors",
                { writer in
                    writer.beginArray()
                    for error in errors { error.write(to: &writer, sortingKeys: sortingKeys) }
                    writer.endArray()
                }
            ))
        if let meta { members.append(("meta", { JSON.object(meta).write(to: &$0, sortingKeys: sortingKeys) })) }
        if let links { members.append(("links", { links.write(to: &$0, sortingKeys: sortingKeys) })) }
        writer.writeObject(members, sortingKeys: sortingKeys)
    }
}
