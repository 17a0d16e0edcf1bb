#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

// Two encoders turn models into resource objects for `DocumentEncoder`:
//
// - `StreamingEncoder` (StreamingEncoder.swift, StreamingEncoder+Containers.swift, StreamBuffer.swift)
//   writes each member value as compact JSON text the moment the model hands it over, into one
//   byte buffer reused for every resource; `writeStreamed` copies the resource's ranges out of
//   it. No `EncodedValue` is built: this is the fast path.
// - `ResourceEncoder` (ResourceEncoder.swift, ResourceEncoder+Values.swift) captures a resource
//   as a tree of `EncodedValue`s, written afterwards by `JSONWriter`.
//
// `EncodingContext.streams` picks the stream unless keys are sorted, output is pretty-printed,
// or the key, date or data strategy is `.custom`. The stream cannot do those: it writes members
// in the order the model encodes them and only as compact text, while sorting and indenting
// need the whole value first; and it converts member names and boxes dates and data with an
// empty coding path, while a custom strategy's closure must be given the real one.
//
// With streaming on, the tree still encodes:
// - a model whose `encode(to:)` the stream cannot follow (a container opened on the resource's
//   own container, a resource that is not a keyed container, a write to a container after its
//   parent moved on, `superEncoder(forKey:)` or a nested value's `superEncoder()`): the stream
//   sets `needsTree`, and `makeRecord` encodes the model again as a tree;
// - primary data that is neither a model nor an array of one model type (unions, existentials):
//   `writePrimary` records every primary identity before it writes any resource, and the
//   stream's buffer holds one resource at a time;
// - the top-level `meta` and `links` (`EncodingContext.box`).
//
// Both write the same JSON for the same model; `EncoderStreamingTests` and
// `EncoderRoundTripTests` compare them.

/// Encodes `Encodable` models as JSON:API documents: the mirror of ``JSONAPIDecoder``.
///
/// A model is a `JSONAPIResource & Encodable` struct. Its `id` and `lid` go to the resource
/// object, `meta` and `links` to the resource's own `meta` and `links`, properties holding models,
/// ``ResourceUnion``s, identifiers (``Identifier``, ``ResourceIdentifier``, ``UnionIdentifier``)
/// or ``Lazy`` references, optionally inside an `Optional` or ``Field`` and then an `Array`, or
/// ``Related`` values, to `relationships` as linkage, and every other property to `attributes`
/// (so `[[Person]]` and `[Person?]`, which cannot be linkage, are attribute values). The same
/// rule decides which members ``ResourceShape`` publishes as relationships. A ``Related`` of
/// another type (a ``JSON``, say) writes its value as the relationship's `data`, which must then
/// be `null`, a resource identifier object or an array of them. Keys such as
/// `"author.meta"` / `"author.links"` give a relationship's `meta` / `links`, and
/// `"attributes.x"` / `"relationships.x"` force a section, as in decoding. A to-one relationship
/// that is `nil` (`var author: Person?`, `Identifier<Person>?`) is written as
/// `"author": {"data": null}`, known-empty linkage; a ``Field`` that is ``Field/absent`` leaves
/// the relationship out altogether, and an update body (``encodeUpdate(_:meta:)``) leaves out
/// every `nil`.
///
/// Related models go into `included`: those on the paths of ``EncodingOptions/includePaths``
/// (the request's `include`, see ``EncodingOptions/init(query:)``) when it is set, otherwise
/// every related model present while ``EncodingOptions/includesRelatedByDefault`` is `true` (the
/// default, so `JSONAPIEncoder().encode(articles)` decodes back into the same articles), and
/// none for options made for a request without `include`. Each is written once (deduplicated by type
/// and id, safe on cyclic graphs: the graph is walked with a worklist, never by recursion), so
/// the output has full linkage and parses strictly with
/// ``Document/init(parsing:options:)-(Bytes,_)``.
///
/// ```swift
/// struct Person: Codable, JSONAPIResource {
///     static let resourceType = "people"
///     var id: String
///     var name: String
/// }
/// struct Article: Codable, JSONAPIResource {
///     static let resourceType = "articles"
///     var id: String
///     var title: String
///     var author: Person                  // linkage, and the person in `included`
///     var tags: [Identifier<Tag>]         // linkage only
/// }
///
/// let encoder = JSONAPIEncoder()
/// encoder.options.includePaths = ["author"]
/// let bytes = try encoder.encode([article], meta: ["total": 1])
/// let back = try JSONAPIDecoder().decode([Article].self, from: bytes)
/// ```
///
/// Errors are `EncodingError`s; the bytes are written by ``JSONWriter``.
public final class JSONAPIEncoder: Sendable {
    private let state: Locked<EncodingOptions>

