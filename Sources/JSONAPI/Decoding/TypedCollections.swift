/// Resources of a parsed document seen as Swift models, decoded one at a time when read.
///
/// Making the collection costs nothing per resource (at most a scan of the type of each record
/// when filtering by type); element `i` is decoded when it is read, and again every time.
/// A collection of 100,000 resources from which you read three decodes three.
///
/// Subscripts cannot throw, so the collection's elements are `Result`s; the throwing accessors
/// are usually nicer:
///
/// ```swift
/// let articles = document.primary(as: Article.self)
/// articles.count                               // no decoding
/// let first = try articles.element(at: 0)      // decodes one
/// try articles.forEachDecoded { article in print(article.title) }
/// let all = try articles.decodeAll()           // [Article]
/// for case .success(let article) in articles { … }   // Results, never throws
/// ```
public struct TypedResourceCollection<Model: Decodable>: RandomAccessCollection, Sendable {
    enum Records: Sendable {
        case resources(first: UInt32, count: Int)
        case linkages(first: UInt32, count: Int)
        case list([UInt32])
    }

    let session: DecodingSession
    let records: Records

    init(session: DecodingSession, records: Records) {
        self.session = session
        self.records = records
    }

    /// Always 0.
    public var startIndex: Int { 0 }

    /// The number of resources.
    public var endIndex: Int {
        switch records {
        case .resources(_, let count), .linkages(_, let count): count
        case .list(let list): list.count
        }
    }

    func node(_ position: Int) -> Node {
        switch records {
        case .resources(let first, _): .resource(first &+ UInt32(position))
        case .linkages(let first, _): .linkage(first &+ UInt32(position))
        case .list(let list): .resource(list[position])
        }
    }

    /// Decodes the element at `position`, as a `Result` (subscripts cannot throw).
    ///
    /// - Complexity: One resource's decode.
    public subscript(position: Int) -> Result<Model, any Error> {
        Result { try element(at: position) }
    }

    /// Decodes the element at `position`.
    ///
    /// - Throws: `DecodingError` (located in the document) when the resource does not fit `Model`.
    /// - Precondition: `position` is a valid index (as for `Array`).
    public func element(at position: Int) throws -> Model {
        precondition(position >= 0 && position < endIndex, "TypedResourceCollection index out of range")
        return try session.run { decoder in try decoder.unbox(Model.self, node(position), key: .index(position)) }
    }

    /// The resource at `position` as a document view, without decoding it.
    public func resource(at position: Int) -> ResourceObject? {
        precondition(position >= 0 && position < endIndex, "TypedResourceCollection index out of range")
        switch node(position) {
        case .resource(let record): return ResourceObject(storage: session.storage, recordIndex: Int(record))
        case .linkage(let index):
            return ResourceIdentifierObject(storage: session.storage, recordIndex: Int(index)).resource
        default: return nil
        }
    }

    /// Decodes every element in order, calling `body` with each; stops at the first error.
    ///
    /// One decoder serves the whole walk, so this is the fastest way through a collection, and
    /// no element outlives its call: a caller that handles resources one at a time (writes rows,
    /// forwards them) holds one struct at a time instead of an array of all of them. Memory
    /// stays O(1) in the number of elements rather than O(n), and on large documents the values
    /// are freed while still in cache instead of all at once at the end.
    ///
    /// Resources are left out exactly as ``decodeAll()`` leaves them out (see
    /// ``DecodingOptions/ignoresUnhandledResourceTypes``); ``forEachDecodedReporting(_:)`` says
    /// which.
    public func forEachDecoded(_ body: (Model) throws -> Void) throws {
        try session.run { decoder in try walk(decoder, body) }
    }

