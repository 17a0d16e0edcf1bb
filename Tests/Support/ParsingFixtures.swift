import JSONAPI

/// Inputs that the scanner's tests check against their expected outcome and the yajl backend's
/// tests against the scanner's.
enum ParsingFixtures {
    /// Options with one limit outside its documented range, each with the name of that limit.
    static let outOfRangeOptions: [(limit: String, options: ParsingOptions)] = {
        func with(_ change: (inout ParsingOptions) -> Void) -> ParsingOptions {
            var options = ParsingOptions()
            change(&options)
            return options
        }
        return [
            ("maximumDocumentBytes", with { $0.maximumDocumentBytes = -5 }),
            ("maximumDocumentBytes", with { $0.maximumDocumentBytes = Int(UInt32.max) }),
            ("maximumDepth", with { $0.maximumDepth = 0 }),
            ("maximumDepth", with { $0.maximumDepth = 1_000_000 }),
            ("maximumStringBytes", with { $0.maximumStringBytes = -1 }),
            ("maximumResourceCount", with { $0.maximumResourceCount = -1 }),
            ("maximumDiagnostics", with { $0.maximumDiagnostics = -1 }),
        ]
    }()

    /// Documents whose proper prefixes end inside every kind of token: numbers with a sign,
    /// fraction and exponent, escapes, literals, keys, nested containers, leading whitespace.
    static let truncatedDocuments = [
        #"{"data":{"type":"a","id":"1","attributes":{"n":-1.5e3,"s":"\u00e9x","b":[true,false,null]}}}"#,
        "[", " {", #"{"meta":{"a":"#,
    ]
}
