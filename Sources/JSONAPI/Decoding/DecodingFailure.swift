/// Every problem that made a decode fail, not only the first: what
/// ``JSONAPIDecoder/decodeListingProblems(_:from:)-(_,Document)`` throws.
///
/// A server answers a request body with all of them at once (one error object each, with its
/// pointer), so a client fixes a form in one round trip:
///
/// ```swift
/// do {
///     let article = try decoder.decodeListingProblems(Article.self, from: document)
/// } catch let failure as DecodingFailure {
///     for problem in failure.problems { print(problem) }
///     // title rejected: expected a string, found a number at /data/attributes/title (line 1, column 52)
///     // views rejected: expected an integer, found "many" at /data/attributes/views (line 1, column 67)
///     let errors = JSONAPIErrorDocument(describing: failure)   // two 422 error objects
/// }
/// ```
public struct DecodingFailure: Error, CustomStringConvertible {
    /// The problems, in the order the model's `init(from:)` met them; each one's
    /// ``DecodingProblem/action`` is ``DecodingProblem/Action/rejected``.
    public var problems: [DecodingProblem]
    /// The error a strict decode throws for each problem, in the same order: the first is what
    /// ``JSONAPIDecoder/decode(_:from:)-(_,Document)`` throws.
    public var errors: [DecodingError]

    /// Creates a value.
    public init(problems: [DecodingProblem], errors: [DecodingError]) {
        self.problems = problems
        self.errors = errors
    }

    public var description: String {
        let count = problems.count == 1 ? "1 problem" : "\(problems.count) problems"
        return "The document does not fit the model (\(count)):\n"
            + problems.map { "- \($0)" }.joined(separator: "\n")
    }
}
