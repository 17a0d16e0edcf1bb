import AsyncHTTPClient
import Foundation
import JSONAPI
import JSONAPIAsyncHTTPClient
import JSONAPIClient
import JSONAPIGenerator
import JSONAPIGeneratorModels
import NIOCore

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One way of fetching the document and decoding every resource in it.
enum Variant: String, CaseIterable, Sendable {
    /// JSONAPIClient over AsyncHTTPClientTransport: the body parsed while it streams, then the
    /// typed models.
    case streamAHC = "stream-ahc"
    /// AsyncHTTPClient directly: the body collected whole, then `Document(parsing:)` and the typed
    /// models.
    case collectAHC = "collect-ahc"
    /// JSONAPIClient over URLSessionTransport: the body parsed while it streams, then the typed
    /// models.
    case streamURLSession = "stream-urlsession"
    /// AsyncHTTPClient directly: the body collected whole, then `JSONDecoder` into the plain
    /// `Codable` DTOs (`PlainCodableModel`).
    case jsonDecoderAHC = "jsondecoder-ahc"
    /// URLSession's `data(for:)`, then `JSONDecoder` into the plain `Codable` DTOs.
    case jsonDecoderURLSession = "jsondecoder-urlsession"
    /// JSONAPIClient over AsyncHTTPClientTransport, `stream`: the primary articles decoded one
    /// at a time as the body arrives, in the memory of the stream's window; the included
    /// resources are parsed and passed over.
    case modelsAHC = "models-ahc"
    /// The same over URLSessionTransport.
    case modelsURLSession = "models-urlsession"

    /// Whether the variant decodes the included resources as well as the articles.
    var decodesIncluded: Bool { self != .modelsAHC && self != .modelsURLSession }
}

/// What a variant decoded.
struct Decoded {
    var articles: Int
    var people: Int
    var comments: Int
    var tags: Int
    /// The ids of the first and last primary resources.
    var firstArticleID: String?
    var lastArticleID: String?

    var resources: Int { articles + people + comments + tags }
}

/// One run's result.
struct Measurement {
    var variant: Variant
    var milliseconds: Double
    var peakResidentMiB: Double
    var resources: Int

    /// `variant=… ms=… peak_rss_mib=… resources=…`.
    var line: String {
        "variant=\(variant.rawValue) ms=\(String(format: "%.1f", milliseconds))"
            + " peak_rss_mib=\(String(format: "%.1f", peakResidentMiB)) resources=\(resources)"
    }
}

struct BenchmarkFailure: Error, CustomStringConvertible {
    var description: String
}

/// The largest body read, in bytes.
let maximumBodyBytes = 1 << 30
/// Long enough for the slowest variant at a few hundred megabytes; a stalled run still ends.
let requestTimeout = Duration.seconds(600)

extension Variant {
    /// Fetches `url` + `/articles` once, decodes every resource, checks the result against
    /// `generator` and measures the time from sending the request to the last model decoded,
    /// and the process's peak resident memory.
    ///
    /// Clients, sessions and transports are made before the clock starts; the connection is
    /// opened within the measured time (the server closes every connection).
    func run(url base: String, expecting generator: CompoundDocumentGenerator) async throws -> Measurement {
        let url = base.hasSuffix("/") ? base + "articles" : base + "/articles"
        let decoded: Decoded
        let elapsed: Duration
        let clock = ContinuousClock()
        switch self {
        case .streamAHC:
            let client = JSONAPIClient(
                baseURL: base, transport: AsyncHTTPClientTransport(client: .shared), configuration: Self.configuration)
            let start = clock.now
            decoded = try await Self.streamed(client)
            elapsed = clock.now - start
        case .streamURLSession:
            let client = JSONAPIClient(
                baseURL: base, transport: URLSessionTransport(configuration: Self.sessionConfiguration),
                configuration: Self.configuration)
            let start = clock.now
            decoded = try await Self.streamed(client)
            elapsed = clock.now - start
        case .modelsAHC, .modelsURLSession:
            let client =
                self == .modelsAHC
                ? JSONAPIClient(
                    baseURL: base, transport: AsyncHTTPClientTransport(client: .shared),
                    configuration: Self.configuration)
                : JSONAPIClient(
                    baseURL: base, transport: URLSessionTransport(configuration: Self.sessionConfiguration),
                    configuration: Self.configuration)
            let start = clock.now
            decoded = try await Self.modelByModel(client)
            elapsed = clock.now - start
        case .collectAHC:
            let client = HTTPClient.shared
            let start = clock.now
            let bytes = try await Self.collected(url, client) { Array($0.readableBytesView) }
            let document = try Document(parsing: bytes)
            decoded = try Self.decodeModels(document)
            elapsed = clock.now - start
        case .jsonDecoderAHC:
            let client = HTTPClient.shared
            let start = clock.now
            let data = try await Self.collected(url, client) { Data($0.readableBytesView) }
            decoded = try Self.decodeDTOs(data)
            elapsed = clock.now - start
        case .jsonDecoderURLSession:
            let session = URLSession(configuration: Self.sessionConfiguration)
            defer { session.finishTasksAndInvalidate() }
            guard let address = URL(string: url) else { throw BenchmarkFailure(description: "bad URL `\(url)`") }
            var request = URLRequest(url: address)
            request.setValue("application/vnd.api+json", forHTTPHeaderField: "Accept")
            let start = clock.now
            let (data, response) = try await session.data(for: request)
            guard let http = response as? HTTPURLResponse, http.statusCode == 200 else {
                throw BenchmarkFailure(description: "the server did not answer 200: \(response)")
            }
            decoded = try Self.decodeDTOs(data)
            elapsed = clock.now - start
        }
        try check(decoded, against: generator)
        let (seconds, attoseconds) = elapsed.components
        return Measurement(
            variant: self, milliseconds: Double(seconds) * 1000 + Double(attoseconds) / 1e15,
            peakResidentMiB: Self.peakResidentMiB(), resources: decoded.resources)
    }

