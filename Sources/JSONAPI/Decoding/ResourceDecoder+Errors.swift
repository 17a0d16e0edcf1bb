#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

// Errors
// ------
// Every failure is a standard `DecodingError` (the type Codable users already catch), whose
// `debugDescription` says what was expected, what was found, and where: the JSON Pointer,
// line and column of the value, computed from its byte offset only when the error is thrown.
// Its `underlyingError` is a ``JSONAPIError`` with the same location and a code:
// `.typeMismatch` (wrong JSON type, wrong resource type, unparsable value),
// `.resourceTypeConflict` (a primary resource of another type than the model), `.missingResource`
// (linkage to a resource the document lacks) or `.decodingFailed` (missing keys, cycles,
// depth limits). An error your own `init(from:)` throws that is not a `DecodingError` is
// wrapped in `DecodingError.dataCorrupted` with your error as `underlyingError`, unchanged,
// and the location in `debugDescription`.

extension ResourceDecoder {
    enum FailureKind {
        case typeMismatch(Any.Type)
        case valueNotFound(Any.Type)
        case keyNotFound(any CodingKey)
        case dataCorrupted
    }

    /// A located `JSONAPIError` for the value at `offset`.
    func located(_ code: JSONAPIError.Code, _ message: String, at offset: Int) -> JSONAPIError {
        let place = unsafe storage.locate(offset)
        return JSONAPIError(
            code, message, offset: place.offset, line: place.line, column: place.column, pointer: place.pointer)
    }

    /// ` at /data/0/attributes/title (line 3, column 14)`.
    func placeDescription(_ error: JSONAPIError) -> String {
        let pointer = error.pointer.isEmpty ? "the document root" : error.pointer
        return error.line > 0 ? " at \(pointer) (line \(error.line), column \(error.column))" : " at \(pointer)"
    }

    func failure(
        _ kind: FailureKind, at offset: Int, code: JSONAPIError.Code, path: [any CodingKey], _ message: String
    ) -> DecodingError {
        let error = located(code, message, at: offset)
        let context = DecodingError.Context(
            codingPath: path, debugDescription: message + placeDescription(error), underlyingError: error)
        switch kind {
        case .typeMismatch(let type): return .typeMismatch(type, context)
        case .valueNotFound(let type): return .valueNotFound(type, context)
        case .keyNotFound(let key): return .keyNotFound(key, context)
        case .dataCorrupted: return .dataCorrupted(context)
        }
    }

    /// A value that is not what `type` reads; a `null` one is `valueNotFound`, as `JSONDecoder`
    /// reports it.
    func typeMismatch(_ type: Any.Type, expected: String, found range: ByteRange, path: [any CodingKey])
        -> DecodingError
    {
        if firstByte(range) == UInt8(ascii: "n") {
            return failure(
                .valueNotFound(type), at: Int(range.start), code: .typeMismatch, path: path,
                "expected \(expected), found null")
        }
        return typeMismatch(type, at: Int(range.start), expected: expected, found: describe(range), path: path)
    }

    func typeMismatch(_ type: Any.Type, at offset: Int, expected: String, found: String, path: [any CodingKey])
        -> DecodingError
    {
        failure(
            .typeMismatch(type), at: offset, code: .typeMismatch, path: path, "expected \(expected), found \(found)")
    }

    func keyNotFound(_ key: any CodingKey, in node: Node, path: [any CodingKey]) -> DecodingError {
        let message: String
        switch node {
        case .resource(let record):
            message =
                "resource \(identity(record: record)) has no attribute or relationship `\(key.stringValue)`"
                + (unsafe matcher.isExact ? "" : " (after the key decoding strategy)")
        case .document:
            message = "the document has no top-level member `\(key.stringValue)`"
        default:
            message = "no member `\(key.stringValue)` in the object"
        }
        return failure(.keyNotFound(key), at: offset(of: node), code: .decodingFailed, path: path, message)
    }

