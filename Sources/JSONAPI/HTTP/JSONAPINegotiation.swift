/// Why a request cannot be served: the HTTP status to answer with and a human-readable reason.
public struct NegotiationFailure: Error, Sendable, Hashable, CustomStringConvertible {
    /// 415 (Unsupported Media Type) for a bad `Content-Type`, 406 (Not Acceptable) for a bad `Accept`.
    public var status: Int
    /// What is wrong, suitable for the `detail` of an error object.
    public var reason: String

    /// Creates a failure.
    public init(status: Int, reason: String) {
        self.status = status
        self.reason = reason
    }

    /// A 415 Unsupported Media Type failure.
    public static func unsupportedMediaType(_ reason: String) -> NegotiationFailure {
        NegotiationFailure(status: 415, reason: reason)
    }

    /// A 406 Not Acceptable failure.
    public static func notAcceptable(_ reason: String) -> NegotiationFailure {
        NegotiationFailure(status: 406, reason: reason)
    }

    /// The standard reason phrase of ``status``.
    public var title: String {
        switch status {
        case 415: "Unsupported Media Type"
        case 406: "Not Acceptable"
        default: "Status \(status)"
        }
    }

    /// `STATUS TITLE: REASON`.
    public var description: String { "\(status) \(title): \(reason)" }
}

/// Server-side content negotiation, per the "Content Negotiation" section of JSON:API.
///
/// JSON:API 1.1 rules (the default):
/// - A request `Content-Type` of the JSON:API media type with any parameter other than `ext`
///   or `profile`, or with an `ext` naming an extension the server does not support, gets 415.
///   Unknown profiles are ignored.
/// - In `Accept`, JSON:API media ranges with a parameter other than `ext`/`profile` are
///   ignored, and so are those whose `ext` names an unsupported extension (the server must
///   apply every extension a range asks for). If the header holds JSON:API media ranges but
///   none is usable, the answer is 406.
/// - The response uses the extensions of the chosen range and the requested profiles the
///   server supports.
///
/// JSON:API 1.0 rules (``SpecVersion/v1_0``): the media type takes no parameters at all, so
/// any parameter in `Content-Type` gets 415, and `Accept` gets 406 when every JSON:API media
/// range carries parameters (`q` does not count).
///
/// ```swift
/// let accept = #"application/vnd.api+json; ext="https://jsonapi.org/ext/atomic", */*;q=0.1"#
/// switch JSONAPINegotiation.negotiateAccept(
///     accept, supportedExtensions: ["https://jsonapi.org/ext/atomic"], supportedProfiles: [])
/// {
/// case .success(let type): print(type)  // application/vnd.api+json; ext="https://jsonapi.org/ext/atomic"
/// case .failure(let failure): print(failure.status)
/// }
/// ```
///
/// ## Serving a request
///
/// Negotiation, parsing and error documents together: a handler for an endpoint that takes
/// Atomic Operations requests. Every failure, whether of negotiation (415, 406), of the body
/// (400, 413) or of the server (500), becomes an error document with the right status.
///
/// ```swift
/// let atomic = AtomicOperations.extensionURI
///
/// func handle(contentType: String?, accept: String?, body: [UInt8]) -> (status: Int, type: String, body: [UInt8]) {
///     do {
///         _ = try JSONAPINegotiation.checkContentType(contentType, supportedExtensions: [atomic]).get()
///         let responseType = try JSONAPINegotiation.negotiateAccept(
///             accept, supportedExtensions: [atomic], supportedProfiles: []
///         ).get()
///         let request = try Document(parsing: body)
///         var response = AtomicResultsDocument()
///         for operation in try request.atomicOperations() {
///             guard case .resource(let resource) = operation.data else { response.appendEmpty(); continue }
///             var created = JSONAPIResourceObject(resource)
///             created.id = created.id ?? "42"  // stored by the application
///             response.append(created)
///         }
///         return (200, responseType.description, try response.jsonBytes())
///     } catch {
///         let errors = JSONAPIErrorDocument(describing: error)
///         return (errors.httpStatus, JSONAPIMediaType.base, (try? errors.jsonBytes()) ?? [])
///     }
/// }
/// ```
public enum JSONAPINegotiation {
    /// Which version's content negotiation rules to apply.
    public enum SpecVersion: Sendable, Hashable {
        /// JSON:API 1.0: no media type parameters at all.
        case v1_0
        /// JSON:API 1.1: `ext` and `profile` parameters.
        case v1_1
    }

