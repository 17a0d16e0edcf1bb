/// The JSON:API media type, `application/vnd.api+json`, with its `ext` and `profile` parameters.
///
/// JSON:API 1.1 allows exactly two media type parameters: `ext`, a space-separated list of
/// extension URIs, and `profile`, a space-separated list of profile URIs. Any other parameter
/// is kept in ``otherParameters`` so that a server can reject it (see ``JSONAPINegotiation``).
///
/// ```swift
/// let type = JSONAPIMediaType(parsing: #"Application/VND.API+JSON; EXT="https://jsonapi.org/ext/atomic""#)
/// print(type?.extensions ?? [])  // ["https://jsonapi.org/ext/atomic"]
/// print(JSONAPIMediaType(profiles: ["https://example.com/timestamps"]))
/// // application/vnd.api+json; profile="https://example.com/timestamps"
/// ```
public struct JSONAPIMediaType: Sendable, Hashable, CustomStringConvertible {
    /// `application/vnd.api+json`, the media type without parameters.
    public static let base = "application/vnd.api+json"

    /// A media type parameter other than `ext` and `profile`.
    public struct Parameter: Sendable, Hashable {
        /// The parameter name, lowercased (parameter names are case-insensitive).
        public var name: String
        /// The value, unquoted and unescaped.
        public var value: String

        /// Creates a parameter.
        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    /// Extension URIs from the `ext` parameter, in order.
    public var extensions: [String]
    /// Profile URIs from the `profile` parameter, in order.
    public var profiles: [String]
    /// Parameters other than `ext` and `profile`, in order. JSON:API forbids them.
    public var otherParameters: [Parameter]

    /// Creates a media type with the given extension and profile URIs.
    public init(extensions: [String] = [], profiles: [String] = [], otherParameters: [Parameter] = []) {
        self.extensions = extensions
        self.profiles = profiles
        self.otherParameters = otherParameters
    }

    /// Parses one media type, such as the value of a `Content-Type` header.
    ///
    /// The type, subtype and parameter names are case-insensitive; values are either
    /// quoted strings (with `\` escapes) or tokens; whitespace around `;` and `=` is allowed.
    /// `ext` and `profile` values are split on spaces into URIs, which are compared
    /// case-sensitively elsewhere.
    ///
    /// Returns nil if the text is not the JSON:API media type, or if its parameters are
    /// malformed (an unterminated quote, a missing value, a parameter given twice, a comma).
    public init?(parsing headerValue: some StringProtocol) {
        let bytes = Array(headerValue.utf8)
        guard let range = MediaRange(parsing: bytes[...], inAccept: false), range.isJSONAPI,
            range.malformation == nil
        else { return nil }
        self = range.jsonAPIMediaType
    }

    /// True when the only parameters are `ext` and `profile`, as JSON:API 1.1 requires.
    public var hasOnlyAllowedParameters: Bool { otherParameters.isEmpty }

    /// True when there are no parameters at all, as JSON:API 1.0 requires.
    public var hasNoParameters: Bool { extensions.isEmpty && profiles.isEmpty && otherParameters.isEmpty }

    /// The extension URIs not in `supported`, in order.
    public func unsupportedExtensions(_ supported: Set<String>) -> [String] {
        extensions.filter { !supported.contains($0) }
    }

    /// The header value: `application/vnd.api+json`, then `; ext="…"` and `; profile="…"` when
    /// non-empty (URIs joined by spaces, always quoted), then any other parameters (quoted
    /// unless the value is a token).
    public var description: String {
        var text = Self.base
        if !extensions.isEmpty { text += "; ext=" + Self.quoted(extensions.joined(separator: " ")) }
        if !profiles.isEmpty { text += "; profile=" + Self.quoted(profiles.joined(separator: " ")) }
        for parameter in otherParameters {
            let isToken = !parameter.value.isEmpty && parameter.value.utf8.allSatisfy(MediaRange.isTokenByte)
            text += "; " + parameter.name + "=" + (isToken ? parameter.value : Self.quoted(parameter.value))
        }
        return text
    }

    static func quoted(_ value: String) -> String {
        var text = "\""
        for character in value.unicodeScalars {
            if character == "\"" || character == "\\" { text += "\\" }
            text.unicodeScalars.append(character)
        }
        return text + "\""
    }
}
