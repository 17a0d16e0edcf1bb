import JSONAPI

/// The pages of a collection, fetched one at a time as they are iterated, following each
/// page's `links.next`. Get one from ``JSONAPIResources/pages(_:maximumPages:headers:)``.
///
/// The sequence ends after a page without `next`, or after `maximumPages` pages. A `next` that
/// points at a page already read (compared as the URLs are sent, so `page[number]=1` and
/// `page%5Bnumber%5D=1` are the same page) throws ``JSONAPIClientError/Kind/unexpectedDocument``
/// instead of looping for ever; the pages before it have been handed out.
public struct JSONAPIPages<Model: JSONAPIResource & Decodable>: AsyncSequence, Sendable {
    /// One decoded page.
    public typealias Element = DecodedResponse<[Model]>

    let client: JSONAPIClient
    let first: String
    let maximumPages: Int
    let headers: JSONAPIHTTPHeaders

    /// Starts at the first page.
    public func makeAsyncIterator() -> Iterator {
        Iterator(client: client, next: first, remaining: maximumPages, headers: headers)
    }

    /// Every model of every page, in order.
    ///
    /// - Throws: ``JSONAPIClientError``.
    public func models() async throws -> [Model] {
        var models: [Model] = []
        var iterator = makeAsyncIterator()
        while let page = try await iterator.next() { models += page.value }
        return models
    }

    /// Fetches the pages.
    public struct Iterator: AsyncIteratorProtocol {
        let client: JSONAPIClient
        var next: String?
        var remaining: Int
        let headers: JSONAPIHTTPHeaders
        var seen: Set<String> = []

        /// The next page, or nil after the last.
        ///
        /// - Throws: ``JSONAPIClientError``.
        public mutating func next() async throws -> Element? {
            guard remaining > 0, let url = next else { return nil }
            // As sent: a link that spells the brackets of `page[number]` raw and one that
            // percent-encodes them name the same page.
            guard seen.insert(JSONAPIClient.wellFormed(url)).inserted else {
                next = nil
                throw JSONAPIClientError(
                    .unexpectedDocument, method: "GET", url: url,
                    message: "the `next` link leads back to a page already read")
            }
            remaining -= 1
            next = nil
            let page = try await client.fetch([Model].self, client.request("GET", url, headers: headers))
            next = page.next.map(client.absoluteURL)
            return page
        }

    }
}
