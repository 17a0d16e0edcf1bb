import JSONAPI

/// Where a resource stands in a collection's order: its values of the sort fields, then its id.
///
/// A declaration paginated with cursors (`QueryRules.Pagination.cursors()`, the cursor
/// pagination profile) hands clients positions as opaque cursors: each resource of a page carries
/// its own in `meta.page.cursor`, and the `prev` and `next` links name the first and the last.
/// The service reads `page[after]` and `page[before]` back into positions
/// (``ResourceListQuery/after`` and ``ResourceListQuery/before``), so a data source sees values
/// to compare, never the text a client sent. A page read after a position neither skips nor
/// repeats a resource that stayed where it was, whatever was created or deleted meanwhile.
///
/// ```swift
/// let position = ResourcePosition(values: ["Dune"], id: "7")
/// ResourcePosition(cursor: position.cursor, sortFields: 1) == position   // true
/// ResourcePosition(cursor: "not-a-cursor", sortFields: 1)               // nil
/// ```
public struct ResourcePosition: Sendable, Hashable {
    /// The resource's values of the sort fields, in their order (`null` for one it has none of).
    public var values: [JSON]
    /// The resource's id: the last key of every order, so that equal values keep one order.
    public var id: String

    /// A position.
    public init(values: [JSON], id: String) {
        self.values = values
        self.id = id
    }

    /// The position of `record` in the order of `sort`.
    public init(of record: JSONAPIResourceObject, sort: [JSONAPIQuery.SortField]) {
        self.init(values: sort.map { record.attributes[$0.name] ?? .null }, id: record.id ?? "")
    }

    /// The opaque cursor of the position: the JSON array of its values and its id, in base64url
    /// without padding (so that it needs no escaping in a query).
    public var cursor: String {
        var writer = JSONWriter()
        JSON.array(values + [.string(id)]).write(to: &writer, sortingKeys: false)
        return Base64URL.encode((try? writer.finish()) ?? [])
    }

    /// The position `cursor` names, or nil when it is not a cursor of an order with
    /// `sortFields` sort fields (made for another sort, changed, or not made by a service).
    public init?(cursor: String, sortFields: Int) {
        guard let bytes = Base64URL.decode(cursor),
            let document = try? Document(parsing: Array("{\"meta\":{\"v\":".utf8) + bytes + Array("}}".utf8)),
            let meta = document.meta, let value = meta["v"], case .array(var elements) = JSON(value),
            elements.count == sortFields + 1, case .string(let id)? = elements.popLast(),
            elements.allSatisfy({ $0.isScalar })
        else { return nil }
        self.init(values: elements, id: id)
    }
}

extension JSONAPIHTTPError {
    /// 400 at `parameter` (`page[after]` or `page[before]`): not a cursor of this collection in
    /// this order. The refusal of the service and of every source that reads positions itself.
    package static func invalidCursor(_ parameter: String) -> JSONAPIHTTPError {
        JSONAPIHTTPError(
            status: 400, code: "invalid-cursor", title: "Invalid cursor",
            detail: "`\(parameter)` is not a cursor of this collection in this order", source: .parameter(parameter))
    }
}

extension JSON {
    /// Whether the value is a string, number, boolean or null: what a sort field holds.
    fileprivate var isScalar: Bool {
        switch self {
        case .array, .object: false
        default: true
        }
    }
}

/// Base64 with the URL-safe alphabet (RFC 4648 §5), without padding.
enum Base64URL {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    static func encode(_ bytes: [UInt8]) -> String {
        var output: [UInt8] = []
        output.reserveCapacity((bytes.count + 2) / 3 * 4)
        var index = 0
        while index < bytes.count {
            let count = min(3, bytes.count - index)
            var group: UInt32 = 0
            for offset in 0..<3 {
                group = group << 8 | UInt32(offset < count ? bytes[index + offset] : 0)
            }
            for character in 0..<(count + 1) {
                output.append(alphabet[Int(group >> UInt32(18 - 6 * character) & 63)])
            }
            index += 3
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// The bytes of `text`, or nil when it is not base64url without padding.
    static func decode(_ text: String) -> [UInt8]? {
        var output: [UInt8] = []
        var group: UInt32 = 0
        var bits = 0
        for character in text.utf8 {
            let value: UInt8
            switch character {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): value = character - UInt8(ascii: "A")
            case UInt8(ascii: "a")...UInt8(ascii: "z"): value = character - UInt8(ascii: "a") + 26
            case UInt8(ascii: "0")...UInt8(ascii: "9"): value = character - UInt8(ascii: "0") + 52
            case UInt8(ascii: "-"): value = 62
            case UInt8(ascii: "_"): value = 63
            default: return nil
            }
            group = group << 6 | UInt32(value)
            bits += 6
            if bits >= 8 {
                bits -= 8
                output.append(UInt8(truncatingIfNeeded: group >> UInt32(bits)))
                group &= (1 << UInt32(bits)) - 1
            }
        }
        // A final group of 6 bits, or left-over bits that are not zero, is not an encoding.
        guard bits < 6, group == 0 else { return nil }
        return output
    }
}
