// The server's cost of a read, in one process (scripts/server-bench): a page of 100 articles
// with their authors and comments included, answered by `ResourceService.respond(to:)` with the
// response cache off (the whole document written for every request) and from the cache, beside
// the cost of the strong `ETag` of the same bytes (`ResourceService.entityTag(of:)`), which every
// uncached read computes once.
//
//     jsonapi-server-benchmark [ITERATIONS]
//
// Prints one line per variant: `variant=NAME median_us=… min_us=… bytes=…`.
import Foundation
import JSONAPI
import JSONAPIServer
import Timing

/// Ends the process with `message`.
func fail(_ message: String, status: Int32 = 1) -> Never {
    fail("jsonapi-server-benchmark", message, status: status)
}

// Plain `Codable` models, as a user writes them.
struct Person: Codable, Sendable, JSONAPIResource {
    static let resourceType = "people"
    var id: String
    var name: String
    var email: String
}

struct Comment: Codable, Sendable, JSONAPIResource {
    static let resourceType = "comments"
    var id: String
    var body: String
    var author: Identifier<Person>?
}

struct Article: Codable, Sendable, JSONAPIResource {
    static let resourceType = "articles"
    var id: String
    var title: String
    var body: String
    var createdAt: String
    var wordCount: Int
    var author: Identifier<Person>
    var comments: [Identifier<Comment>]
}

/// SplitMix64: the same data on every run.
struct Seeded {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }
}

let words = [
    "résumé", "query", "include", "naïve", "\"quoted\"", "cursor", "ledger", "Zürich", "tab\there", "page",
    "relationship", "linkage", "東京", "sparse", "fieldset", "line\nbreak", "cache", "entity", "tag", "filter",
]

func sentence(_ random: inout Seeded, _ count: Int) -> String {
    (0..<count).map { _ in words[random.below(words.count)] }.joined(separator: " ")
}

/// The seeded people, comments and articles.
func seed() -> (people: [Person], comments: [Comment], articles: [Article]) {
    var random = Seeded(state: 7)
    let people = (1...100).map { index in
        Person(id: String(index), name: sentence(&random, 2), email: "person\(index)@example.com")
    }
    var comments: [Comment] = []
    var articles: [Article] = []
    for index in 1...1000 {
        var linked: [Identifier<Comment>] = []
        for _ in 0..<(1 + random.below(5)) {
            let id = String(comments.count + 1)
            comments.append(
                Comment(id: id, body: sentence(&random, 12), author: Identifier(String(1 + random.below(100)))))
            linked.append(Identifier(id))
        }
        let body = sentence(&random, 40)
        articles.append(
            Article(
                id: String(index), title: sentence(&random, 5), body: body,
                createdAt: "2026-0\(1 + index % 9)-1\(index % 10)T08:00:00Z", wordCount: 40,
                author: Identifier(String(1 + random.below(100))), comments: linked))
    }
    return (people, comments, articles)
}

func service(cacheLimit: Int) throws -> ResourceService {
    let (people, comments, articles) = seed()
    var service = ResourceService()
    service.responseCacheLimit = cacheLimit
    service.serve(ResourceDeclaration(source: try InMemoryDataSource(people)))
    service.serve(ResourceDeclaration(source: try InMemoryDataSource(comments)))
    service.serve(ResourceDeclaration(source: try InMemoryDataSource(articles)))
    return service
}

let arguments = CommandLine.arguments.dropFirst()
guard arguments.count <= 1, let iterations = Int(arguments.first ?? "1000"), iterations > 0 else {
    fail("usage: jsonapi-server-benchmark [ITERATIONS]", status: 2)
}
let query = "include=author,comments&page[size]=100"
let request = ResourceRequest(method: "GET", type: "articles", endpoint: .collection, query: query)
do {
    let uncached = try service(cacheLimit: 0)
    let cached = try service(cacheLimit: 8 << 20)
    let answer = try await uncached.respond(to: request)
    guard answer.status == 200, let body = answer.body, let etag = answer.etag else {
        fail("the page was not answered: status \(answer.status)")
    }
    // What is measured is what is served: 100 articles, their authors and comments included.
    let document = try Document(parsing: body)
    guard document.primaryResources.count == 100, !document.included.isEmpty,
        ResourceService.entityTag(of: body) == etag,
        try await cached.respond(to: request).body == body
    else {
        fail("the page does not hold what the benchmark asks for")
    }
    var tag = ""
    report(
        "respond", try await measure(iterations) { _ = try await uncached.respond(to: request) }, "bytes=\(body.count)")
    report(
        "respond-cached", try await measure(iterations) { _ = try await cached.respond(to: request) },
        "bytes=\(body.count)")
    report(
        "entity-tag", measureOnOneThread(iterations) { tag = ResourceService.entityTag(of: body) },
        "bytes=\(body.count)")
    guard tag == etag else { fail("the entity tag changed between calls") }

    // The models of a source as the resource objects the service serves: what every write and a
    // source without its own records pay per model (here 1,000 articles per call).
    let articles = seed().articles
    report(
        "records", try await measure(iterations) { _ = try InMemoryDataSource(articles) },
        "resources=\(articles.count)")
    // A PATCH of one article's title through the layer, answered with the stored resource.
    var round = 0
    report(
        "update",
        try await measure(iterations) {
            round += 1
            let id = String(1 + round % 1000)
            let update = ResourceRequest(
                method: "PATCH", type: "articles", endpoint: .resource(id: id),
                body: Array(
                    #"{"data":{"type":"articles","id":"\#(id)","attributes":{"title":"Title \#(round)"}}}"#.utf8))
            let answer = try await uncached.respond(to: update)
            guard answer.status == 200 else { fail("PATCH answered \(answer.status)") }
        }, "resources=1")
} catch {
    fail("\(error)")
}
