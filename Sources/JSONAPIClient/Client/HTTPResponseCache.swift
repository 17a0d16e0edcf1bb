import Foundation
import JSONAPI

// The client's private HTTP cache (RFC 9111): documents of `200` answers to `GET`, kept with
// their validator (`ETag`) and freshness (`Cache-Control: max-age`, `Expires`). A fresh answer
// is given again without a request; a stale one is revalidated with `If-None-Match`, and a
// `304` answers with the kept document. No heuristic freshness: an answer that states none is
// revalidated every time, so the server decides what is current. Answers to a write of a URL
// drop what is kept for it. The cache sits between the interceptors and the transport, so it
// sees every header they set, and keys answers by the credentials they were sent with.

extension JSONAPIClient {
    /// How the client caches responses (RFC 9111) and asks for conditional writes.
    ///
    /// ```swift
    /// var configuration = JSONAPIClient.Configuration()
    /// configuration.caching.maximumBytes = 64 << 20
    /// configuration.caching.sendsIfMatch = false
    /// ```
    public struct Caching: Sendable {
        /// Whether `GET` answers are kept, answered again while fresh and revalidated with
        /// `If-None-Match` when stale, one per URL, given only to requests with the same
        /// credentials (`Authorization`, `Cookie`, as the interceptors set them). Default true.
        public var isEnabled = true
        /// The most body bytes kept, over all kept answers; the oldest go first. Default
        /// 32 MiB; 0 keeps none.
        public var maximumBytes = 32 << 20
        /// Whether a `PATCH` or `DELETE` of a URL whose `GET` answer is kept with an `ETag`
        /// carries `If-Match` with it, so that a change made meanwhile by someone else fails
        /// (``JSONAPIClientError/Kind/preconditionFailed``) instead of being overwritten.
        /// Default true.
        public var sendsIfMatch = true

        /// The default: caching on, 32 MiB, `If-Match` on writes.
        public init() {}
    }
}

/// Where a ``JSONAPIClientResponse`` came from.
public enum JSONAPIResponseSource: Sendable, Hashable {
    /// The server's answer.
    case network
    /// A kept answer, still fresh: no request was sent.
    case cache
    /// A kept answer the server confirmed with `304 Not Modified`.
    case revalidated
    /// The store's current copies of the resources a recent answer to the same request held
    /// (``JSONAPIClient/Configuration/queryLifetime``): no request was sent.
    case store
}

/// The kept answers of one client.
final class HTTPResponseCache: Sendable {
    struct Entry: Sendable {
        var url: String
        /// The request's values of the fields the answer's `Vary` names.
        var varying: [String: String?]
        var headers: JSONAPIHTTPHeaders
        var document: Document
        var bytes: Int
        var etag: String?
        var stored: ContinuousClock.Instant
        /// Seconds old when it arrived (`Age`).
        var initialAge: Int
        /// How long it is fresh, from the response; nil when it states nothing.
        var lifetime: Int?
        /// `no-cache`: kept, but revalidated before every use.
        var alwaysRevalidate: Bool
        var order: UInt64

        func isFresh(at now: ContinuousClock.Instant) -> Bool {
            guard let lifetime, !alwaysRevalidate else { return false }
            let age = Double(initialAge) + Double((now - stored).components.seconds)
            return Double(lifetime) > age
        }
    }

    private struct State {
        var entries: [String: Entry] = [:]
        var bytes = 0
        var next: UInt64 = 0
    }

    private let state = Locked(State())

    /// The kept answer for a `GET` of `request`, when its varying fields match.
    func entry(for request: JSONAPIHTTPRequest) -> Entry? {
        state.withLock { state in
            guard let entry = state.entries[request.url] else { return nil }
            for (name, value) in entry.varying where request.headers[name] != value { return nil }
            return entry
        }
    }

    /// The validator of the kept answer to a `GET` of exactly `url`.
    func etag(of url: String) -> String? {
        state.withLock { $0.entries[url]?.etag }
    }

    /// Keeps `document`, the `200` answer to `request`, when its headers allow it.
    func store(
        _ request: JSONAPIHTTPRequest, headers: JSONAPIHTTPHeaders, document: Document, bytes: Int, limit: Int
    ) {
        guard bytes <= limit, let entry = Self.entry(request, headers: headers, document: document, bytes: bytes)
        else { return }
        put(entry, limit: limit)
    }