    /// Creates an encoder.
    public init(options: EncodingOptions = EncodingOptions()) {
        state = Locked(options)
    }

    /// All the settings at once.
    public var options: EncodingOptions {
        get { state.withLock { $0 } }
        set { state.withLock { $0 = newValue } }
    }

    /// See ``EncodingOptions/keyEncodingStrategy``.
    public var keyEncodingStrategy: EncodingOptions.KeyEncodingStrategy {
        get { options.keyEncodingStrategy }
        set { state.withLock { $0.keyEncodingStrategy = newValue } }
    }

    /// See ``EncodingOptions/dateEncodingStrategy``.
    public var dateEncodingStrategy: EncodingOptions.DateEncodingStrategy {
        get { options.dateEncodingStrategy }
        set { state.withLock { $0.dateEncodingStrategy = newValue } }
    }

    /// See ``EncodingOptions/includePaths``.
    public var includePaths: Set<String>? {
        get { options.includePaths }
        set { state.withLock { $0.includePaths = newValue } }
    }

    /// See ``EncodingOptions/fields``.
    public var fields: [String: Set<String>] {
        get { options.fields }
        set { state.withLock { $0.fields = newValue } }
    }

    /// Encodes a document whose primary data is `value`.
    ///
    /// `value` may be a model, an array of models, an optional model (`nil` writes
    /// `"data": null`), a ``ResourceUnion`` or an array of one, or identifiers (a relationship
    /// document: `[Identifier<Tag>]`, `Identifier<Person>?`).
    ///
    /// ```swift
    /// let bytes = try JSONAPIEncoder().encode(
    ///     articles, meta: PageMeta(total: 40), links: ["next": "/articles?page=2"],
    ///     jsonapi: JSONAPIImplementationInfo(version: "1.1", profiles: ["https://example.com/profiles/timestamps"]))
    /// ```
    ///
    /// - Parameters:
    ///   - value: The primary data.
    ///   - meta: The top-level `meta`, any `Encodable` that encodes an object.
    ///   - links: The top-level `links`.
    ///   - jsonapi: The top-level `jsonapi` object: `version`, `ext`, `profile` and `meta`.
    ///   - jsonapiVersion: Shorthand for a `jsonapi` object with only this `version`; ignored
    ///     when `jsonapi` is given.
    ///   - included: Further models (or unions) for `included`, after those found through
    ///     relationships; duplicates are left out.
    /// - Returns: UTF-8 JSON.
    public func encode<T: Encodable>(
        _ value: T, meta: (any Encodable)? = nil, links: (any Encodable)? = nil,
        jsonapi: JSONAPIImplementationInfo? = nil,
        jsonapiVersion: String? = nil, included: [any Encodable] = []
    ) throws -> [UInt8] {
        var document = DocumentEncoder(options: options, mode: .document)
        return try document.encode(
            value, meta: meta, links: links,
            jsonapi: jsonapi ?? jsonapiVersion.map { JSONAPIImplementationInfo(version: $0) },
            included: included)
    }

    /// ``encode(_:meta:links:jsonapi:jsonapiVersion:included:)`` as `Data`.
    ///
    /// ```swift
    /// request.httpBody = try JSONAPIEncoder().encodeData(article)
    /// ```
    public func encodeData<T: Encodable>(
        _ value: T, meta: (any Encodable)? = nil, links: (any Encodable)? = nil,
        jsonapi: JSONAPIImplementationInfo? = nil,
        jsonapiVersion: String? = nil, included: [any Encodable] = []
    ) throws -> Data {
        Data(
            try encode(
                value, meta: meta, links: links, jsonapi: jsonapi, jsonapiVersion: jsonapiVersion, included: included))
    }
}

/// Writes one document: the primary data, then `included` from a worklist.
struct DocumentEncoder {
    enum Mode {
        /// A response-style document: related models go to `included`.
        case document
        /// A request body creating a resource: no `included`, the `id` only when not empty.
        case create
        /// A request body updating a resource: no `included`; an `id` is required.
        case update
    }