    /// Checks a request's `Content-Type` header.
    ///
    /// - Parameters:
    ///   - header: The header value, or nil when the request has none.
    ///   - supportedExtensions: Extension URIs the server supports.
    ///   - version: The rules to apply.
    /// - Returns: The parsed media type when the header is the JSON:API media type and
    ///   acceptable; nil when the header is absent, empty or names another media type (whether
    ///   that is acceptable is the caller's decision); a 415 failure when the header is the
    ///   JSON:API media type with a forbidden or malformed parameter or an unsupported extension.
    public static func checkContentType(
        _ header: String?, supportedExtensions: Set<String>, version: SpecVersion = .v1_1
    ) -> Result<JSONAPIMediaType?, NegotiationFailure> {
        guard let header, let range = MediaRange(parsing: Array(header.utf8)[...], inAccept: false),
            range.isJSONAPI
        else { return .success(nil) }
        if let malformation = range.malformation {
            return .failure(.unsupportedMediaType("malformed Content-Type parameters: \(malformation)"))
        }
        let type = range.jsonAPIMediaType
        switch version {
        case .v1_0:
            if let name = range.parameters.first?.name {
                return .failure(
                    .unsupportedMediaType("the JSON:API media type takes no parameters (found `\(name)`)"))
            }
        case .v1_1:
            if let parameter = type.otherParameters.first {
                return .failure(
                    .unsupportedMediaType(
                        "the JSON:API media type allows only `ext` and `profile` parameters (found `\(parameter.name)`)"
                    ))
            }
            let unsupported = type.unsupportedExtensions(supportedExtensions)
            if !unsupported.isEmpty {
                return .failure(
                    .unsupportedMediaType("unsupported extension(s): \(unsupported.joined(separator: " "))"))
            }
        }
        return .success(type)
    }

    /// Chooses the media type of the response from a request's `Accept` header.
    ///
    /// The header is a comma-separated list of media ranges (commas inside quoted values do
    /// not split), each with an optional `q` weight from 0 to 1 (default 1; 0 means "not
    /// acceptable"). `q` is recognised in any position; every other parameter is a media type
    /// parameter. Elements without a valid `type/subtype` are skipped, and ranges for other
    /// media types are ignored.
    ///
    /// - If the header is absent or blank, any media type is acceptable: the result is the
    ///   plain JSON:API media type.
    /// - If the header holds JSON:API media ranges, only those decide: the usable ones (see
    ///   ``JSONAPINegotiation``) with `q` > 0 are candidates and the one with the highest `q`
    ///   wins, the first listed among equals. The result carries that range's extensions and
    ///   those of its profiles in `supportedProfiles`. No candidate gives 406, even when a
    ///   wildcard is also listed: the JSON:API ranges are more specific.
    /// - Otherwise `*/*` or `application/*` with `q` > 0 (the most specific one decides)
    ///   gives the plain JSON:API media type; parameters on wildcards are not interpreted.
    /// - Otherwise (only other media types, or everything refused) the answer is 406.
    public static func negotiateAccept(
        _ header: String?, supportedExtensions: Set<String>, supportedProfiles: Set<String>,
        version: SpecVersion = .v1_1
    ) -> Result<JSONAPIMediaType, NegotiationFailure> {
        guard let header, header.utf8.contains(where: { !MediaRange.isWhitespace($0) }) else {
            return .success(JSONAPIMediaType())
        }
        let ranges = MediaRange.parseList(Array(header.utf8))

        var sawJSONAPI = false
        var best: (quality: Int, type: JSONAPIMediaType)?
        var rejections: [String] = []
        for range in ranges where range.isJSONAPI {
            sawJSONAPI = true
            if let malformation = range.malformation {
                rejections.append("malformed parameters (\(malformation))")
                continue
            }
            let requested = range.jsonAPIMediaType
            switch version {
            case .v1_0:
                if let name = range.parameters.first?.name {
                    rejections.append("parameter `\(name)` (JSON:API 1.0 allows none)")
                    continue
                }
            case .v1_1:
                if let parameter = requested.otherParameters.first {
                    rejections.append("parameter `\(parameter.name)` (only `ext` and `profile` are allowed)")
                    continue
                }
                let unsupported = requested.unsupportedExtensions(supportedExtensions)
                if !unsupported.isEmpty {
                    rejections.append("unsupported extension(s) \(unsupported.joined(separator: " "))")
                    continue
                }
            }
            guard range.quality > 0 else {
                rejections.append("q=0")
                continue
            }
            if let best, best.quality >= range.quality { continue }
            var response = JSONAPIMediaType()
            if version == .v1_1 {
                response.extensions = unique(requested.extensions)
                response.profiles = unique(requested.profiles.filter { supportedProfiles.contains($0) })
            }
            best = (range.quality, response)
        }
        if let best { return .success(best.type) }
        if sawJSONAPI {
            return .failure(
                .notAcceptable(
                    "no acceptable instance of the JSON:API media type in Accept: "
                        + rejections.joined(separator: "; ")))
        }

        // No JSON:API media range: wildcards decide, the most specific first.
        let application = ranges.filter { $0.type == "application" && $0.subtype == "*" }
        let any = ranges.filter { $0.type == "*" && $0.subtype == "*" }
        let deciding = application.isEmpty ? any : application
        if let quality = deciding.map(\.quality).max(), quality > 0 {
            return .success(JSONAPIMediaType())
        }
        return .failure(.notAcceptable("Accept does not allow the JSON:API media type (\(JSONAPIMediaType.base))"))
    }