    /// The kept answer after the server's `304`: its header fields updated from the `304`'s
    /// (RFC 9111 §4.3.4), its age started again.
    func revalidated(_ kept: Entry, by request: JSONAPIHTTPRequest, headers: JSONAPIHTTPHeaders, limit: Int)
        -> Entry
    {
        var merged = kept.headers
        for field in headers where field.name.lowercased() != "content-length" {
            merged.replaceOrAdd(name: field.name, value: field.value)
        }
        guard let entry = Self.entry(request, headers: merged, document: kept.document, bytes: kept.bytes) else {
            // The 304 says it may not be kept any more (`no-store`, `Vary: *`).
            drop(kept.url)
            var answer = kept
            answer.headers = merged
            return answer
        }
        put(entry, limit: limit)
        return entry
    }

    /// Drops what is kept for `url` and for the same path with any query (RFC 9111 §4.4: a
    /// write answered with success changes what a `GET` of it reads).
    func invalidate(_ url: String) {
        let path = Self.withoutQuery(url)
        state.withLock { state in
            for key in state.entries.keys where Self.withoutQuery(key) == path {
                if let old = state.entries.removeValue(forKey: key) { state.bytes -= old.bytes }
            }
        }
    }

    /// Makes the kept answer to a `GET` of `url` stale: revalidated before any use, its `ETag`
    /// still sent with writes.
    func markStale(_ url: String) {
        state.withLock { state in state.entries[url]?.alwaysRevalidate = true }
    }

    private func drop(_ url: String) {
        state.withLock { state in
            if let old = state.entries.removeValue(forKey: url) { state.bytes -= old.bytes }
        }
    }

    private func put(_ entry: Entry, limit: Int) {
        state.withLock { state in
            var entry = entry
            entry.order = state.next
            state.next += 1
            if let old = state.entries.updateValue(entry, forKey: entry.url) { state.bytes -= old.bytes }
            state.bytes += entry.bytes
            while state.bytes > limit, let oldest = state.entries.values.min(by: { $0.order < $1.order }) {
                state.entries[oldest.url] = nil
                state.bytes -= oldest.bytes
            }
        }
    }

    private static func withoutQuery(_ url: String) -> Substring {
        url.firstIndex(of: "?").map { url[..<$0] } ?? url[...]
    }

    /// An entry for the answer, or nil when the request or the answer forbid keeping it.
    static func entry(
        _ request: JSONAPIHTTPRequest, headers: JSONAPIHTTPHeaders, document: Document, bytes: Int
    ) -> Entry? {
        let response = CacheDirectives(headers.values("Cache-Control"))
        guard !response.noStore, !CacheDirectives(request.headers.values("Cache-Control")).noStore else { return nil }
        var varying: [String: String?] = [:]
        for value in headers.values("Vary") {
            for name in value.split(separator: ",") {
                let name = name.trimmingCharacters(in: .whitespaces).lowercased()
                if name == "*" { return nil }
                if !name.isEmpty { varying[name] = request.headers[name] }
            }
        }
        // An answer to a request with credentials is given only to requests with the same ones,
        // so that a client acting for several users never hands one user's answer to another.
        for name in ["authorization", "cookie"] where varying[name] == nil { varying[name] = request.headers[name] }
        var lifetime = response.maxAge
        if lifetime == nil, let expires = headers["Expires"] {
            // An Expires that is not a date means already expired (RFC 9111 §5.3).
            if let expiry = HTTPDate.seconds(expires) {
                let origin = headers["Date"].flatMap { HTTPDate.seconds($0) } ?? Int(Date().timeIntervalSince1970)
                lifetime = expiry - origin
            } else {
                lifetime = 0
            }
        }
        let age = headers["Age"].flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }.map { max($0, 0) } ?? 0
        return Entry(
            url: request.url, varying: varying, headers: headers, document: document, bytes: bytes,
            etag: headers["ETag"], stored: .now, initialAge: age, lifetime: lifetime,
            alwaysRevalidate: response.noCache, order: 0)
    }
}

/// The directives of `Cache-Control` fields that caching here reads.
struct CacheDirectives {
    var noStore = false
    var noCache = false
    var maxAge: Int?

