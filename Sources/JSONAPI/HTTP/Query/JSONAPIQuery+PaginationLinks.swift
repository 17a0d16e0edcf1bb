extension JSONAPIQuery.Page {
    /// The pagination links of this page: `self`, `first`, `prev`, `next` and `last`, each the
    /// request's URL with only the parameters that locate the page changed.
    ///
    /// `self` is the request target as given. The other links replace the page's locator in
    /// place (`page[number]`, `page[offset]`, or the first of `page[after]` and `page[before]`,
    /// dropping the other) or append it when the request had none, its name percent-encoded
    /// (`page%5Bnumber%5D`, as every name this library writes); every other parameter,
    /// `page[size]` and `page[limit]` included, keeps its place and its exact encoding, byte for
    /// byte. Links that do not exist are left out (JSON:API allows leaving them out or writing
    /// `null`):
    ///
    /// | Strategy | `first` | `prev` | `next` | `last` |
    /// |---|---|---|---|---|
    /// | page number | number 1 | number − 1, when > 1 | number + 1, while not past the last page (or when ``PageResult/hasNextPage`` is not false) | the last page, when ``PageResult/total`` is known |
    /// | offset | offset 0 | offset − limit (at least 0), when offset > 0 | offset + limit, while < total (or when ``PageResult/hasNextPage`` is not false) | the offset of the last page, when the total is known |
    /// | cursor | no cursor | `page[before]` the first item's cursor, without `page[after]` | `page[after]` the last item's cursor, without `page[before]` | never |
    ///
    /// A cursor page gives `prev` and `next` unless its result says there is no such page or has
    /// no cursor for it (an empty page).
    ///
    /// ```swift
    /// let page = JSONAPIQuery.Page.number(2, size: 10)
    /// let links = page.links(forRequest: "/articles?sort=-created&page%5Bnumber%5D=2", result: .total(35))
    /// // self  /articles?sort=-created&page%5Bnumber%5D=2
    /// // first /articles?sort=-created&page%5Bnumber%5D=1
    /// // prev  /articles?sort=-created&page%5Bnumber%5D=1
    /// // next  /articles?sort=-created&page%5Bnumber%5D=3
    /// // last  /articles?sort=-created&page%5Bnumber%5D=4
    /// ```
    ///
    /// - Parameters:
    ///   - target: The request's URL, absolute (`https://example.com/articles?…`) or a path with
    ///     its query (`/articles?…`), as the client sent it; a fragment is dropped.
    ///   - result: What the server learned fetching the page.
    /// - Returns: The links, in the order `self`, `first`, `prev`, `next`, `last`.
    public func links(forRequest target: String, result: PageResult) -> JSONAPILinks {
        let request = RequestTarget(target)
        var links = JSONAPILinks()
        links["self"] = JSONAPILink(href: request.withoutFragment)
        switch self {
        case .number(let number, let size):
            let size = Swift.max(size, 1)
            let lastPage = result.total.map { total in
                Swift.max(1, total / size + (total % size == 0 ? 0 : 1))
            }
            func page(_ number: Int) -> JSONAPILink {
                JSONAPILink(href: request.replacing(["page[number]"], with: ("page[number]", String(number))))
            }
            links["first"] = page(1)
            if number > 1 { links["prev"] = page(Swift.min(number - 1, lastPage ?? Int.max)) }
            let hasNext = lastPage.map { number < $0 } ?? (result.hasNextPage != false)
            if hasNext, number < Int.max { links["next"] = page(number + 1) }
            if let lastPage { links["last"] = page(lastPage) }
        case .offset(let offset, let limit):
            let limit = Swift.max(limit, 1)
            let total = result.total.map { Swift.max($0, 0) }
            let lastOffset = total.map { $0 == 0 ? 0 : ($0 - 1) / limit * limit }
            func page(_ offset: Int) -> JSONAPILink {
                JSONAPILink(href: request.replacing(["page[offset]"], with: ("page[offset]", String(offset))))
            }
            links["first"] = page(0)
            if offset > 0 { links["prev"] = page(Swift.min(Swift.max(offset - limit, 0), lastOffset ?? Int.max)) }
            let fits = offset <= Int.max - limit
            let hasNext = total.map { fits && offset + limit < $0 } ?? (result.hasNextPage != false)
            if hasNext, fits { links["next"] = page(offset + limit) }
            if let lastOffset { links["last"] = page(lastOffset) }
        case .cursor:
            // The cursor that locates the page takes the place of the request's cursors.
            let cursors: Set<String> = ["page[after]", "page[before]"]
            links["first"] = JSONAPILink(href: request.replacing(cursors, with: nil))
            if result.hasPreviousPage != false, let cursor = result.firstCursor {
                links["prev"] = JSONAPILink(href: request.replacing(cursors, with: ("page[before]", cursor)))
            }
            if result.hasNextPage != false, let cursor = result.lastCursor {
                links["next"] = JSONAPILink(href: request.replacing(cursors, with: ("page[after]", cursor)))
            }
        }
        return links
    }
}

/// A request URL taken apart for pagination links: everything before the query, and the query's
/// pieces exactly as written.
struct RequestTarget {
    /// The URL up to (not including) the `?`.
    let prefix: String
    /// The `&`-separated pieces of the query as written, and each piece's decoded name (nil when
    /// it cannot be decoded, so it is never taken for a page parameter).
    let pieces: [(raw: String, name: String?)]
    /// The URL without its fragment.
    let withoutFragment: String

    /// Splits `target` at ASCII delimiters, byte by byte, so that a combining character after a
    /// delimiter cannot hide it.
    init(_ target: String) {
        let bytes = Array(target.utf8)
        let end = bytes.firstIndex(of: UInt8(ascii: "#")) ?? bytes.endIndex
        withoutFragment = String(decoding: bytes[..<end], as: UTF8.self)
        guard let question = bytes[..<end].firstIndex(of: UInt8(ascii: "?")) else {
            prefix = withoutFragment
            pieces = []
            return
        }
        prefix = String(decoding: bytes[..<question], as: UTF8.self)
        pieces = bytes[(question + 1)..<end].split(separator: UInt8(ascii: "&")).map { piece in
            let nameEnd = piece.firstIndex(of: UInt8(ascii: "=")) ?? piece.endIndex
            let name = unsafe piece[..<nameEnd].withUnsafeBufferPointer { name in
                unsafe try? QueryPercentEncoding.decode(name, 0..<name.count).get()
            }
            return (String(decoding: piece, as: UTF8.self), name)
        }
    }

    /// The URL with the parameters named `names` replaced by `replacement`: it takes the place
    /// of the first of them and the others are dropped, or it is appended when there is none
    /// (nil removes them all). Every other piece is kept as written.
    func replacing(_ names: Set<String>, with replacement: (name: String, value: String)?) -> String {
        var output: [String] = []
        output.reserveCapacity(pieces.count + 1)
        var replaced = false
        for piece in pieces {
            guard let name = piece.name, names.contains(name) else {
                output.append(piece.raw)
                continue
            }
            if !replaced, let replacement {
                output.append(QueryPercentEncoding.parameter(name: replacement.name, value: replacement.value))
            }
            replaced = true
        }
        if !replaced, let replacement {
            output.append(QueryPercentEncoding.parameter(name: replacement.name, value: replacement.value))
        }
        return output.isEmpty ? prefix : prefix + "?" + output.joined(separator: "&")
    }
}