    /// The linkage names a resource the document does not contain.
    func missingResource(_ linkage: UInt32) -> DecodingError {
        var message = "resource \(identity(linkage: linkage))"
        if let (owner, relationship) = owner(ofLinkage: linkage) {
            message += ", named by relationship `\(relationshipName(relationship))` of \(identity(record: owner)),"
        }
        message +=
            " is not in the document (neither primary data nor `included`); declare the property optional, set ignoresMissingResources for arrays, or use Identifier<…>"
        return unsafe failure(
            .dataCorrupted, at: Int(linkages[Int(linkage)].object.start), code: .missingResource, path: path, message)
    }

    /// The resource and relationship that hold `linkage`, for messages.
    func owner(ofLinkage linkage: UInt32) -> (UInt32, UInt32)? {
        for (index, relationship) in unsafe relationships.enumerated()
        where linkage >= relationship.firstLinkage && linkage < relationship.firstLinkage &+ relationship.linkageCount {
            for (position, resource) in unsafe resources.enumerated()
            where index >= Int(resource.firstRelationship)
                && index < Int(resource.firstRelationship) &+ Int(resource.relationshipCount)
            {
                return (UInt32(position), UInt32(index))
            }
        }
        return nil
    }

    /// A resource entered as a model of another type. A primary resource decoded as itself (no
    /// resource around it) is a ``JSONAPIError/Code/resourceTypeConflict``: for a request body,
    /// the client sent it to the wrong endpoint (409), not a malformed value (422).
    func wrongType(record: UInt32) -> DecodingError {
        let found = unsafe types.name(resources[Int(record)].type)
        let wanted = unsafe expectedModel.map { "a `\($0.resourceType)` resource (\($0))" } ?? "another resource type"
        let isPrimary =
            unsafe chain.isEmpty && !topLevel.primaryIsLinkage && record >= topLevel.primaryStart
            && record &- topLevel.primaryStart < topLevel.primaryCount
        return unsafe failure(
            .typeMismatch(expectedModel ?? Any.self), at: Int(resources[Int(record)].object.start),
            code: isPrimary ? .resourceTypeConflict : .typeMismatch, path: path,
            "expected \(wanted), found a `\(found)` resource (\(identity(record: record)))")
    }

    /// A linkage (`node`, a linkage or a to-one relationship) naming resource `record`, whose
    /// type is not the one the property's model (`info`) has; located at the linkage, where the
    /// problem is, rather than at the resource.
    @inline(never)
    func wrongLinkageType(_ node: Node, record: UInt32, info: TypeInfo, key: KeyRef) -> DecodingError {
        var offset = offset(of: node)
        if case .relationship(let index) = node {
            offset = unsafe Int(linkages[Int(relationships[Int(index)].firstLinkage)].object.start)
        }
        let found = unsafe types.name(resources[Int(record)].type)
        let wanted = info.model.map { "a `\($0.resourceType)` resource (\($0))" } ?? "another resource type"
        return failure(
            .typeMismatch(info.model ?? Any.self), at: offset, code: .typeMismatch, path: path(key),
            "expected \(wanted), found a `\(found)` resource (\(identity(record: record)))")
    }

    func cycle(at record: UInt32) -> DecodingError {
        unsafe failure(
            .dataCorrupted, at: Int(resources[Int(record)].object.start), code: .decodingFailed, path: path,
            "cycle in the resource graph: \(chainDescription(appending: record)); decode one of these relationships as Lazy<…> or Identifier<…> to break it"
        )
    }

    func chainDescription(appending record: UInt32) -> String {
        unsafe ((0..<chain.count).map { unsafe identity(record: chain[$0].record) } + [identity(record: record)])
            .joined(
                separator: " → ")
    }

    /// A resource of a type that the union `unionType` (named `union`) does not handle.
    func unhandledType(
        _ union: String, type unionType: Any.Type, typeIndex: UInt32, at offset: Int, identity: String,
        members: [String]
    ) -> DecodingError {
        failure(
            .typeMismatch(unionType), at: offset, code: .typeMismatch, path: path,
            unsafe "resource type `\(types.name(typeIndex))` (\(identity)) is not a member of \(union) (\(members.joined(separator: ", "))); set ignoresUnhandledResourceTypes to skip it"
        )
    }