    /// ``forEachDecoded(_:)``, then reports what was skipped; the report's value is the number of
    /// elements passed to `body`.
    ///
    /// ```swift
    /// var options = DecodingOptions()
    /// options.ignoresMissingResources = true
    /// let report = try document.primary(as: Article.self, options: options)
    ///     .forEachDecodedReporting { article in try store.insert(article) }
    /// report.value                                 // articles passed to the closure
    /// report.skipped                               // what was left out, and where
    /// ```
    public func forEachDecodedReporting(_ body: (Model) throws -> Void) throws -> DecodingReport<Int> {
        try session.run { decoder in
            var decoded = 0
            try walk(decoder) { model in
                try body(model)
                decoded &+= 1
            }
            return DecodingReport(
                value: decoded, skipped: decoder.skippedResources(), problems: decoder.decodingProblems(),
                document: Document(session: session))
        }
    }

    /// Decodes every element.
    ///
    /// With ``DecodingOptions/ignoresUnhandledResourceTypes``, resources a ``ResourceUnion``
    /// `Model` does not handle are left out. When the elements are handled one at a time,
    /// ``forEachDecoded(_:)`` is faster on large collections: it never holds them all.
    public func decodeAll() throws -> [Model] {
        try decodeAllReporting().value
    }

    /// Decodes every element and reports what was skipped.
    public func decodeAllReporting() throws -> DecodingReport<[Model]> {
        try session.run { decoder in
            var result: [Model] = []
            result.reserveCapacity(endIndex)
            // The loop of `walk`, written out: appending through a closure costs a copy of
            // each value and generic metadata lookups (7% more instructions per projection,
            // whether or not `walk` is marked `@inline(__always)`).
            let union = skippingUnion(decoder)
            for position in 0..<endIndex {
                let node = node(position)
                if leavesOut(node, at: position, union: union, decoder) { continue }
                if unsafe decoder.lenient {
                    if let model = try decodeLeniently(node, at: position, decoder) { result.append(model) }
                } else {
                    result.append(try decoder.unbox(Model.self, node, key: .index(position)))
                }
            }
            return DecodingReport(
                value: result, skipped: decoder.skippedResources(), problems: decoder.decodingProblems(),
                document: Document(session: session))
        }
    }

    /// The union a walk leaves resources out of: `Model`'s, when it is a ``ResourceUnion`` and
    /// ``DecodingOptions/ignoresUnhandledResourceTypes`` is set.
    @inline(__always)
    fileprivate func skippingUnion(_ decoder: ResourceDecoder) -> ResourceDecoder.TypeInfo.Union? {
        unsafe decoder.options.ignoresUnhandledResourceTypes ? decoder.union(decoder.typeInfo(Model.self)) : nil
    }

    /// Whether the resource at `node` (element `position`) is one `union` does not handle, which
    /// is then recorded as skipped.
    @inline(__always)
    fileprivate func leavesOut(
        _ node: Node, at position: Int, union: ResourceDecoder.TypeInfo.Union?, _ decoder: ResourceDecoder
    ) -> Bool {
        guard let union, case .resource(let record) = node, unsafe !union.handles(decoder.resources[Int(record)].type)
        else {
            return false
        }
        decoder.skip(
            linkage: .max, record: record, .unhandledType(union: union.name), key: .index(position), action: .leftOut)
        return true
    }

    /// Element `position` in a lenient decode: nil when it cannot be decoded, which is then
    /// recorded as a problem.
    @inline(never)
    fileprivate func decodeLeniently(_ node: Node, at position: Int, _ decoder: ResourceDecoder) throws -> Model? {
        let mark = decoder.recoveryMark
        do {
            return try decoder.unbox(Model.self, node, key: .index(position))
        } catch {
            if decoder.recover(error, since: mark, node: node, key: .index(position), action: .leftOut) { return nil }
            throw error
        }
    }

    /// Decodes every element with `decoder`, in order, passing each to `body`, and leaves out
    /// what ``leavesOut(_:at:union:_:)`` leaves out.
    private func walk(_ decoder: ResourceDecoder, _ body: (Model) throws -> Void) throws {
        let union = skippingUnion(decoder)
        for position in 0..<endIndex {
            let node = node(position)
            if leavesOut(node, at: position, union: union, decoder) { continue }
            if unsafe decoder.lenient {
                if let model = try decodeLeniently(node, at: position, decoder) { try body(model) }
            } else {
                try body(try decoder.unbox(Model.self, node, key: .index(position)))
            }
        }
    }