    /// Whether `Accept` allows a response of the media type `type/subtype` (lowercase, no
    /// wildcards): the most specific range that matches it decides (`type/subtype` over
    /// `type/*` over `*/*`, RFC 9110 §12.5.1), and allows it with `q` > 0. An absent or blank
    /// header allows everything; parameters of the ranges are not compared.
    ///
    /// ```swift
    /// JSONAPINegotiation.accepts("application/json", type: "application", subtype: "json")            // true
    /// JSONAPINegotiation.accepts("*/*, application/json;q=0", type: "application", subtype: "json")   // false
    /// ```
    public static func accepts(_ header: String?, type: String, subtype: String) -> Bool {
        guard let header, header.utf8.contains(where: { !MediaRange.isWhitespace($0) }) else { return true }
        var deciding: (specificity: Int, quality: Int)?
        for range in MediaRange.parseList(Array(header.utf8)) {
            let specificity: Int
            if range.type == type && range.subtype == subtype {
                specificity = 2
            } else if range.type == type && range.subtype == "*" {
                specificity = 1
            } else if range.type == "*" && range.subtype == "*" {
                specificity = 0
            } else {
                continue
            }
            if let current = deciding,
                current.specificity > specificity
                    || (current.specificity == specificity && current.quality >= range.quality)
            {
                continue
            }
            deciding = (specificity, range.quality)
        }
        return (deciding?.quality ?? 0) > 0
    }

    private static func unique(_ values: [String]) -> [String] {
        var seen = Set<String>()
        return values.filter { seen.insert($0).inserted }
    }
}

/// One parsed media range (`type/subtype; name=value; …`), as in `Content-Type` or one
/// element of `Accept` (RFC 9110 §8.3.1, §12.5.1), parsed leniently.
struct MediaRange {
    /// Lowercased type, possibly `*`.
    var type: String
    /// Lowercased subtype, possibly `*`.
    var subtype: String
    /// Media type parameters (names lowercased, values unquoted), without `q` in `Accept`.
    var parameters: [(name: String, value: String)] = []
    /// The `q` weight in thousandths (1000 when absent). Only parsed in `Accept`.
    var quality = 1000
    /// What is wrong with the parameters, or nil when they are well formed.
    var malformation: String?

    var isJSONAPI: Bool { type == "application" && subtype == "vnd.api+json" }

    /// The JSON:API view of the parameters: `ext` and `profile` split on spaces, the rest kept.
    var jsonAPIMediaType: JSONAPIMediaType {
        var result = JSONAPIMediaType()
        for (name, value) in parameters {
            switch name {
            case "ext": result.extensions = Self.splitURIs(value)
            case "profile": result.profiles = Self.splitURIs(value)
            default: result.otherParameters.append(.init(name: name, value: value))
            }
        }
        return result
    }

    static func splitURIs(_ value: String) -> [String] {
        value.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
    }

    /// Splits an `Accept` value at commas outside quoted strings and parses each element;
    /// elements without a valid `type/subtype` are dropped.
    static func parseList(_ bytes: [UInt8]) -> [MediaRange] {
        var ranges: [MediaRange] = []
        var start = 0
        var index = 0
        var inQuotes = false
        while index <= bytes.count {
            if index == bytes.count || (!inQuotes && bytes[index] == UInt8(ascii: ",")) {
                if let range = MediaRange(parsing: bytes[start..<index], inAccept: true) { ranges.append(range) }
                start = index + 1
            } else if inQuotes && bytes[index] == UInt8(ascii: "\\") {
                index += 1
            } else if bytes[index] == UInt8(ascii: "\"") {
                inQuotes.toggle()
            }
            index += 1
        }
        return ranges
    }

