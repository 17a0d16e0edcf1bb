/// The limits that keep parsing a hostile query string cheap.
///
/// Parsing reads the query once, left to right, without recursion; these limits bound what it
/// keeps and how much it reports. The length is checked before anything else, so an oversized
/// query costs one comparison. Going over a limit is the client's mistake: a 400 problem with a
/// code naming the limit (``QueryProblem/Code/queryTooLong``, ...), not a crash.
///
/// ```swift
/// var options = QueryOptions()
/// options.maximumIncludeDepth = 3
/// let query = try JSONAPIQuery(parsing: rawQuery, rules: rules, options: options)
/// ```
public struct QueryOptions: Sendable, Hashable {
    /// Maximum length of the raw query string in bytes. Default 16,384: twice the 8 KB request
    /// line most HTTP servers and proxies accept, so a real query never meets it.
    public var maximumQueryBytes: Int = 16_384

    /// Maximum number of parameters (`&`-separated pieces that are not empty). Default 100:
    /// a page of resources asked for with many sparse fieldsets and filters uses a few dozen.
    public var maximumParameters: Int = 100

    /// Maximum number of paths in `include`. Default 32.
    public var maximumIncludePaths: Int = 32

    /// Maximum number of relationships in one `include` path (`comments.author` has 2).
    /// Default 8: each level multiplies the work of building the response.
    public var maximumIncludeDepth: Int = 8

    /// Maximum number of fields in `sort`. Default 16.
    public var maximumSortFields: Int = 16

    /// Maximum number of bracket pairs in a `filter` name (`filter[author][name]` has 2).
    /// Default 8.
    public var maximumFilterDepth: Int = 8

    /// The largest value allowed for ``maximumQueryBytes``: 1 MiB. No URL is longer.
    public static let queryBytesCeiling = 1 << 20

    /// Creates the default options.
    public init() {}

    /// Checks that every limit is in its documented range: ``maximumQueryBytes`` between 0 and
    /// ``queryBytesCeiling``, every other limit at least 1.
    ///
    /// Parsing calls this first, so a limit out of range is reported before any byte is read.
    ///
    /// ```swift
    /// var options = QueryOptions()
    /// options.maximumParameters = 0
    /// try options.validate()   // invalid option: QueryOptions.maximumParameters is 0; it must be at least 1
    /// ```
    ///
    /// - Throws: ``JSONAPIError`` with code ``JSONAPIError/Code/invalidOption`` naming the first
    ///   limit out of range (a server's mistake, which error mapping answers with 500).
    public func validate() throws(JSONAPIError) {
        try Self.check("maximumQueryBytes", maximumQueryBytes, in: 0...Self.queryBytesCeiling)
        try Self.check("maximumParameters", maximumParameters, in: 1...Int.max)
        try Self.check("maximumIncludePaths", maximumIncludePaths, in: 1...Int.max)
        try Self.check("maximumIncludeDepth", maximumIncludeDepth, in: 1...Int.max)
        try Self.check("maximumSortFields", maximumSortFields, in: 1...Int.max)
        try Self.check("maximumFilterDepth", maximumFilterDepth, in: 1...Int.max)
    }

    static func check(_ name: String, _ value: Int, in range: ClosedRange<Int>) throws(JSONAPIError) {
        try ParsingOptions.check(name, value, in: range, of: "QueryOptions")
    }
}