    /// The same error with `key` appended to its coding path (for errors made before the key
    /// was pushed, in the direct paths that push no frame).
    func adding(_ key: KeyRef, to error: any Error) -> any Error {
        guard let key = key.key(in: self), let decodingError = error as? DecodingError,
            let context = decodingError.context
        else {
            return error
        }
        let newContext = DecodingError.Context(
            codingPath: context.codingPath + [key], debugDescription: context.debugDescription,
            underlyingError: context.underlyingError)
        switch decodingError {
        case .typeMismatch(let type, _): return DecodingError.typeMismatch(type, newContext)
        case .valueNotFound(let type, _): return DecodingError.valueNotFound(type, newContext)
        case .keyNotFound(let missing, _): return DecodingError.keyNotFound(missing, newContext)
        default: return DecodingError.dataCorrupted(newContext)
        }
    }

    // MARK: Locating errors thrown by nested init(from:)

    /// Gives an error that escaped a nested `init(from:)` a location, unless it has one.
    func locate(_ error: any Error, node: Node) -> any Error {
        if unsafe foreignErrorLocated || error is RecordedFailure { return error }
        if let decodingError = error as? DecodingError {
            guard let context = decodingError.context else { return error }
            if context.underlyingError is JSONAPIError { return error }
            let offset = offset(forErrorPath: context.codingPath, in: node)
            let code: JSONAPIError.Code
            if case .typeMismatch = decodingError { code = .typeMismatch } else { code = .decodingFailed }
            let place = located(code, context.debugDescription, at: offset)
            let underlying: any Error = context.underlyingError ?? place
            if context.underlyingError != nil { unsafe foreignErrorLocated = true }
            let newContext = DecodingError.Context(
                codingPath: context.codingPath, debugDescription: context.debugDescription + placeDescription(place),
                underlyingError: underlying)
            switch decodingError {
            case .typeMismatch(let type, _): return DecodingError.typeMismatch(type, newContext)
            case .valueNotFound(let type, _): return DecodingError.valueNotFound(type, newContext)
            case .keyNotFound(let key, _): return DecodingError.keyNotFound(key, newContext)
            default: return DecodingError.dataCorrupted(newContext)
            }
        }
        let place = located(.decodingFailed, "\(error)", at: offset(of: node))
        unsafe foreignErrorLocated = true
        return DecodingError.dataCorrupted(
            DecodingError.Context(
                codingPath: path, debugDescription: "\(error)" + placeDescription(place), underlyingError: error))
    }

    /// The offset of the member an error's coding path names inside `node`, else of `node`.
    func offset(forErrorPath errorPath: [any CodingKey], in node: Node) -> Int {
        let depth = pathCount
        guard errorPath.count > depth else { return offset(of: node) }
        let key = errorPath[depth]
        let savedTop = table.top
        defer { table.top = savedTop }
        switch node {
        case .value(let range):
            if firstByte(range) == UInt8(ascii: "{") {
                let segment = unsafe table.scan(bytes, object: range)
                if let member = unsafe withKeyBytes(key, { unsafe findMember(segment, object: range, $0) }) {
                    return Int(member.value.start)
                }
            } else if firstByte(range) == UInt8(ascii: "["), let index = key.intValue {
                var cursor = ArrayCursor(range)
                var position = 0
                while let element = unsafe cursor.next(bytes) {
                    if position == index { return Int(element.start) }
                    position += 1
                }
            }
        case .resource, .relationship, .linkage, .primary:
            guard let record = try? singleResource(of: node, for: Any.self) else { break }
            let segment = unsafe table.scan(bytes, object: resources[Int(record)].attributes)
            let slot = unsafe withKeyBytes(key) { unsafe lookup($0, record: record, segment: segment) }
            switch slot {
            case .member(let member): return Int(member.value.start)
            case .relationship(let index): return relationshipOffset(index)
            case .id, .lid:
                if case .text(let range, _)? = self.node(for: slot, record: record) { return Int(range.start) &- 1 }
            case .meta: return unsafe Int(storage.arena.meta(ofResource: Int(record)).start)
            case .links: return unsafe Int(resources[Int(record)].links.start)
            default: break
            }
            return unsafe Int(resources[Int(record)].object.start)
        default:
            break
        }
        return offset(of: node)
    }

