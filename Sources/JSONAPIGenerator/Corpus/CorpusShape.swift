/// The kinds of document ``CorpusDocumentGenerator`` writes: each stresses one thing the
/// articles document of ``CompoundDocumentGenerator`` has little of.
///
/// Every shape is a page of one primary resource type whose resources link, through a to-one
/// and a to-many relationship, to resources of one included type (``primaryType`` and
/// ``includedType``); ``CorpusModels`` models each shape as an app would.
///
/// ```swift
/// let shape = CorpusShape(argument: "numbers")  // .numbers
/// print(shape?.primaryType ?? "")              // "measurements"
/// ```
public enum CorpusShape: String, CaseIterable, Sendable, Hashable, CustomStringConvertible {
    /// Text in many scripts: raw UTF-8 beside `\uXXXX` escapes (surrogate pairs included),
    /// short escapes and escaped control characters. `posts` by `writers`.
    case unicode
    /// Floats with exponents, signs and many digits, integers up to 19 digits, `null`s and
    /// attribute objects nested three deep. `measurements` at `stations`.
    case numbers
    /// Many tiny resources: a type, an id and one attribute. `pings`, some from `hosts`.
    case tiny
    /// Attributes several kilobytes long, with some escapes. `manuscripts` by `editors`.
    case longStrings = "long-strings"
    /// Ids of every width (1 to 64 characters) and scheme: decimal, zero-padded, UUID,
    /// base64-like, hexadecimal and escaped. `entities` with `refs`.
    case ids

    /// Parses the command-line spelling: `unicode`, `numbers`, `tiny`, `long-strings` or `ids`.
    public init?(argument: String) {
        self.init(rawValue: argument)
    }

    /// The command-line spelling, which ``init(argument:)`` reads back.
    public var description: String { rawValue }

    /// The `type` of the primary resources.
    public var primaryType: String {
        switch self {
        case .unicode: "posts"
        case .numbers: "measurements"
        case .tiny: "pings"
        case .longStrings: "manuscripts"
        case .ids: "entities"
        }
    }

    /// The `type` of the included resources.
    public var includedType: String {
        switch self {
        case .unicode: "writers"
        case .numbers: "stations"
        case .tiny: "hosts"
        case .longStrings: "editors"
        case .ids: "refs"
        }
    }

    /// Primary resources per included resource: every included one is the to-one target of
    /// some primary resource, so the document has full linkage.
    var primariesPerIncluded: Int {
        switch self {
        case .unicode: 3
        case .numbers: 4
        case .tiny: 8
        case .longStrings: 2
        case .ids: 2
        }
    }
}