    private static var configuration: JSONAPIClient.Configuration {
        var configuration = JSONAPIClient.Configuration()
        configuration.timeout = requestTimeout
        configuration.maximumResponseBytes = maximumBodyBytes
        return configuration
    }

    private static var sessionConfiguration: URLSessionConfiguration {
        let configuration = URLSessionConfiguration.default
        let (seconds, _) = requestTimeout.components
        configuration.timeoutIntervalForRequest = TimeInterval(seconds)
        configuration.timeoutIntervalForResource = TimeInterval(seconds)
        configuration.urlCache = nil
        return configuration
    }

    /// The typed list of articles (parsed while the body arrives), then the included resources
    /// of each type from the same document.
    private static func streamed(_ client: JSONAPIClient) async throws -> Decoded {
        let response = try await client.resources(GeneratedModels.Article.self).list()
        let people = try response.document.included(of: GeneratedModels.Person.self).decodeAll()
        let comments = try response.document.included(of: GeneratedModels.Comment.self).decodeAll()
        let tags = try response.document.included(of: GeneratedModels.Tag.self).decodeAll()
        return Decoded(
            articles: response.value.count, people: people.count, comments: comments.count, tags: tags.count,
            firstArticleID: response.value.first?.id, lastArticleID: response.value.last?.id)
    }

    /// The articles as `stream` hands them over, one at a time, none kept.
    private static func modelByModel(_ client: JSONAPIClient) async throws -> Decoded {
        var decoded = Decoded(articles: 0, people: 0, comments: 0, tags: 0)
        for try await article in client.resources(GeneratedModels.Article.self).stream() {
            if decoded.firstArticleID == nil { decoded.firstArticleID = article.id }
            decoded.lastArticleID = article.id
            decoded.articles += 1
        }
        return decoded
    }

    /// The whole body, collected by AsyncHTTPClient and copied once by `convert` into the
    /// container the parser takes (the buffer is released on return).
    private static func collected<Bytes>(
        _ url: String, _ client: HTTPClient, _ convert: (ByteBuffer) -> Bytes
    ) async throws -> Bytes {
        var request = HTTPClientRequest(url: url)
        request.headers.add(name: "Accept", value: "application/vnd.api+json")
        let response = try await client.execute(request, timeout: .seconds(requestTimeout.components.seconds))
        guard response.status == .ok else {
            throw BenchmarkFailure(description: "the server answered \(response.status)")
        }
        let body = try await response.body.collect(upTo: maximumBodyBytes)
        return convert(body)
    }

    /// Every resource of a parsed document as the typed models.
    private static func decodeModels(_ document: Document) throws -> Decoded {
        let articles = try document.primary(as: GeneratedModels.Article.self).decodeAll()
        let people = try document.included(of: GeneratedModels.Person.self).decodeAll()
        let comments = try document.included(of: GeneratedModels.Comment.self).decodeAll()
        let tags = try document.included(of: GeneratedModels.Tag.self).decodeAll()
        return Decoded(
            articles: articles.count, people: people.count, comments: comments.count, tags: tags.count,
            firstArticleID: articles.first?.id, lastArticleID: articles.last?.id)
    }

    /// The document through `JSONDecoder` into the plain `Codable` DTOs.
    private static func decodeDTOs(_ data: Data) throws -> Decoded {
        let document = try JSONDecoder().decode(PlainCodableModel.Document.self, from: data)
        var decoded = Decoded(
            articles: document.data.count, people: 0, comments: 0, tags: 0,
            firstArticleID: document.data.first?.id, lastArticleID: document.data.last?.id)
        for resource in document.included ?? [] {
            switch resource {
            case .person: decoded.people += 1
            case .comment: decoded.comments += 1
            case .tag: decoded.tags += 1
            }
        }
        return decoded
    }

    /// Throws unless the counts of each type, and the first and last article ids, are the
    /// generator's.
    private func check(_ decoded: Decoded, against generator: CompoundDocumentGenerator) throws {
        let expected = [
            ("articles", generator.primaryCount, decoded.articles), ("people", generator.personCount, decoded.people),
            ("comments", generator.commentCount, decoded.comments), ("tags", generator.tagCount, decoded.tags),
        ]
        for (type, count, got) in expected where count != got && (type == "articles" || decodesIncluded) {
            throw BenchmarkFailure(description: "\(rawValue) decoded \(got) \(type), the document has \(count)")
        }
        guard generator.primaryCount > 0 else { return }
        let first = generator.identifier(ofResourceAt: 0).id
        let last = generator.identifier(ofResourceAt: generator.primaryCount - 1).id
        guard decoded.firstArticleID == first, decoded.lastArticleID == last else {
            throw BenchmarkFailure(
                description: "\(rawValue) decoded articles \(decoded.firstArticleID ?? "none") to "
                    + "\(decoded.lastArticleID ?? "none"), the document has \(first) to \(last)")
        }
    }

    /// The process's peak resident set size so far (`getrusage`'s `ru_maxrss`), in MiB.
    private static func peakResidentMiB() -> Double {
        var usage = rusage()
        #if canImport(Darwin)
            guard getrusage(RUSAGE_SELF, &usage) == 0 else { return .nan }
            return Double(usage.ru_maxrss) / 1_048_576  // bytes
        #else
            guard getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage) == 0 else { return .nan }
            return Double(usage.ru_maxrss) / 1024  // KiB
        #endif
    }
}