    /// The byte offset of the value a node stands for.
    func offset(of node: Node) -> Int {
        switch node {
        case .resource(let record): return unsafe Int(resources[Int(record)].object.start)
        case .value(let range): return Int(range.start)
        case .relationship(let index): return relationshipOffset(index)
        case .linkage(let index): return unsafe Int(linkages[Int(index)].object.start)
        case .primary:
            return unsafe topLevel.dataRange.isPresent
                ? Int(topLevel.dataRange.start) : max(0, Int(topLevel.object.start))
        case .included:
            return unsafe topLevel.includedCount > 0
                ? Int(resources[Int(topLevel.includedStart)].object.start) : max(0, Int(topLevel.object.start))
        case .text(let range, _): return max(0, Int(range.start) &- 1)
        case .typeName(_, let offset): return Int(offset)
        case .document: return unsafe topLevel.object.isPresent ? Int(topLevel.object.start) : 0
        }
    }

    // MARK: Descriptions

    /// "a string (\"abc\")", "a number (42)", "null", …
    func describe(_ range: ByteRange) -> String {
        switch firstByte(range) {
        case UInt8(ascii: "\""): return "a string (\(snippet(range)))"
        case UInt8(ascii: "{"): return "an object"
        case UInt8(ascii: "["): return "an array"
        case UInt8(ascii: "t"), UInt8(ascii: "f"): return "a boolean (\(snippet(range)))"
        case UInt8(ascii: "n"): return "null"
        case 0: return "nothing"
        default: return "a number (\(snippet(range)))"
        }
    }

    func describe(_ node: Node) -> String {
        switch node {
        case .value(let range): return describe(range)
        case .resource(let record): return "the resource \(identity(record: record))"
        case .relationship(let index): return "the relationship `\(relationshipName(index))`"
        case .linkage(let index): return "the resource identifier \(identity(linkage: index))"
        case .primary: return "the primary data"
        case .included: return "the `included` array"
        case .text(let range, let escaped): return "the string \"\(string(range, escaped: escaped))\""
        case .typeName(let index, _): return unsafe "the type name \"\(types.name(index))\""
        case .document: return "the document"
        }
    }

    /// The value's JSON text, shortened to about 40 bytes.
    func snippet(_ range: ByteRange) -> String {
        let raw = unsafe bytes.subview(range)
        if raw.count <= 40 { return raw.string }
        return raw.subview(0..<40).string + "…"
    }

    /// "a string", "an integer (Int8)", … for messages.
    func expectation(_ type: Any.Type) -> String {
        if type == String.self { return "a string" }
        if type == Bool.self { return "a boolean" }
        if type == Double.self || type == Float.self { return "a number" }
        return "an integer (\(type))"
    }
}

extension DecodingError {
    /// The context of any case.
    var context: Context? {
        switch self {
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .keyNotFound(_, let context),
            .dataCorrupted(let context):
            return context
        @unknown default:
            return nil
        }
    }

    /// The location of the failure in the document: a ``JSONAPIError`` with code, message,
    /// byte offset, line, column and JSON Pointer; nil for errors this library did not throw.
    ///
    /// ```swift
    /// do {
    ///     _ = try JSONAPIDecoder().decode(Article.self, from: data)
    /// } catch let error as DecodingError {
    ///     if let place = error.jsonapiError { print(place.pointer, place.line, place.column) }
    /// }
    /// ```
    public var jsonapiError: JSONAPIError? {
        context?.underlyingError as? JSONAPIError
    }
}

/// `[0].comments[2].author` for skipped-resource reports.
func renderPath(_ path: [any CodingKey]) -> String {
    var result = ""
    for key in path {
        if let index = key.intValue {
            result += "[\(index)]"
        } else {
            if !result.isEmpty { result += "." }
            result += key.stringValue
        }
    }
    return result
}