    let context: EncodingContext
    let mode: Mode
    /// Every include path and its prefixes; nil to include everything present.
    let includeSet: Set<String>?
    var emitted: Set<ResourceKey> = []
    var visited: Set<VisitKey> = []
    var queue: [(model: any JSONAPIResource & Encodable, path: String, emit: Bool)] = []
    var writer: JSONWriter
    /// Whether the `included` array has been started.
    var includedOpen = false
    /// The resources of the primary data (written one by one, an array of models) that were
    /// queued for `included` through a relationship before they were written: those are left
    /// out of `included`. A primary resource not queued by then never is (it is in `emitted`).
    var primaryKeys: Set<ResourceKey> = []
    /// Writes resources as their models encode them, when the options allow (else nil).
    let stream: StreamingEncoder?

    struct VisitKey: Hashable {
        var resource: ResourceKey
        var path: String
    }

    init(options: EncodingOptions, mode: Mode) {
        context = EncodingContext(options: options)
        context.writesNilToOne = mode != .update
        self.mode = mode
        if mode != .document {
            includeSet = []
        } else if let paths = options.includePaths {
            var set: Set<String> = []
            for path in paths {
                var prefix = ""
                for part in path.split(separator: ".", omittingEmptySubsequences: false) {
                    prefix = prefix.isEmpty ? String(part) : prefix + "." + part
                    set.insert(prefix)
                }
            }
            includeSet = set
        } else {
            // No `include` asked: everything present, unless the options answer a request.
            includeSet = options.includesRelatedByDefault ? nil : []
        }
        writer = JSONWriter(options: options.formatting, reservingCapacity: 4096)
        stream = context.streams ? StreamingEncoder(context: context) : nil
    }

    mutating func encode<T: Encodable>(
        _ value: T, meta: (any Encodable)?, links: (any Encodable)?, jsonapi: JSONAPIImplementationInfo?,
        included: [any Encodable]
    ) throws -> [UInt8] {
        // The stream's spare value encoders and resource containers refer back to it.
        defer {
            stream?.releaseReusables()
            context.releaseSpareEncoders()
        }
        writer.beginObject()
        writer.key("data")
        try writePrimary(value)
        // Each related resource is written as soon as it is encoded, while its values are hot.
        var head = 0
        try drainQueue(&head)
        // Models given in `included` come after those found through relationships, and bring
        // what they relate to (their own relationships are their paths' roots).
        unsafe try included.withUnsafeBufferPointer { included in
            unsafe try includeAll(included, head: &head)
        }
        if includedOpen {
            writer.endArray()
        } else if mode == .document, let paths = context.options.includePaths, !paths.isEmpty {
            // JSON:API 1.1: the response to a request with `include` has `included`, even empty.
            writer.key("included")
            writer.beginArray()
            writer.endArray()
        }
        if let meta {
            writer.key("meta")
            try context.box(meta, path: []).write(to: &writer, sorted: context.sorted)
        }
        if let links {
            writer.key("links")
            try context.box(links, path: []).write(to: &writer, sorted: context.sorted)
        }
        if let jsonapi {
            writer.key("jsonapi")
            jsonapi.write(to: &writer, sortingKeys: context.sorted)
        }
        writer.endObject()
        return try writer.finish()
    }

    /// Writes the models given in `included` that are not written yet, and what they relate to.
    private mutating func includeAll(_ included: UnsafeBufferPointer<any Encodable>, head: inout Int) throws {
        // Included models usually come grouped by type: the last type's answer is reused.
        var lastType: ObjectIdentifier?
        var lastResourceType: String?
        for index in included.indices {
            let element = unsafe included[index]
            // The model's type by a metatype cast: no copy of the value into a new box.
            let elementType = ObjectIdentifier(type(of: element))
            if elementType != lastType {
                lastType = elementType
                lastResourceType = (type(of: element) as? any JSONAPIResource.Type)?.resourceType
            }
            let resourceType = lastResourceType
            if let resourceType {
                try include(element, resourceType: resourceType, head: &head)
            } else {
                var extra = LinkageBuilder(context: context, resolvesIdentity: false)
                try extra.addValue(element)
                for model in extra.references.compactMap(\.model) {
                    try include(model, resourceType: Swift.type(of: model).resourceType, head: &head)
                }
            }
        }
    }

