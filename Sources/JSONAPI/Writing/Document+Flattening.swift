// Flattening: a resource (or a whole document) as plain nested JSON, related resources embedded
// where relationships point, the way an app's model layer would see it.

extension ResourceObject {
    /// Writes the resource as a plain JSON object, its related resources embedded up to `depth`
    /// levels.
    ///
    /// The object holds `type`, `id` (and `lid` when present), then every attribute, then one
    /// member per relationship: the related resource flattened the same way (an array of them
    /// for a to-many relationship, `null` for empty to-one linkage). Beyond `depth` levels, or
    /// when the document does not contain the related resource, the member holds the resource
    /// identifier object instead. Relationships without linkage are left out. Cycles stop at
    /// `depth`, so the output is always finite, but it can grow quickly with `depth` when
    /// resources point at each other.
    ///
    /// ```swift
    /// // {"data": {"type": "articles", "id": "1", "attributes": {"title": "Hi"},
    /// //           "relationships": {"author": {"data": {"type": "people", "id": "9"}}}},
    /// //  "included": [{"type": "people", "id": "9", "attributes": {"name": "Dan"}}]}
    /// let article = document.primaryResources[0]
    /// print(String(decoding: article.flattenedJSON(depth: 1), as: UTF8.self))
    /// // {"type":"articles","id":"1","title":"Hi","author":{"type":"people","id":"9","name":"Dan"}}
    /// print(String(decoding: article.flattenedJSON(depth: 0), as: UTF8.self))
    /// // {"type":"articles","id":"1","title":"Hi","author":{"type":"people","id":"9"}}
    /// ```
    ///
    /// - Parameters:
    ///   - writer: The writer; its options decide compact or pretty output.
    ///   - depth: How many levels of related resources to embed (0: identifiers only; negative
    ///     counts as 0).
    /// - Complexity: O(output size); an explicit stack, not recursion, follows relationships.
    public func writeFlattened(to writer: inout JSONWriter, depth: Int) {
        var flattener = Flattener()
        flattener.write(self, depth: max(0, depth), to: &writer)
    }

    /// The resource as plain JSON; see ``writeFlattened(to:depth:)``.
    public func flattenedJSON(depth: Int = 1, options: JSONWritingOptions = JSONWritingOptions()) -> [UInt8] {
        var writer = JSONWriter(options: options)
        writeFlattened(to: &writer, depth: depth)
        return writer.bytes
    }
}

extension Document {
    /// Writes the whole document as plain JSON, in the shape Japx gives: an object whose `data`
    /// is the primary data flattened as ``ResourceObject/writeFlattened(to:depth:)`` does (an
    /// object, an array of them, or `null`), followed by every other top-level member as it is
    /// (`meta`, `links`, `jsonapi`, `errors`, extension members), in document order; `included`
    /// is left out, its resources being embedded where they are linked.
    ///
    /// Primary resource identifiers (a relationship document) become the resources they name
    /// when the document contains them, and identifier objects otherwise. A document without
    /// primary data (an error document, only `meta`) has no `data` member.
    ///
    /// ```swift
    /// // {"data": [...], "meta": {"totalPages": 13}, "links": {"next": "/articles?page[number]=2"}}
    /// let plain = document.flattenedJSON(depth: 2, options: .pretty)
    /// // {"data": [{"type": "articles", "id": "1", "title": ..., "author": {...}}, ...],
    /// //  "meta": {"totalPages": 13}, "links": {"next": "/articles?page[number]=2"}}
    /// ```
    public func writeFlattened(to writer: inout JSONWriter, depth: Int) {
        writer.beginObject()
        for (name, value) in jsonValue.members {
            switch name {
            case "included":
                continue
            case "data":
                writer.key("data")
                writeFlattenedPrimaryData(to: &writer, depth: depth)
            default:
                writer.key(name)
                value.write(to: &writer)
            }
        }
        writer.endObject()
    }

    /// Writes the primary data alone, flattened: an object, an array of them, or `null` (also
    /// for a document without primary data). See ``writeFlattened(to:depth:)``.
    public func writeFlattenedPrimaryData(to writer: inout JSONWriter, depth: Int) {
        let depth = max(0, depth)
        var flattener = Flattener()
        switch primary {
        case .absent, .null:
            writer.null()
        case .one(let resource):
            flattener.write(resource, depth: depth, to: &writer)
        case .many(let resources):
            writer.beginArray()
            for resource in resources { flattener.write(resource, depth: depth, to: &writer) }
            writer.endArray()
        case .identifier(let identifier):
            flattener.write(identifier, depth: depth, to: &writer)
        case .identifiers(let identifiers):
            writer.beginArray()
            for identifier in identifiers { flattener.write(identifier, depth: depth, to: &writer) }
            writer.endArray()
        }
    }