    /// An iterator whose `next()` decodes and can throw.
    public func makeDecodingIterator() -> DecodingIterator { DecodingIterator(collection: self) }

    /// Decodes the elements of a ``TypedResourceCollection`` one by one, leaving out what
    /// ``decodeAll()`` leaves out; ``skippedResources()`` says what.
    ///
    /// ```swift
    /// var iterator = articles.makeDecodingIterator()
    /// while let article = try iterator.next() { … }
    /// iterator.skippedResources()                  // what was left out on the way
    /// ```
    public struct DecodingIterator {
        let collection: TypedResourceCollection
        var position = 0
        /// Skips recorded by the calls to `next()` so far, not yet located in the document.
        var pending: [PendingSkip] = []
        /// Problems recorded by the calls to `next()` so far (their skip indices into `pending`).
        var pendingProblems: [PendingProblem] = []

        init(collection: TypedResourceCollection) {
            self.collection = collection
        }

        /// The next decoded element, or nil after the last.
        ///
        /// An element that fails to decode throws and is passed over, so iterating can go on.
        public mutating func next() throws -> Model? {
            guard position < collection.endIndex else { return nil }
            let collection = collection
            var position = position
            defer { self.position = position }
            let (result, skips) = collection.session.run { decoder in
                let union = collection.skippingUnion(decoder)
                let result = Result<Model?, any Error> {
                    while position < collection.endIndex {
                        defer { position += 1 }
                        let node = collection.node(position)
                        if collection.leavesOut(node, at: position, union: union, decoder) { continue }
                        if unsafe decoder.lenient {
                            guard let model = try collection.decodeLeniently(node, at: position, decoder) else {
                                continue
                            }
                            return model
                        }
                        return try decoder.unbox(Model.self, node, key: .index(position))
                    }
                    return nil
                }
                return unsafe (result, (decoder.skips, decoder.problems))
            }
            let base = pending.count
            pending += skips.0
            pendingProblems += skips.1.map { problem in
                var rebased = problem
                if rebased.skip >= 0 { rebased.skip += base }
                return rebased
            }
            return try result.get()
        }

        /// What the calls to ``next()`` so far left out, in order: resources a union model does
        /// not handle and missing resources, as the collection's options allow (see
        /// ``DecodingOptions``), located in the document.
        ///
        /// - Complexity: One pass over the document's bytes when something was skipped, so read
        ///   it after the walk rather than after every element.
        public func skippedResources() -> [SkippedResource] {
            guard !pending.isEmpty else { return [] }
            let pending = pending
            return collection.session.run { decoder in
                unsafe decoder.skips = pending
                return decoder.skippedResources()
            }
        }

        /// What the calls to ``next()`` so far worked around or left out, in order (see
        /// ``DecodingReport/problems``), located in the document.
        ///
        /// - Complexity: One pass over the document's bytes when something was skipped.
        public func problems() -> [DecodingProblem] {
            guard !pendingProblems.isEmpty else { return [] }
            let pending = pending
            let pendingProblems = pendingProblems
            return collection.session.run { decoder in
                unsafe decoder.skips = pending
                unsafe decoder.problems = pendingProblems
                return decoder.decodingProblems()
            }
        }
    }
}

/// A decoded value with the resources that were left out of it.
public struct DecodingReport<Value> {
    /// The decoded value.
    public var value: Value
    /// Resources left out because they were missing or of an unhandled type, in decode order.
    public var skipped: [SkippedResource]
    /// Everything that did not fit the models and what was done about it, in decode order: the
    /// ``skipped`` resources and, with ``DecodingOptions/Tolerance/lenient``, every value left
    /// out, read as absent or kept at its declared default (see ``DecodingProblem``).
    public var problems: [DecodingProblem]
    /// The parsed document the value came from, with the options it was decoded with as its
    /// ``Document/decodingOptions``: its typed views decode as the value did.
    public var document: Document
}