    /// Writes a model given in `included` (unless already written) and what it relates to.
    private mutating func include<Model: Encodable>(_ model: Model, resourceType: String, head: inout Int) throws {
        let record = try makeRecord(model, resourceType: resourceType)
        // Every primary resource is in `emitted` by now: a new key is not one of them.
        guard emitted.insert(key(of: record)).inserted else { return }
        try writeIncluded(record, mayBePrimary: false)
        enqueueRelated(of: record, path: "")
        try drainQueue(&head)
    }

    /// Encodes and writes the queued related models from `head` on, and what they queue.
    private mutating func drainQueue(_ head: inout Int) throws {
        while head < queue.count {
            let item = queue[head]
            head += 1
            let record = try encodeResource(item.model, path: item.path)
            if item.emit { try writeIncluded(record) }
        }
    }

    /// Writes one resource of `included`, starting the array before the first; a resource of
    /// the primary data (queued through a relationship before it was written) is left out.
    private mutating func writeIncluded(_ record: EncodedRecord, mayBePrimary: Bool = true) throws {
        if mayBePrimary && !primaryKeys.isEmpty && primaryKeys.contains(key(of: record)) { return }
        if !includedOpen {
            writer.key("included")
            writer.beginArray()
            includedOpen = true
        }
        try write(record)
    }

    /// Makes room for the keys of `primaryCount` primary resources (and as many related ones),
    /// so the key set does not grow one doubling at a time.
    mutating func reserveCapacity(primaryCount: Int) {
        emitted.reserveCapacity(emitted.count + 2 * primaryCount)
    }

    /// Writes one resource of the primary data.
    mutating func writePrimaryRecord(_ record: EncodedRecord) throws {
        let key = key(of: record)
        if !emitted.insert(key).inserted { primaryKeys.insert(key) }
        enqueueRelated(of: record, path: "")
        try write(record)
    }

    /// Writes `data`: a resource, an array of them, null, or identifiers.
    private mutating func writePrimary<T: Encodable>(_ value: T) throws {
        // Arrays of one model type, and single models: no linkage builder, no existential per model.
        if let array = value as? any EncodableModelArray {
            writer.beginArray()
            try array.writeRecords(into: &self)
            writer.endArray()
            return
        }
        if let model = value as? any JSONAPIResource & Encodable {
            let record = try makeRecord(model)
            emitted.insert(key(of: record))
            enqueueRelated(of: record, path: "")
            try write(record)
            return
        }
        var primary = LinkageBuilder(context: context, resolvesIdentity: false)
        try primary.addValue(value)
        let models = primary.references.compactMap(\.model)
        if models.isEmpty {
            // Identifiers: a relationship document (or `null`).
            try writeLinkage(primary)
            return
        }
        guard models.count == primary.references.count else {
            throw EncodingError.invalidValue(
                value,
                EncodingError.Context(codingPath: [], debugDescription: "primary data mixes models and identifiers"))
        }
        // Every identity is known before any resource is written: the tree encoder.
        var records: [ResourceEncoder] = []
        records.reserveCapacity(models.count)
        for model in models {
            let record = try makeTreeRecord(model, resourceType: Swift.type(of: model).resourceType)
            emitted.insert(record.key)
            records.append(record)
        }
        if primary.isToMany { writer.beginArray() }
        for record in records {
            enqueueRelated(of: .tree(record), path: "")
            try write(.tree(record))
        }
        if primary.isToMany { writer.endArray() }
    }

    func makeRecord<Model: JSONAPIResource & Encodable>(_ model: Model) throws -> EncodedRecord {
        try makeRecord(model, resourceType: Model.resourceType)
    }

    /// Encodes `model`: through the stream when it can follow the model, else as a tree.
    ///
    /// A model that uses its containers out of order is encoded a second time, as a tree.
    func makeRecord<Model: Encodable>(_ model: Model, resourceType: String) throws -> EncodedRecord {
        guard let stream else { return .tree(try makeTreeRecord(model, resourceType: resourceType)) }
        stream.begin(resourceType: resourceType)
        try model.encode(to: stream)
        if unsafe stream.needsTree { return .tree(try makeTreeRecord(model, resourceType: resourceType)) }
        if let failure = unsafe stream.failure { throw failure }
        if unsafe mode == .update && (stream.id ?? "").isEmpty {
            throw EncodingError.invalidValue(
                model,
                EncodingError.Context(codingPath: [], debugDescription: "an update needs the resource's id"))
        }
        return .streamed
    }