    /// The whole document as plain JSON; see ``writeFlattened(to:depth:)``.
    public func flattenedJSON(depth: Int = 1, options: JSONWritingOptions = JSONWritingOptions()) -> [UInt8] {
        var writer = JSONWriter(options: options)
        writeFlattened(to: &writer, depth: depth)
        return writer.bytes
    }

    /// The primary data alone as plain JSON; see ``writeFlattenedPrimaryData(to:depth:)``.
    public func flattenedPrimaryDataJSON(depth: Int = 1, options: JSONWritingOptions = JSONWritingOptions())
        -> [UInt8]
    {
        var writer = JSONWriter(options: options)
        writeFlattenedPrimaryData(to: &writer, depth: depth)
        return writer.bytes
    }
}

/// Writes flattened resources with an explicit stack of open resource objects.
private struct Flattener {
    /// One resource object being written.
    struct Frame {
        let relationships: [Relationship]
        /// Levels of related resources still to embed below this resource.
        let remaining: Int
        var nextRelationship = 0
        /// The identifiers of the to-many relationship being written, and the next one.
        var identifiers: [ResourceIdentifierObject]?
        var nextIdentifier = 0
    }

    var stack: [Frame] = []

    /// Writes `resource` flattened, embedding `depth` levels.
    mutating func write(_ resource: ResourceObject, depth: Int, to writer: inout JSONWriter) {
        open(resource, remaining: depth, writer: &writer)
        run(&writer)
    }

    /// Writes the resource `identifier` names (when present and `depth` > 0) or the identifier.
    mutating func write(_ identifier: ResourceIdentifierObject, depth: Int, to writer: inout JSONWriter) {
        related(identifier, remaining: depth, writer: &writer)
        run(&writer)
    }

    /// Writes the head of a resource object (identity and attributes) and pushes its frame.
    private mutating func open(_ resource: ResourceObject, remaining: Int, writer: inout JSONWriter) {
        writer.beginObject()
        writer.key("type")
        writer.string(resource.type)
        if let id = resource.id {
            writer.key("id")
            writer.string(id)
        }
        if let lid = resource.lid {
            writer.key("lid")
            writer.string(lid)
        }
        let record = resource.record
        unsafe resource.storage.withBytes { bytes in
            // SAFETY: the view is used only inside this `withBytes` scope.
            let view = unsafe ByteView(unsafeBytes: bytes)
            ValueReader.forEachMember(view, object: Int(record.attributes.start)) { key, _, value in
                unsafe writer.key(rawEscaped: bytes.slice(key))
                unsafe writer.copyJSON(bytes.slice(value), sortingKeys: false)
                return true
            }
        }
        stack.append(Frame(relationships: resource.relationships, remaining: remaining))
    }

    /// Writes a related resource: embedded when levels remain and the document has it, otherwise
    /// its identifier object.
    private mutating func related(_ identifier: ResourceIdentifierObject, remaining: Int, writer: inout JSONWriter) {
        if remaining > 0, let resource = identifier.resource {
            open(resource, remaining: remaining - 1, writer: &writer)
        } else {
            identifier.identifier.write(to: &writer)
        }
    }

    /// Writes the relationships of the open resources until the stack is empty.
    private mutating func run(_ writer: inout JSONWriter) {
        while !stack.isEmpty {
            let top = stack.count - 1
            let remaining = stack[top].remaining
            if let identifiers = stack[top].identifiers {
                let next = stack[top].nextIdentifier
                if next < identifiers.count {
                    stack[top].nextIdentifier += 1
                    related(identifiers[next], remaining: remaining, writer: &writer)
                } else {
                    writer.endArray()
                    stack[top].identifiers = nil
                }
                continue
            }
            let next = stack[top].nextRelationship
            guard next < stack[top].relationships.count else {
                writer.endObject()
                stack.removeLast()
                continue
            }
            stack[top].nextRelationship += 1
            let relationship = stack[top].relationships[next]
            switch relationship.linkage {
            case .absent:
                break
            case .null:
                writer.key(relationship.name)
                writer.null()
            case .one(let identifier):
                writer.key(relationship.name)
                related(identifier, remaining: remaining, writer: &writer)
            case .many(let identifiers):
                writer.key(relationship.name)
                writer.beginArray()
                stack[top].identifiers = identifiers
                stack[top].nextIdentifier = 0
            }
        }
    }
}