extension DecodingReport: Sendable where Value: Sendable {}

extension Document {
    /// The primary data as `Model`s, decoded lazily.
    ///
    /// ```swift
    /// let articles = document.primary(as: Article.self)
    /// let article = try articles.element(at: 3)
    /// ```
    ///
    /// A single resource gives a collection of one; `null` or no `data`, an empty one. For a
    /// relationship document, the elements are the identifiers (decode them as ``Identifier``,
    /// ``ResourceIdentifier``, or as models if the document includes the resources).
    public func primary<Model: Decodable>(as type: Model.Type, options: DecodingOptions? = nil)
        -> TypedResourceCollection<Model>
    {
        let top = storage.arena.topLevel
        let count = top.data == .one || top.data == .many ? Int(top.primaryCount) : 0
        let records: TypedResourceCollection<Model>.Records =
            top.primaryIsLinkage
            ? .linkages(first: top.primaryStart, count: count) : .resources(first: top.primaryStart, count: count)
        return TypedResourceCollection(session: session(options), records: records)
    }

    /// The `included` resources of `Model`'s type, decoded lazily.
    ///
    /// ```swift
    /// for case .success(let person) in document.included(of: Person.self) { print(person.name) }
    /// ```
    ///
    /// - Complexity: O(n) in the number of included resources to find those of the type.
    public func included<Model: JSONAPIResource & Decodable>(
        of type: Model.Type, options: DecodingOptions? = nil
    ) -> TypedResourceCollection<Model> {
        let top = storage.arena.topLevel
        return typed(Model.self, first: Int(top.includedStart), count: Int(top.includedCount), options: options)
    }

    /// Every resource of `Model`'s type, primary and included, decoded lazily.
    public func resources<Model: JSONAPIResource & Decodable>(
        of type: Model.Type, options: DecodingOptions? = nil
    ) -> TypedResourceCollection<Model> {
        typed(Model.self, first: 0, count: storage.arena.resources.count, options: options)
    }

    private func typed<Model: JSONAPIResource & Decodable>(
        _ type: Model.Type, first: Int, count: Int, options: DecodingOptions?
    ) -> TypedResourceCollection<Model> {
        let session = session(options)
        let resources = storage.arena.resources
        guard let typeIndex = storage.arena.types.index(of: Model.resourceType) else {
            return TypedResourceCollection(session: session, records: .list([]))
        }
        var list: [UInt32] = []
        for record in first..<min(first + count, resources.count) where resources[record].type == typeIndex {
            list.append(UInt32(record))
        }
        if list.count == count {
            return TypedResourceCollection(session: session, records: .resources(first: UInt32(first), count: count))
        }
        return TypedResourceCollection(session: session, records: .list(list))
    }

    /// The resource of `Model`'s type with this id, decoded; nil when the document has none.
    ///
    /// ```swift
    /// let author = try document.resource(Person.self, id: "9")
    /// ```
    ///
    /// - Complexity: O(1) to find it, then one resource's decode.
    public func resource<Model: JSONAPIResource & Decodable>(
        _ type: Model.Type, id: String, options: DecodingOptions? = nil
    ) throws -> Model? {
        guard let object = resource(type: Model.resourceType, id: id) else { return nil }
        let session = session(options)
        let record = UInt32(object.recordIndex)
        return try session.run { decoder in try decoder.unbox(Model.self, .resource(record), key: nil) }
    }

    /// Decodes the document as `T`, as ``JSONAPIDecoder/decode(_:from:)-(_,Document)`` does.
    public func decode<T: Decodable>(_ type: T.Type, options: DecodingOptions? = nil) throws -> T {
        try JSONAPIDecoder.decode(T.self, session: session(options)).value
    }
}
