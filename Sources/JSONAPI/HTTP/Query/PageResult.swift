/// What a server learned while fetching one page, for its pagination links
/// (``JSONAPIQuery/Page/links(forRequest:result:)``).
///
/// For page- and offset-based pagination give the total number of items when it is known
/// (then `last` can be linked), or else whether a next page exists. For cursor pagination give
/// the cursors of the first and last items of the page, and whether pages exist before and
/// after it when that is cheap to know.
///
/// ```swift
/// PageResult.total(137)
/// PageResult(hasNextPage: true)
/// PageResult.cursors(first: "c-41", last: "c-60", hasPrevious: true, hasNext: false)
/// ```
public struct PageResult: Sendable, Hashable {
    /// The number of items in the whole collection, when known.
    public var total: Int?
    /// Whether a page follows this one; nil when unknown. With ``total`` known, it is
    /// computed and this is ignored (page and offset strategies).
    public var hasNextPage: Bool?
    /// Whether a page precedes this one; nil when unknown. Used by the cursor strategy (the
    /// others know it from the page number or offset).
    public var hasPreviousPage: Bool?
    /// The cursor of the first item of this page (cursor strategy): `prev` asks for the items
    /// before it.
    public var firstCursor: String?
    /// The cursor of the last item of this page (cursor strategy): `next` asks for the items
    /// after it.
    public var lastCursor: String?

    /// Creates a result.
    public init(
        total: Int? = nil, hasNextPage: Bool? = nil, hasPreviousPage: Bool? = nil, firstCursor: String? = nil,
        lastCursor: String? = nil
    ) {
        self.total = total
        self.hasNextPage = hasNextPage
        self.hasPreviousPage = hasPreviousPage
        self.firstCursor = firstCursor
        self.lastCursor = lastCursor
    }

    /// A result whose collection holds `total` items.
    public static func total(_ total: Int) -> PageResult { PageResult(total: total) }

    /// A cursor page: the cursors of its first and last items (nil for an empty page), and
    /// whether pages exist before and after it (nil when unknown: the link is given, and may
    /// lead to an empty page, as the cursor pagination profile allows).
    public static func cursors(
        first: String?, last: String?, hasPrevious: Bool? = nil, hasNext: Bool? = nil
    ) -> PageResult {
        PageResult(hasNextPage: hasNext, hasPreviousPage: hasPrevious, firstCursor: first, lastCursor: last)
    }
}
