/// Generates realistic, deterministic JSON:API compound documents of any size.
///
/// A document is a page of `articles` (primary data) with their authors (`people`), `comments`
/// and `tags` in `included`. It uses every JSON type and every common JSON:API member: string
/// ids, attributes with nested objects and arrays, nulls, doubles with exponents, raw multi-byte
/// UTF-8 and escape sequences (surrogate pairs included), to-one and to-many relationships with
/// `links`, `data` and `meta`, resource `links` and `meta`, top-level `links` (one a link object),
/// `meta` and `jsonapi`. The output is compact JSON, byte-for-byte the same for the same
/// resource count and seed.
///
/// The document has full linkage: every included resource is referenced by a relationship of a
/// primary resource, every linkage names a resource in the document, and no (type, id) pair
/// appears twice. Some people link back to their articles, so the resource graph has cycles.
///
/// ```swift
/// let generator = CompoundDocumentGenerator(
///     resources: CompoundDocumentGenerator.resourceCount(approximateBytes: 10_000_000), seed: 7)
/// let bytes = generator.generate()  // about 10 MB
///
/// // Or stream a huge document in 1 MiB chunks without holding it in memory:
/// try CompoundDocumentGenerator(resources: 1_000_000).write { chunk in
///     try file.write(contentsOf: chunk)
/// }
/// ```
public struct CompoundDocumentGenerator: Sendable, Hashable {
    /// The total number of resource objects in the document, primary and included.
    public let resources: Int
    /// The seed that fixes every random choice.
    public let seed: UInt64

    /// The number of primary resources (`articles` in `data`).
    public let primaryCount: Int
    /// The number of included `comments` resources.
    public let commentCount: Int
    /// The number of included `people` resources.
    public let personCount: Int
    /// The number of included `tags` resources (at most 200).
    public let tagCount: Int

    /// Whether the text of bodies, titles and names is mostly non-ASCII words (accented Latin,
    /// CJK, Greek, Cyrillic, emoji: about 60% of words) rather than the default mix, where
    /// about one word in twenty is. Benchmarks use it to measure text-heavy documents in other
    /// scripts. The numbers of resources of each type are the same either way.
    public var mostlyNonASCIIText = false

    /// What the resource ids look like (see ``IDScheme``). Default ``IDScheme/standard``: articles,
    /// comments and tags numbered from 1, people as UUIDs, as the generator has always written
    /// them. The other schemes change only the ids (the `self` links keep the standard ones), so
    /// the numbers of resources and the linkage are the same whatever the scheme.
    public var idScheme: IDScheme = .standard

    /// The number of included resources: ``commentCount`` + ``personCount`` + ``tagCount``.
    public var includedCount: Int { commentCount + personCount + tagCount }

    /// Creates a generator for a document of exactly `resources` resource objects.
    ///
    /// The resources are split roughly as articles 1 : comments 4 : people 0.5, plus up to 200
    /// tags. A document of one resource is a single article; zero resources give empty `data`.
    ///
    /// ```swift
    /// let generator = CompoundDocumentGenerator(resources: 1_000, seed: 3)
    /// print(generator.primaryCount, generator.includedCount)  // 178 822
    /// ```
    ///
    /// - Parameters:
    ///   - resources: The total number of resource objects, at least 0.
    ///   - seed: Fixes every random choice; the same seed always gives the same bytes.
    public init(resources: Int, seed: UInt64 = 1) {
        precondition(resources >= 0, "a document cannot hold a negative number of resources")
        self.resources = resources
        self.seed = seed
        let tags = Swift.min(200, resources / 40)
        let rest = resources - tags
        let articles = rest == 0 ? 0 : Swift.max(1, (2 * rest + 10) / 11)
        let people = Swift.min(rest - articles, articles / 2)
        self.tagCount = tags
        self.primaryCount = articles
        self.personCount = people
        self.commentCount = rest - articles - people
    }

