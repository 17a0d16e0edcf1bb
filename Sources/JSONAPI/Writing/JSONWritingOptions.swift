/// How JSON is written: the one set of output settings used by ``JSONWriter``,
/// ``JSONWritable/jsonBytes(options:)`` and ``EncodingOptions/formatting``.
///
/// ```swift
/// let compact = try document.jsonBytes()                                        // one line
/// let pretty = try document.jsonBytes(options: .init(prettyPrinted: true, sortsKeys: true))
/// ```
public struct JSONWritingOptions: Sendable, Hashable {
    /// Put every member and element on its own line, indented. Off by default.
    public var prettyPrinted: Bool
    /// Spaces per nesting level when pretty printing (negative counts as 0). 2 by default.
    public var indent: Int
    /// Order the members of every object, at every depth, by key (compared by the UTF-8 bytes of
    /// the unescaped name, so the order does not depend on locale). Members with equal keys keep
    /// their order. Off by default: members are written in their original order.
    ///
    /// Values written whole (``JSONWritable/write(to:)``, ``JSONWritable/jsonBytes(options:)``,
    /// ``JSONAPIEncoder``) honour it. ``JSONWriter``'s own calls write members in the order you
    /// make them; write a whole object sorted with ``JSONWriter/object(sortedBy:)``.
    public var sortsKeys: Bool
    /// Escape `/` as `\/` in strings the writer formats. Strings copied from a parsed document
    /// keep the escapes they had in the input. Off by default.
    public var escapesSlashes: Bool

    /// Creates options; the defaults give compact output in the original member order.
    public init(prettyPrinted: Bool = false, indent: Int = 2, sortsKeys: Bool = false, escapesSlashes: Bool = false) {
        self.prettyPrinted = prettyPrinted
        self.indent = indent
        self.sortsKeys = sortsKeys
        self.escapesSlashes = escapesSlashes
    }

    /// Compact output in the original member order (the default).
    public static let compact = JSONWritingOptions()
    /// Pretty-printed output, two spaces per level, in the original member order.
    public static let pretty = JSONWritingOptions(prettyPrinted: true)
}