    func makeTreeRecord<Model: Encodable>(_ model: Model, resourceType: String) throws -> ResourceEncoder {
        let record = ResourceEncoder(context: context, resourceType: resourceType)
        try model.encode(to: record)
        if let failure = record.failure { throw failure }
        if mode == .update && (record.id ?? "").isEmpty {
            throw EncodingError.invalidValue(
                model,
                EncodingError.Context(codingPath: [], debugDescription: "an update needs the resource's id"))
        }
        return record
    }

    /// Encodes a related model taken from the worklist and queues what it relates to.
    private mutating func encodeResource(_ model: any JSONAPIResource & Encodable, path: String) throws
        -> EncodedRecord
    {
        let record = try makeRecord(model)
        enqueueRelated(of: record, path: path)
        return record
    }

    /// The identity of an encoded resource.
    func key(of record: EncodedRecord) -> ResourceKey {
        switch record {
        case .tree(let record): record.key
        case .streamed:
            // `stream` is set whenever a record is streamed.
            unsafe ResourceKey(type: stream?.resourceType ?? "", id: stream?.id, lid: stream?.lid)
        }
    }

    /// Queues the models of `record`'s relationships that the include paths select.
    private mutating func enqueueRelated(of record: EncodedRecord, path: String) {
        guard includeSet?.isEmpty != true else { return }
        switch record {
        case .tree(let record):
            let fieldset = context.options.fields[record.resourceType]
            for index in record.relationships.indices {
                guard record.relationships[index].hasModels,
                    let references = record.relationships[index].linkage?.references
                else { continue }
                let name = record.relationships[index].name
                if let fieldset, !fieldset.contains(name) { continue }
                enqueue(references, name: name, path: path)
            }
        case .streamed:
            // The stream leaves out relationships outside the fieldset altogether.
            guard let stream else { return }
            for index in unsafe stream.relationships.indices
            where unsafe !stream.relationships[index].references.isEmpty {
                unsafe enqueue(
                    stream.relationships[index].references, name: stream.relationships[index].name, path: path)
            }
        }
    }

    /// Queues the models of one relationship, if the include paths select it.
    private mutating func enqueue(_ references: [LinkageReference], name: String, path: String) {
        var childPath = ""
        if let includeSet {
            childPath = path.isEmpty ? name : path + "." + name
            guard includeSet.contains(childPath) else { return }
        }
        for reference in references {
            guard let model = reference.model else { continue }
            let key = reference.key
            if includeSet == nil {
                if emitted.insert(key).inserted { queue.append((model, "", true)) }
            } else {
                let emit = emitted.insert(key).inserted
                if visited.insert(VisitKey(resource: key, path: childPath)).inserted {
                    queue.append((model, childPath, emit))
                }
            }
        }
    }

    /// Writes a resource object.
    private mutating func write(_ record: EncodedRecord) throws {
        switch record {
        case .tree(let record): try write(record)
        case .streamed:
            guard let stream else { return }
            try writeStreamed(stream)
        }
    }

    /// The `id` and `lid` a resource object writes beside its `type`: an empty `id` is left out
    /// of a create body, and beside a `lid`; a resource with neither fails outside a create body.
    func identityMembers(type: String, id: String?, lid: String?) throws -> (id: String?, lid: String?) {
        if let id, !(id.isEmpty && (mode == .create || lid != nil)) { return (id, lid) }
        if id == nil && lid == nil && mode != .create {
            throw EncodingError.invalidValue(
                type, EncodingError.Context(codingPath: [], debugDescription: "a `\(type)` resource has no id"))
        }
        return (nil, lid)
    }

    /// Writes `type`, `id` and `lid`, after the resource object's `{`.
    private mutating func writeIdentity(type: String, id: String?, lid: String?) throws {
        let identity = try identityMembers(type: type, id: id, lid: lid)
        writer.key(literal: "type")
        writer.string(type)
        if let id = identity.id {
            writer.key(literal: "id")
            writer.string(id)
        }
        if let lid = identity.lid {
            writer.key(literal: "lid")
            writer.string(lid)
        }
    }

    /// Writes the resource the stream holds: assembled by the stream from the JSON text of its
    /// members, and handed to the writer as one value.
    private mutating func writeStreamed(_ stream: StreamingEncoder) throws {
        let identity = unsafe try identityMembers(type: stream.resourceType, id: stream.id, lid: stream.lid)
        stream.assembleObject(id: identity.id, lid: identity.lid)
        unsafe stream.object.withBytes { unsafe writer.rawValue($0) }
    }

