// Every view of a parsed document writes itself: a copy of its byte range, normalised to the
// writer's format (see DocumentWriter.swift).

extension DocumentStorage {
    /// Writes the value at `range` of the input through `writer`.
    @inline(__always)
    func write(_ range: ByteRange, to writer: inout JSONWriter, sortingKeys: Bool) {
        unsafe withBytes { bytes in unsafe writer.copyJSON(bytes.slice(range), sortingKeys: sortingKeys) }
    }
}

extension Document: InputSized {
    var inputByteCount: Int { jsonValue.range.count }
}

extension JSONValue: InputSized {
    var inputByteCount: Int { range.count }
}

extension ResourceObject: InputSized {
    var inputByteCount: Int { record.object.count }
}

extension Document: ParsedJSONWritable {
    /// Writes the whole document: every member, in input order (or sorted), whitespace normalised.
    ///
    /// Parsing the output gives the same document: the same resources, attributes,
    /// relationships, linkage, links, meta, errors and extension members.
    ///
    /// ```swift
    /// let document = try Document(parsing: body)
    /// var writer = JSONWriter(options: .init(prettyPrinted: true))
    /// document.write(to: &writer)
    /// let pretty = try writer.finish()
    /// let compact = document.jsonBytes()          // no whitespace between tokens
    /// let canonical = document.jsonBytes(options: .init(sortsKeys: true))
    /// ```
    ///
    /// - Complexity: O(n) in the input size. Compact output is one scan and (for compact input)
    ///   one copy of the input.
    public func write(to writer: inout JSONWriter, sortingKeys: Bool) {
        jsonValue.write(to: &writer, sortingKeys: sortingKeys)
    }
}

extension JSONValue: ParsedJSONWritable {
    /// Writes the value as it appeared in the input, whitespace normalised.
    ///
    /// ```swift
    /// let tags = article.attributes["tags"]?.jsonString() ?? "[]"   // ["a","b"]
    /// ```
    public func write(to writer: inout JSONWriter, sortingKeys: Bool) {
        storage.write(range, to: &writer, sortingKeys: sortingKeys)
    }
}

extension JSONObject: ParsedJSONWritable {
    /// Writes the object; an absent object (a resource without `attributes`) writes as `{}`.
    public func write(to writer: inout JSONWriter, sortingKeys: Bool) {
        if let value {
            value.write(to: &writer, sortingKeys: sortingKeys)
        } else {
            writer.beginObject()
            writer.endObject()
        }
    }
}

extension Links: ParsedJSONWritable {
    /// Writes the `links` object as it appeared in the input.
    public func write(to writer: inout JSONWriter, sortingKeys: Bool) {
        storage.write(range, to: &writer, sortingKeys: sortingKeys)
    }
}

extension ResourceObject: ParsedJSONWritable {
    /// Writes the resource object with all its members (including extension and @-members),
    /// in input order unless keys are sorted.
    ///
    /// ```swift
    /// let json = document.resource(type: "people", id: "9")?.jsonString(options: .pretty)
    /// ```
    public func write(to writer: inout JSONWriter, sortingKeys: Bool) {
        storage.write(record.object, to: &writer, sortingKeys: sortingKeys)
    }
}

extension Relationship: ParsedJSONWritable {
    /// Writes the relationship object (`data`, `links`, `meta`, ...).
    public func write(to writer: inout JSONWriter, sortingKeys: Bool) {
        storage.write(record.object, to: &writer, sortingKeys: sortingKeys)
    }
}

extension ResourceIdentifierObject: ParsedJSONWritable {
    /// Writes the resource identifier object (`type`, `id` or `lid`, `meta`).
    public func write(to writer: inout JSONWriter, sortingKeys: Bool) {
        storage.write(record.object, to: &writer, sortingKeys: sortingKeys)
    }
}

extension ResourceCollection: ParsedJSONWritable {
    /// Writes the resources as a JSON array.
    ///
    /// ```swift
    /// let included = document.included.jsonBytes()   // [{"type":"people",...},...]
    /// ```
    public func write(to writer: inout JSONWriter, sortingKeys: Bool) {
        writer.beginArray()
        for resource in self { resource.write(to: &writer, sortingKeys: sortingKeys) }
        writer.endArray()
    }
}

extension ErrorObject: ParsedJSONWritable {
    /// Writes the error object as it appeared in the input.
    public func write(to writer: inout JSONWriter, sortingKeys: Bool) {
        value.write(to: &writer, sortingKeys: sortingKeys)
    }
}

extension ImplementationInfo: ParsedJSONWritable {
    /// Writes the `jsonapi` object as it appeared in the input.
    public func write(to writer: inout JSONWriter, sortingKeys: Bool) {
        value.write(to: &writer, sortingKeys: sortingKeys)
    }
}

extension Link: JSONWritable {
    /// Writes the link: its URL string when it has only an `href`, otherwise a link object with
    /// the members that are set (`href`, `rel`, `describedby`, `title`, `type`, `hreflang`,
    /// `meta`, in that order, or sorted).
    ///
    /// ```swift
    /// print(try Link(href: "/articles/1").jsonString())                  // "/articles/1"
    /// print(try Link(href: "/articles/1", title: "First").jsonString())  // {"href":"/articles/1","title":"First"}
    /// ```
    public func write(to writer: inout JSONWriter, sortingKeys: Bool) {
        JSONAPILink(self).write(to: &writer, sortingKeys: sortingKeys)
    }
}

extension JSONWriter {
    /// Writes an object whose members are written by closures, ordered by key when asked.
    mutating func writeObject(_ members: [(String, (inout JSONWriter) -> Void)], sortingKeys: Bool) {
        beginObject()
        if sortingKeys {
            let order = members.indices.sorted { lhs, rhs in
                let a = members[lhs].0.utf8
                let b = members[rhs].0.utf8
                if a.elementsEqual(b) { return lhs < rhs }
                return a.lexicographicallyPrecedes(b)
            }
            for index in order {
                key(members[index].0)
                members[index].1(&self)
            }
        } else {
            for member in members {
                key(member.0)
                member.1(&self)
            }
        }
        endObject()
    }
}

extension JSONWriter {
    /// Writes strings as an array, or the only one as a plain string when `singleAsString`.
    mutating func strings(_ values: [String], singleAsString: Bool = false) {
        if singleAsString && values.count == 1 {
            string(values[0])
            return
        }
        beginArray()
        for value in values { string(value) }
        endArray()
    }
}