    init(_ values: [String]) {
        for value in values {
            for directive in value.split(separator: ",") {
                let parts = directive.split(separator: "=", maxSplits: 1)
                let name = parts.first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() } ?? ""
                let argument = parts.count > 1 ? parts[1].trimmingCharacters(in: .whitespaces) : nil
                switch name {
                case "no-store": noStore = true
                case "no-cache": noCache = true
                case "max-age":
                    // A malformed max-age makes the answer stale (RFC 9111 §4.2.1).
                    let digits = argument.map { $0.trimmingCharacters(in: CharacterSet(charactersIn: "\"")) }
                    maxAge = min(maxAge ?? .max, digits.flatMap { Int($0) }.map { max($0, 0) } ?? 0)
                default: break
                }
            }
        }
    }
}

/// HTTP dates (RFC 9110 §5.6.7): the preferred form (`Sun, 06 Nov 1994 08:49:37 GMT`) and the
/// two obsolete ones a recipient must still accept, RFC 850's (`Sunday, 06-Nov-94 08:49:37 GMT`)
/// and asctime's (`Sun Nov  6 08:49:37 1994`), each checked field by field.
enum HTTPDate {
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
    private static let days = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
    private static let longDays = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]

    /// Seconds since 1970-01-01T00:00:00Z, or nil for anything else. An RFC 850 date's two-digit
    /// year is the latest year with those digits not more than 50 years after `now` (seconds
    /// since 1970), as RFC 9110 asks.
    static func seconds(_ text: String, now: Int = Int(Date().timeIntervalSince1970)) -> Int? {
        let parts = text.trimmingCharacters(in: .whitespaces).split(separator: " ", omittingEmptySubsequences: false)
        if parts.count == 6, parts[0].count == 4, days.contains(String(parts[0].dropLast())), parts[0].hasSuffix(","),
            parts[5] == "GMT", parts[1].count == 2, parts[3].count == 4, let year = digits(parts[3]),
            let day = digits(parts[1])
        {
            return seconds(year: year, month: parts[2], day: day, time: parts[4])
        }
        if parts.count == 4, parts[0].hasSuffix(","), longDays.contains(String(parts[0].dropLast())),
            parts[3] == "GMT"
        {
            let date = parts[1].split(separator: "-", omittingEmptySubsequences: false)
            guard date.count == 3, date[0].count == 2, date[2].count == 2, let day = digits(date[0]),
                let short = digits(date[2])
            else { return nil }
            let current = 1970 + now / 31_556_952
            var year = current - current % 100 + short
            if year > current + 50 { year -= 100 }
            return seconds(year: year, month: date[1], day: day, time: parts[2])
        }
        // asctime: a one-digit day is written after a second space.
        let fields = parts.count == 6 && parts[2].isEmpty ? Array(parts[0..<2] + parts[3...]) : Array(parts)
        if fields.count == 5, days.contains(String(fields[0])), fields[2].count == (parts.count == 6 ? 1 : 2),
            let day = digits(fields[2]), fields[4].count == 4, let year = digits(fields[4])
        {
            return seconds(year: year, month: fields[1], day: day, time: fields[3])
        }
        return nil
    }

    /// The seconds of a date whose fields were split out, checked: a month name, a day of that
    /// month, `HH:MM:SS`.
    private static func seconds(year: Int, month name: Substring, day: Int, time: Substring) -> Int? {
        guard let monthIndex = months.firstIndex(of: String(name)) else { return nil }
        let month = monthIndex + 1
        let clock = time.split(separator: ":", omittingEmptySubsequences: false)
        guard clock.count == 3, clock.allSatisfy({ $0.count == 2 }), let hour = digits(clock[0]),
            let minute = digits(clock[1]), let second = digits(clock[2]), hour < 24, minute < 60, second < 61,
            day >= 1, day <= daysIn(month: month, year: year)
        else { return nil }
        return daysSinceEpoch(year: year, month: month, day: day) * 86_400 + hour * 3600 + minute * 60 + second
    }

    /// The value of a field of ASCII digits only (no sign), or nil.
    private static func digits(_ text: Substring) -> Int? {
        guard !text.isEmpty, text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else {
            return nil
        }
        return Int(text)
    }

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Days from 1970-01-01 to a date of the proleptic Gregorian calendar.
    static func daysSinceEpoch(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}