    /// Parses one media range; nil when there is no valid `type/subtype`.
    init?(parsing bytes: ArraySlice<UInt8>, inAccept: Bool) {
        var index = bytes.startIndex
        let end = bytes.endIndex

        func skipWhitespace() { while index < end, Self.isWhitespace(bytes[index]) { index += 1 } }
        func token() -> String? {
            let start = index
            while index < end, Self.isTokenByte(bytes[index]) { index += 1 }
            return start == index ? nil : Self.lowercased(bytes[start..<index])
        }

        skipWhitespace()
        guard let type = token(), index < end, bytes[index] == UInt8(ascii: "/") else { return nil }
        index += 1
        guard let subtype = token() else { return nil }
        self.type = type
        self.subtype = subtype
        if type == "*" && subtype != "*" { return nil }

        skipWhitespace()
        while index < end {
            guard bytes[index] == UInt8(ascii: ";") else {
                malformation = "unexpected `\(Self.text(bytes[index..<index + 1]))` after the media type"
                return
            }
            index += 1
            skipWhitespace()
            if index == end || bytes[index] == UInt8(ascii: ";") { continue }  // empty parameter
            guard let name = token() else {
                malformation = "a parameter without a name"
                return
            }
            skipWhitespace()
            guard index < end, bytes[index] == UInt8(ascii: "=") else {
                malformation = "parameter `\(name)` has no value"
                return
            }
            index += 1
            skipWhitespace()
            guard let value = Self.value(bytes, &index) else {
                malformation = "parameter `\(name)` has a malformed value"
                return
            }
            skipWhitespace()
            // RFC 9110 puts the weight last; RFC 7231 read later parameters as accept extensions.
            // Both forms occur, so `q` is taken wherever it is and every other parameter counts.
            if inAccept && name == "q" {
                guard let quality = Self.quality(value) else {
                    malformation = "invalid q value `\(value)`"
                    return
                }
                self.quality = quality
                continue
            }
            if parameters.contains(where: { $0.name == name }) {
                malformation = "parameter `\(name)` appears twice"
                return
            }
            parameters.append((name, value))
        }
    }

    /// A quoted string (unescaped) or a run of bytes up to whitespace, `;`, `,` or `"`.
    /// Unquoted values are accepted beyond the token grammar, since clients send bare URIs.
    static func value(_ bytes: ArraySlice<UInt8>, _ index: inout Int) -> String? {
        let end = bytes.endIndex
        if index < end, bytes[index] == UInt8(ascii: "\"") {
            index += 1
            var value: [UInt8] = []
            while index < end {
                let byte = bytes[index]
                if byte == UInt8(ascii: "\"") {
                    index += 1
                    return String(decoding: value, as: UTF8.self)
                }
                if byte == UInt8(ascii: "\\") {
                    index += 1
                    guard index < end else { return nil }
                }
                value.append(bytes[index])
                index += 1
            }
            return nil  // unterminated
        }
        let start = index
        while index < end {
            let byte = bytes[index]
            if isWhitespace(byte) || byte == UInt8(ascii: ";") || byte == UInt8(ascii: ",")
                || byte == UInt8(ascii: "\"") || byte < 0x20 || byte == 0x7F
            {
                break
            }
            index += 1
        }
        return start == index ? nil : text(bytes[start..<index])
    }

    /// `qvalue = ( "0" [ "." 0*3DIGIT ] ) / ( "1" [ "." 0*3("0") ] )`, in thousandths.
    static func quality(_ text: String) -> Int? {
        let digits = Array(text.utf8)
        guard let first = digits.first, first == UInt8(ascii: "0") || first == UInt8(ascii: "1") else { return nil }
        var fraction = 0
        if digits.count > 1 {
            guard digits[1] == UInt8(ascii: "."), digits.count <= 5 else { return nil }
            var scale = 100
            for digit in digits[2...] {
                guard digit >= UInt8(ascii: "0"), digit <= UInt8(ascii: "9") else { return nil }
                fraction += Int(digit - UInt8(ascii: "0")) * scale
                scale /= 10
            }
        }
        if first == UInt8(ascii: "1") {
            return fraction == 0 ? 1000 : nil
        }
        return fraction
    }

    /// RFC 9110 `tchar`.
    static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        case UInt8(ascii: "!"), UInt8(ascii: "#"), UInt8(ascii: "$"), UInt8(ascii: "%"), UInt8(ascii: "&"),
            UInt8(ascii: "'"), UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."),
            UInt8(ascii: "^"), UInt8(ascii: "_"), UInt8(ascii: "`"), UInt8(ascii: "|"), UInt8(ascii: "~"):
            true
        default:
            false
        }
    }

    static func isWhitespace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 }

    static func text(_ bytes: ArraySlice<UInt8>) -> String { String(decoding: bytes, as: UTF8.self) }

    static func lowercased(_ bytes: ArraySlice<UInt8>) -> String {
        String(decoding: bytes.map { $0 >= 0x41 && $0 <= 0x5A ? $0 + 0x20 : $0 }, as: UTF8.self)
    }
}