    /// Writes a resource encoded as a tree.
    private mutating func write(_ record: ResourceEncoder) throws {
        let sorted = context.sorted
        let fieldset = context.options.fields[record.resourceType]
        writer.beginObject()
        try writeIdentity(type: record.resourceType, id: record.id, lid: record.lid)
        let attributes = record.attributes
        if fieldset == nil && !sorted {
            if !attributes.keys.isEmpty {
                writer.key("attributes")
                writer.beginObject()
                for index in attributes.keys.indices {
                    writer.key(attributes.keys[index])
                    try attributes.values[index].write(to: &writer, sorted: false)
                }
                writer.endObject()
            }
        } else {
            var attributeIndices = Array(attributes.keys.indices)
            if let fieldset { attributeIndices.removeAll { !fieldset.contains(attributes.keys[$0]) } }
            if sorted {
                attributeIndices.sort { attributes.keys[$0].utf8.lexicographicallyPrecedes(attributes.keys[$1].utf8) }
            }
            if !attributeIndices.isEmpty {
                writer.key("attributes")
                writer.beginObject()
                for index in attributeIndices {
                    writer.key(attributes.keys[index])
                    try attributes.values[index].write(to: &writer, sorted: sorted)
                }
                writer.endObject()
            }
        }
        var relationships = record.relationships
        if let fieldset { relationships.removeAll { !fieldset.contains($0.name) } }
        if sorted { relationships.sort { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) } }
        if !relationships.isEmpty {
            writer.key("relationships")
            writer.beginObject()
            for index in relationships.indices {
                writer.key(relationships[index].name)
                writer.beginObject()
                if relationships[index].linkage != nil {
                    writer.key("data")
                    try writeLinkage(relationships[index].linkage)
                }
                if let links = relationships[index].links {
                    writer.key("links")
                    try links.write(to: &writer, sorted: sorted)
                }
                if let meta = relationships[index].meta {
                    writer.key("meta")
                    try meta.write(to: &writer, sorted: sorted)
                }
                writer.endObject()
            }
            writer.endObject()
        }
        if let links = record.links {
            writer.key("links")
            try links.write(to: &writer, sorted: sorted)
        }
        if let meta = record.meta {
            writer.key("meta")
            try meta.write(to: &writer, sorted: sorted)
        }
        writer.endObject()
    }

    /// Writes linkage: `null`, one resource identifier object, or an array of them.
    private mutating func writeLinkage(_ linkage: LinkageBuilder?) throws {
        guard let linkage else { return }
        if linkage.isToMany {
            writer.beginArray()
            for reference in linkage.references { writeIdentifier(reference) }
            writer.endArray()
        } else if let reference = linkage.references.first {
            writeIdentifier(reference)
        } else {
            writer.null()
        }
    }

    private mutating func writeIdentifier(_ reference: LinkageReference) {
        writer.beginObject()
        writer.key("type")
        writer.string(reference.type)
        if let id = reference.id {
            writer.key("id")
            writer.string(id)
        }
        if let lid = reference.lid {
            writer.key("lid")
            writer.string(lid)
        }
        if let meta = reference.meta, !meta.isAbsent {
            writer.key("meta")
            JSON(meta).write(to: &writer, sortingKeys: context.sorted)
        }
        writer.endObject()
    }
}

extension ResourceEncoder {
    var key: ResourceKey { ResourceKey(type: resourceType, id: id, lid: lid) }
}

/// A resource encoded by ``DocumentEncoder/makeRecord(_:resourceType:)``, ready to write.
enum EncodedRecord {
    /// Captured as values.
    case tree(ResourceEncoder)
    /// Held by the document's ``StreamingEncoder`` until the next resource is encoded.
    case streamed
}

/// Arrays of one model type, encoded as primary data without an existential per element.
protocol EncodableModelArray {
    func writeRecords(into document: inout DocumentEncoder) throws
}

extension Array: EncodableModelArray where Element: JSONAPIResource & Encodable {
    func writeRecords(into document: inout DocumentEncoder) throws {
        document.reserveCapacity(primaryCount: count)
        // Elements are borrowed from the buffer, not copied out (a copy retains every member).
        unsafe try withUnsafeBufferPointer { elements in
            for index in elements.indices {
                unsafe try document.writePrimaryRecord(try document.makeRecord(elements[index]))
            }
        }
    }
}
