// Concurrent use of the library, for ThreadSanitizer (scripts/tsan builds this with
// --sanitize=thread and fails on any report). Tasks read one shared `Document` at the same time
// (views, lookups, relationship resolution, writing, typed decoding lazily and eagerly,
// `JSONAPIDecoder`) while others parse documents of 2 MiB and more, whole and in chunks, so that
// the memory shelves (`ArenaShelf`, the `ResourceDecoder` shelf) are taken from and put back to
// by many threads. Every task's answers are compared with one computed up front, alone.
//
// Then the client's `ResourceStore`, bounded so that it evicts all the time: tasks merge whole
// versions of the same resources, read them back, decode them as models (relationships resolved
// in the store), follow relationships and remove resources, all at once. Every read must be one
// version that some task wrote, never a mix of two.
import Foundation
import JSONAPI
import JSONAPIClient

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

let started = ContinuousClock.now

/// A failed comparison: printed, and the program exits 1 at the end.
func fail(_ message: String) -> Never {
    print("jsonapi-concurrency-check: FAILED: \(message)")
    exit(1)
}

// MARK: Documents

/// A compound document of `articles` articles, each with an author and two comments, all
/// included; `seed` changes the text so that documents differ.
func makeDocument(articles: Int, seed: Int) -> [UInt8] {
    var text = #"{"jsonapi":{"version":"1.1"},"meta":{"seed":\#(seed),"total":\#(articles)},"#
    text += #""links":{"self":"https://example.com/articles?seed=\#(seed)"},"data":["#
    let people = max(1, articles / 4)
    for index in 0..<articles {
        if index > 0 { text += "," }
        let person = (index &* 7 &+ seed) % people
        text += #"{"type":"articles","id":"\#(index)","attributes":{"title":"Article \#(index) \u00e9 \#(seed)","#
        text += #""rating":\#(Double(index % 50) / 10),"tags":["a","b"]},"relationships":{"#
        text += #""author":{"data":{"type":"people","id":"p\#(person)"}},"#
        text += #""comments":{"data":[{"type":"comments","id":"c\#(2 * index)"},"#
        text += #"{"type":"comments","id":"c\#(2 * index + 1)"}]},"labels":{"data":[{"type":"tags","id":"t1"}]}},"#
        text += #""links":{"self":"https://example.com/articles/\#(index)"}}"#
    }
    text += #"],"included":["#
    for person in 0..<people {
        if person > 0 { text += "," }
        text += #"{"type":"people","id":"p\#(person)","attributes":{"name":"Person \#(person)","age":\#(person % 90)}}"#
    }
    for comment in 0..<(2 * articles) {
        let person = comment % people
        text += #",{"type":"comments","id":"c\#(comment)","attributes":{"body":"Comment \#(comment) \#(seed)"},"#
        text += #""relationships":{"author":{"data":{"type":"people","id":"p\#(person)"}}}}"#
    }
    text += "]}"
    return Array(text.utf8)
}

// MARK: Models (hand-written: no macro)

struct Person: Decodable, JSONAPIResource, Equatable {
    static let resourceType = "people"
    var id: String
    var name: String
    var age: Int
}

struct Comment: Decodable, JSONAPIResource, Equatable {
    static let resourceType = "comments"
    var id: String
    var body: String
    var author: Person?
}

struct Tag: JSONAPIResource {
    static let resourceType = "tags"
}

struct Article: Decodable, JSONAPIResource {
    static let resourceType = "articles"
    var id: String
    var title: String
    var rating: Double
    var tags: [String]
    var author: Lazy<Person>
    var comments: [Comment]
}

// MARK: Reading a document

/// What one reader saw; two readers of the same document must see the same.
struct Reading: Equatable {
    var resources = 0
    var titles: UInt64 = 0
    var lookups = 0
    var resolved: UInt64 = 0
    var written: UInt64 = 0
    /// The pretty, sorted output: written by every third reader only (it is slow under TSan).
    var pretty: UInt64?
    var typed: UInt64 = 0
    var diagnostics = 0