    /// The type and the decoded id of the resource at `position` in document order: the
    /// articles of `data`, then the comments, people and tags of `included`.
    ///
    /// ```swift
    /// var generator = CompoundDocumentGenerator(resources: 100, seed: 1)
    /// generator.idScheme = .sequential(start: 100_000)
    /// generator.identifier(ofResourceAt: 0)   // (type: "articles", id: "100000")
    /// ```
    ///
    /// - Parameter position: A position in `0..<resources`.
    /// - Returns: The resource's `type` and its `id` with escapes resolved, as a parser reports it.
    public func identifier(ofResourceAt position: Int) -> (type: String, id: String) {
        precondition(position >= 0 && position < resources, "position out of range")
        let ids = IDWriter(scheme: idScheme, seed: seed)
        let bounds: [(GeneratedKind, Int)] = [
            (.article, primaryCount), (.comment, commentCount), (.person, personCount), (.tag, tagCount),
        ]
        var index = position
        for (kind, count) in bounds {
            if index < count { return (kind.typeName, ids.id(kind, index)) }
            index -= count
        }
        preconditionFailure("position out of range")
    }

    /// The average size of an article, comment or person, measured over large documents.
    static let averageResourceBytes = 1_000
    /// The average size of a tag, which is much smaller.
    static let averageTagBytes = 70

    /// How many resources give a document of about `approximateBytes` bytes.
    ///
    /// Measured sizes stay within a few percent of the request from about 100 KB up
    /// (1,023 resources make about 1 MB, 100,186 about 100 MB); read the `count` of
    /// ``generate()`` when the exact size matters.
    ///
    /// ```swift
    /// let count = CompoundDocumentGenerator.resourceCount(approximateBytes: 100_000_000)
    /// let huge = CompoundDocumentGenerator(resources: count)  // about 100 MB
    /// ```
    public static func resourceCount(approximateBytes: Int) -> Int {
        let tags = Swift.min(200, Swift.max(0, approximateBytes / averageResourceBytes) / 40)
        let tagAllowance = tags * (averageResourceBytes - averageTagBytes)
        return Swift.max(1, (approximateBytes + tagAllowance + averageResourceBytes / 2) / averageResourceBytes)
    }

    /// Generates the whole document in memory.
    ///
    /// ```swift
    /// let bytes = CompoundDocumentGenerator(resources: 500, seed: 9).generate()
    /// ```
    ///
    /// - Returns: The document's UTF-8 bytes, the same as the concatenated chunks of ``write(chunkSize:to:)``.
    public func generate() -> [UInt8] {
        var result: [UInt8] = []
        result.reserveCapacity(resources * (Self.averageResourceBytes + Self.averageResourceBytes / 8) + 4096)
        write(chunkSize: 1 << 22) { chunk in
            result.append(contentsOf: chunk)
        }
        return result
    }

    /// Streams the document to `sink` in chunks, keeping memory bounded whatever the document's size.
    ///
    /// Every chunk but the last holds exactly `chunkSize` bytes; the last holds the rest (at least
    /// one byte). A chunk is valid only during its call to `sink`. Memory use is about `chunkSize`
    /// plus a few tens of kilobytes.
    ///
    /// ```swift
    /// var size = 0
    /// CompoundDocumentGenerator(resources: 100_000).write(chunkSize: 1 << 16) { chunk in
    ///     size += chunk.count
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - chunkSize: The size of every chunk but the last, at least 1. Default 1 MiB.
    ///   - sink: Receives the chunks in order; an error it throws stops the generation.
    public func write(
        chunkSize: Int = 1 << 20,
        to sink: (UnsafeRawBufferPointer) throws -> Void
    ) rethrows {
        precondition(chunkSize > 0, "chunkSize must be positive")
        var producer = DocumentProducer(generator: self, bufferCapacity: chunkSize + DocumentProducer.slack)
        defer { producer.deallocate() }
        var finished = false
        while !finished {
            finished = producer.fill(upTo: chunkSize)
            var offset = 0
            let available = producer.output.count
            while available - offset >= chunkSize {
                try sink(UnsafeRawBufferPointer(rebasing: producer.output.bytes[offset..<offset + chunkSize]))
                offset += chunkSize
            }
            if finished && offset < available {
                try sink(UnsafeRawBufferPointer(rebasing: producer.output.bytes[offset..<available]))
                offset = available
            }
            producer.output.removeFirst(offset)
        }
    }
}