    /// Equal, except for `pretty` when either reader left it out.
    func agrees(with other: Reading) -> Bool {
        var mine = self
        var theirs = other
        if mine.pretty == nil || theirs.pretty == nil {
            mine.pretty = nil
            theirs.pretty = nil
        }
        return mine == theirs
    }
}

/// FNV-1a over a string's bytes, mixed into `hash`.
func mix(_ hash: inout UInt64, _ text: String) {
    if hash == 0 { hash = 0xcbf2_9ce4_8422_2325 }
    for byte in text.utf8 { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
    hash = (hash ^ 0xff) &* 0x0000_0100_0000_01b3
}

/// Reads everything, starting at resource `start` so concurrent readers touch different records
/// at the same moment.
/// Without `full`, the typed decoding is left out (for the largest document: it is slow under TSan).
func read(_ document: Document, start: Int, full: Bool = true) throws -> Reading {
    var reading = Reading()
    reading.diagnostics = document.diagnostics.count
    let all = document.allResources
    reading.resources = all.count
    guard !all.isEmpty else { return reading }
    var titles: [String] = Array(repeating: "", count: all.count)
    for step in 0..<all.count {
        let index = (start + step) % all.count
        let resource = all[index]
        titles[index] = resource.attributes["title"]?.stringValue ?? resource.attributes["name"]?.stringValue ?? "-"
        if let id = resource.id, document.resource(type: resource.type, id: id)?.recordIndex == resource.recordIndex {
            reading.lookups += 1
        }
    }
    for title in titles { mix(&reading.titles, title) }
    for resource in document.primaryResources {
        mix(
            &reading.resolved, resource.relationship("author")?.resolvedResource?.attributes["name"]?.stringValue ?? "-"
        )
        for comment in resource.relationship("comments")?.resolvedResources ?? [] {
            mix(&reading.resolved, comment.attributes["body"]?.stringValue ?? "-")
        }
    }
    mix(&reading.resolved, document.meta?["seed"]?.rawJSON ?? "-")
    mix(&reading.resolved, document.links?["self"]?.href ?? "-")
    mix(&reading.resolved, document.jsonapi?.version ?? "-")
    mix(&reading.written, String(decoding: document.jsonBytes(), as: UTF8.self))
    if start % 3 == 0 {
        var pretty: UInt64 = 0
        mix(&pretty, document.jsonString(options: .init(prettyPrinted: true, sortsKeys: true)))
        reading.pretty = pretty
    }

    // Typed: lazily from the middle, then eagerly, then through JSONAPIDecoder.
    guard full else { return reading }
    let articles = document.primary(as: Article.self)
    let eager = try articles.decodeAll()
    for article in eager {
        mix(&reading.typed, "\(article.id) \(article.title) \(article.rating) \(article.comments.count)")
    }
    if !articles.isEmpty {
        // One element decoded alone, where this reader starts: the same as the eager one.
        let index = (start &* 31) % articles.count
        let middle = try articles.element(at: index)
        let same = middle.title == eager[index].title && middle.comments == eager[index].comments
        mix(&reading.typed, "\(same) \(try middle.author.resolve().name == eager[index].author.resolve().name)")
    }
    var walked = 0
    try articles.forEachDecoded { article in walked += article.comments.count }
    mix(&reading.typed, "\(walked)")
    for person in try document.included(of: Person.self).decodeAll() { mix(&reading.typed, person.name) }
    if let first = try document.resource(Person.self, id: "p0") { mix(&reading.typed, first.name) }
    let decoded = try JSONAPIDecoder().decode([Article].self, from: document)
    mix(&reading.typed, "\(decoded.count) \(decoded.last?.title ?? "-")")
    return reading
}

/// Parses `bytes` whole or fed in chunks of `chunk` bytes (with the length known or not).
func parse(_ bytes: [UInt8], chunk: Int?, sized: Bool = true) throws -> Document {
    guard let chunk else { return try Document(parsing: bytes) }
    var parser = DocumentParser(expectedByteCount: sized ? bytes.count : 0)
    var offset = 0
    while offset < bytes.count {
        let end = min(bytes.count, offset + chunk)
        try parser.feed(bytes[offset..<end])
        offset = end
    }
    return try parser.finish()
}

// MARK: The run

let small = makeDocument(articles: 40, seed: 1)
let large = makeDocument(articles: 3_500, seed: 2)  // about 2.3 MB: on the arena shelf
let larger = makeDocument(articles: 7_000, seed: 3)  // about 4.6 MB: another size class
let huge = makeDocument(articles: 26_000, seed: 4)  // about 17 MB: a chunked parse maps its input
for (name, bytes) in [("large", large), ("huge", huge)] where bytes.count < 2 << 20 {
    fail("the \(name) document has only \(bytes.count) bytes")
}
print("documents: \(small.count), \(large.count), \(larger.count), \(huge.count) bytes")

// The expected answers, each computed alone before any concurrency, without the shelves.
var unshelved = ParsingOptions()
unshelved.recyclesMemory = false
let expected: [[UInt8]: Reading]
do {
    var answers: [[UInt8]: Reading] = [:]
    for bytes in [small, large, larger, huge] {
        answers[bytes] = try read(Document(parsing: bytes, options: unshelved), start: 0, full: bytes != huge)
    }
    expected = answers
} catch {
    fail("the reference parse failed: \(error)")
}

let readers = 16
let parsers = 8
let rounds = getenv("JSONAPI_CONCURRENCY_ROUNDS").flatMap { Int(String(cString: $0)) } ?? 2

for round in 0..<rounds {
    let shared = try Document(parsing: large)
    try await withThrowingTaskGroup(of: String?.self) { group in
        // Readers of one shared document.
        for task in 0..<readers {
            group.addTask {
                let reading = try read(shared, start: task * 997 + round)
                guard let reference = expected[large], reading.agrees(with: reference) else {
                    return "reader \(task) round \(round): \(reading) vs \(String(describing: expected[large]))"
                }
                return nil
            }
        }
        // Parsers: whole and chunked, large and small, each document read and released.
        for task in 0..<parsers {
            group.addTask {
                let bytes = [large, larger, small, huge][task % 4]
                let chunk: Int? = task % 2 == 0 ? nil : 65_536
                let document = try parse(bytes, chunk: chunk, sized: task % 3 != 0)
                let reading = try read(document, start: task, full: bytes != huge)
                if task == parsers - 1 { Document.releaseRecycledMemory() }
                guard let reference = expected[bytes], reading.agrees(with: reference) else {
                    return "parser \(task) round \(round): \(reading) vs \(String(describing: expected[bytes]))"
                }
                return nil
            }
        }
        for try await problem in group {
            if let problem { fail(problem) }
        }
    }
    print("round \(round + 1) of \(rounds): \(readers) readers, \(parsers) parsers agree")
}
// MARK: The resource store

/// A resource of many versions: version `v` sets every attribute to `v` and points its owner at
/// people/`v`, so a read that mixes two versions shows.
struct Thing: Decodable, JSONAPIResource {
    static let resourceType = "things"
    var id: String
    var a: Int
    var b: Int
    var c: Int
    var owner: Person?
}

func thing(_ key: Int, version: Int) -> JSONAPIResourceObject {
    var thing = JSONAPIResourceObject(
        type: "things", id: String(key), attributes: ["a": JSON(version), "b": JSON(version), "c": JSON(version)])
    thing.relationships["owner"] = JSONAPIRelationship(
        data: .one(ResourceIdentifier(type: "people", id: String(version))))
    return thing
}

let storeTasks = 12
let storeRounds = 400
let storeKeys = 64
let storeBound = 48
/// A version `task * 10_000 + round` that some task wrote.
func written(_ version: Int) -> Bool {
    version >= 0 && version / 10_000 < storeTasks && version % 10_000 < storeRounds
}

/// Typed reads of the store take turns (with each other only: merges, reads, relationship reads
/// and evictions go on around them). A typed read builds its compound document under the store's
/// lock, then decodes it, and the decode takes a decoder from the core's shelf, a
/// Synchronization `Mutex`. On Linux a contended `Mutex` is handed over inside the kernel, where
/// ThreadSanitizer cannot see it: twelve tasks decoding at once made it report some forty races on
/// the shelved decoders' fields, and none once the shelf's critical sections also did an atomic
/// read-modify-write (which ThreadSanitizer does see). Concurrent decoding itself is checked above.
/// An `NSLock` (a `pthread` mutex, which ThreadSanitizer intercepts) rather than a `Mutex`, for the
/// same reason.
final class TypedReads: @unchecked Sendable {
    // SAFETY (Sendable): the lock is the only state.
    private let lock = NSLock()

    func run<Result>(_ body: () throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }
}
let typedReads = TypedReads()

/// One task's work on the shared store; the first problem it saw, if any.
func useStore(_ store: ResourceStore, task: Int) -> String? {
    var lenient = DecodingOptions()
    lenient.ignoresMissingResources = true
    for round in 0..<storeRounds {
        let key = (task * 11 + round * 5) % storeKeys
        let version = task * 10_000 + round
        if round % 3 == 0 {
            store.merge(
                JSONAPIResourceObject(
                    type: "people", id: String(version),
                    attributes: ["name": JSON("P\(version)"), "age": JSON(version % 90)]))
        }
        if round % 5 == 0 {
            // Several resources in one merge, as a response brings them.
            store.merge([thing(key, version: version), thing((key + 1) % storeKeys, version: version)])
        } else {
            store.merge(thing(key, version: version))
        }
        if round % 37 == 36 { store.remove(type: "things", id: String((key + 7) % storeKeys)) }
        if task == 0, round == storeRounds / 2 { store.removeAll() }

        let probe = String((key + task * 3) % storeKeys)
        if let read = store.resource(type: "things", id: probe) {
            let values = ["a", "b", "c"].map { read.attributes[$0] }
            guard case .int(let first)? = values[0], values.allSatisfy({ $0 == .int(first) }), written(Int(first)),
                case .one(let owner)? = read.relationships["owner"]?.data, owner.id == String(first)
            else { return "things/\(probe) read as a mix: \(read)" }
        }
        do {
            if let model = try typedReads.run({ try store.model(Thing.self, id: probe, options: lenient) }) {
                guard model.a == model.b, model.b == model.c, written(model.a) else {
                    return "things/\(probe) decoded as a mix: \(model)"
                }
                if let owner = model.owner, owner.id != String(model.a) || owner.name != "P\(model.a)" {
                    return "things/\(probe) decoded with another version's owner: \(owner)"
                }
            }
            if round % 25 == 0 {
                for model in try typedReads.run({ try store.models(of: Thing.self, options: lenient) })
                where model.a != model.b || model.b != model.c || !written(model.a) {
                    return "things/\(model.id) decoded as a mix among all: \(model)"
                }
            }
        } catch {
            return "things/\(probe) did not decode: \(error)"
        }
        for owner in store.related(type: "things", id: probe, relationship: "owner") {
            guard case .string(let name)? = owner.attributes["name"], name == "P\(owner.id ?? "")" else {
                return "the owner of things/\(probe) is a mix: \(owner)"
            }
        }
        let count = store.count
        if count > storeBound { return "\(count) resources held, over the bound of \(storeBound)" }
        if round % 50 == 0, store.keys.count > storeBound { return "more keys than the bound" }
    }
    return nil
}

let store = ResourceStore(maximumResources: storeBound)
try await withThrowingTaskGroup(of: String?.self) { group in
    for task in 0..<storeTasks {
        group.addTask { useStore(store, task: task) }
    }
    for try await problem in group {
        if let problem { fail("resource store: \(problem)") }
    }
}
guard store.count == storeBound else { fail("the store holds \(store.count), not its bound of \(storeBound)") }
print("resource store: \(storeTasks) tasks merged, read, decoded and evicted; every read was one version")

print("jsonapi-concurrency-check: passed in \(ContinuousClock.now - started)")
