extension SplitMix64 {
    /// `true` with a probability of `percent` in 100.
    mutating func chance(_ percent: Int) -> Bool { Int.random(in: 0..<100, using: &self) < percent }

    mutating func int(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &self) }

    mutating func element<T>(_ array: [T]) -> T { array[Int.random(in: array.indices, using: &self)] }
}

/// Draws random ``ModelDocument``s whose identities are hard on a (type, id) index: ids of every
/// length from 0 to 64 bytes and some much longer, every Unicode scalar (control characters and
/// NUL included), numeric ids of 6 and 7 digits, zero-padded ids, and near-duplicates of ids
/// already drawn (one byte changed, one character longer or shorter, a prefix, a trailing NUL,
/// the same id under another type), plus exact duplicates.
struct RandomModelDocuments {
    /// How many distinct types a document draws from.
    enum TypeCount {
        case few
        /// 256 to 400.
        case hundreds
        /// This many: 4,250 straddles the index's short-key limit (4,096 types), more than
        /// 32,768 its long-key limit.
        case thousands(Int)
    }

    var random: SplitMix64
    private var idPool: [String] = []
    private var types: [String] = []
    private var sequence = 0

    init(seed: UInt64) {
        random = SplitMix64(seed: seed)
    }

    // MARK: - Strings

    /// A valid type name (member-name rules: letters, digits and non-ASCII anywhere; `-`, `_` and
    /// space only inside), unique for `index`.
    static func typeName(_ index: Int, style: Int) -> String {
        let prefixes = ["things", "t", "a-b_", "ñandú", "with space ", "日本", "X", "people", "00"]
        return prefixes[style % prefixes.count] + String(index)
    }

    /// A random scalar of a random UTF-8 width no wider than `room` bytes.
    private mutating func scalar(room: Int, alphabet: Int) -> Unicode.Scalar {
        switch alphabet {
        case 0:
            // ASCII letters and digits: what most real ids are made of.
            return Unicode.Scalar(random.element(Array("0123456789abcdefXYZ-_".unicodeScalars)).value) ?? "0"
        case 1:
            // Any ASCII, control characters and the characters JSON escapes included.
            return Unicode.Scalar(UInt8(random.int(0...0x7F)))
        default:
            let width = random.int(1...min(4, room))
            let ranges: [ClosedRange<UInt32>]
            switch width {
            case 1: ranges = [0...0x7F, 0...0x1F, 0x22...0x22, 0x5C...0x5C, 0x2F...0x2F]
            case 2: ranges = [0x80...0x7FF]
            case 3: ranges = [0x800...0xD7FF, 0xE000...0xFFFF]
            default: ranges = [0x10000...0x10FFFF]
            }
            let range = random.element(ranges)
            return Unicode.Scalar(UInt32.random(in: range, using: &random)) ?? "?"
        }
    }

    /// A string of exactly `length` UTF-8 bytes.
    mutating func randomString(length: Int, alphabet: Int) -> String {
        var scalars = String.UnicodeScalarView()
        var count = 0
        while count < length {
            let next = scalar(room: length - count, alphabet: alphabet)
            guard count + String(next).utf8.count <= length else { continue }
            scalars.append(next)
            count += String(next).utf8.count
        }
        return String(scalars)
    }

    /// A near-duplicate of `id`: it differs in one place.
    mutating func nearMiss(of id: String) -> String {
        var scalars = Array(id.unicodeScalars)
        switch random.int(0...7) {
        case 0 where !scalars.isEmpty:
            // One character changed (to one of the same UTF-8 width when ASCII).
            let at = random.int(0...scalars.count - 1)
            let old = scalars[at].value
            scalars[at] = Unicode.Scalar(old < 0x80 ? (old ^ UInt32(1 << random.int(0...6))) : 0x41) ?? "A"
        case 1:
            scalars.append(random.element(["0", "1", "a", "\u{0}", "é", "\u{7F}"]))
        case 2 where !scalars.isEmpty:
            scalars.removeLast()
        case 3 where scalars.count > 1:
            scalars = Array(scalars.prefix(random.int(0...scalars.count - 1)))
        case 4:
            scalars.append("\u{0}")
        case 5:
            scalars.insert(random.element(["0", "\u{0}"]), at: 0)
        case 6 where !scalars.isEmpty:
            // The last byte bumped: `000000` to `000001`, `000002` to `000003`.
            let last = scalars[scalars.count - 1].value
            scalars[scalars.count - 1] = Unicode.Scalar(last < 0x7F ? last + 1 : 0x30) ?? "0"
        default:
            scalars.append(contentsOf: "0".unicodeScalars)
        }
        var view = String.UnicodeScalarView()
        view.append(contentsOf: scalars)
        return String(view)
    }

    /// An id drawn from one of the shapes the index has to tell apart.
    mutating func makeID() -> String {
        let id: String
        switch random.int(0...99) {
        case 0..<12:
            // Six-digit numbers, and the run across 999999 to seven digits.
            id = String(random.chance(70) ? random.int(100_000...999_999) : random.int(999_990...1_000_010))
        case 12..<22:
            // Sequential ids of one width, zero-padded: `000000`, `000001`, ...
            sequence += 1
            let width = random.element([5, 6, 6, 6, 7, 8])
            let digits = String(sequence % 1_000)
            id = String(repeating: "0", count: max(0, width - digits.count)) + digits
        case 22..<48 where !idPool.isEmpty:
            id = nearMiss(of: random.element(idPool))
        case 48..<55 where !idPool.isEmpty:
            id = random.element(idPool)
        case 55..<60:
            id = randomString(length: random.int(65...200), alphabet: random.int(0...2))
        case 60..<61:
            id = randomString(length: random.int(1_000...3_000), alphabet: random.int(0...2))
        default:
            // Every length up to 64 bytes: below, at and past every word size.
            id = randomString(length: random.int(0...64), alphabet: random.int(0...2))
        }
        idPool.append(id)
        return id
    }

    mutating func spelled(_ value: String) -> SpelledString {
        SpelledString(value: value, spelling: random.next())
    }

    // MARK: - Documents

    /// A random document.
    ///
    /// - Parameters:
    ///   - typeCount: how many distinct types resources and linkage draw from.
    ///   - resources: how many resource objects, primary and included.
    mutating func document(typeCount: TypeCount = .few, resources: Int? = nil) -> ModelDocument {
        idPool = []
        let style = random.int(0...8)
        switch typeCount {
        case .few: types = (0..<random.int(1...6)).map { Self.typeName($0, style: style + $0 % 3) }
        case .hundreds: types = (0..<random.int(256...400)).map { Self.typeName($0, style: style) }
        case .thousands(let count): types = (0..<count).map { Self.typeName($0, style: style) }
        }
        let count = resources ?? (random.chance(85) ? random.int(0...24) : random.int(25...200))
        var all: [ModelResource] = []
        var keys: [ResourceIdentifierKey] = []
        var everyType = false
        if case .thousands = typeCount { everyType = true }
        for index in 0..<count {
            let type: String
            let id: String
            if everyType && index < types.count {
                // Each type once, in order, so the type table's indices pass 255 and 32,768.
                type = types[index]
                id = makeID()
            } else if !keys.isEmpty && random.chance(6) {
                // An exact duplicate of an earlier resource, spelled its own way.
                let key = random.element(keys)
                (type, id) = (key.type, key.id)
            } else if everyType && random.chance(70) {
                // Past the first resources: mostly the last types, past the index's long keys.
                type = types[random.int(max(0, types.count - 300)...types.count - 1)]
                id = makeID()
            } else {
                type = random.element(types)
                id = makeID()
            }
            keys.append(ResourceIdentifierKey(type: type, id: id))
            all.append(
                ModelResource(type: spelled(type), id: spelled(id), relationships: [], layout: random.next()))
        }
        // With thousands of types, only the last resources link, to keep the document small.
        for index in all.indices where !everyType || index >= all.count - 300 {
            all[index].relationships = relationships(keys: keys)
        }

        let kind: ModelDocument.Kind
        switch random.int(0...99) {
        case 0..<70: kind = .many
        case 70..<80: kind = .one
        case 80..<85: kind = .null
        default: kind = .linkage
        }
        var primaryCount: Int
        switch kind {
        case .many: primaryCount = random.int(0...all.count)
        case .one: primaryCount = min(1, all.count)
        case .null, .linkage: primaryCount = 0
        }
        if kind == .many && random.chance(20) { primaryCount = all.count }
        let primary = Array(all.prefix(primaryCount))
        let rest = Array(all.dropFirst(primaryCount))
        let included: [ModelResource]? = rest.isEmpty && random.chance(70) ? nil : rest
        let primaryLinkage = kind == .linkage ? (0..<random.int(0...6)).map { _ in identifier(keys: keys) } : []
        return ModelDocument(
            kind: kind == .one && primary.isEmpty ? .null : kind, primary: primary, primaryLinkage: primaryLinkage,
            included: included, includedFirst: random.chance(10), layout: random.next(),
            looseness: random.element([0, 0, 0, 10, 40]))
    }

    /// A resource identifier: usually of a resource in the document, sometimes a near miss of one
    /// or of a type the document has no resource of.
    mutating func identifier(keys: [ResourceIdentifierKey]) -> ModelIdentifier {
        var type = random.element(types)
        var id: String
        switch random.int(0...99) {
        case 0..<70 where !keys.isEmpty:
            let key = random.element(keys)
            (type, id) = (key.type, key.id)
        case 70..<85 where !keys.isEmpty:
            let key = random.element(keys)
            type = key.type
            id = nearMiss(of: key.id)
        case 85..<92 where !keys.isEmpty:
            // The id of a resource, under another type.
            id = random.element(keys).id
        case 92..<95:
            type = "absent" + String(random.int(0...3))
            id = random.element(keys.map(\.id) + ["1"])
        default:
            id = makeID()
        }
        return ModelIdentifier(type: spelled(type), id: spelled(id), layout: random.next())
    }

    mutating func relationships(keys: [ResourceIdentifierKey]) -> [ModelRelationship] {
        let count = random.chance(30) ? 0 : random.int(1...4)
        return (0..<count).map { index in
            let data: ModelRelationship.Data
            switch random.int(0...99) {
            case 0..<5: data = .absent
            case 5..<15: data = .null
            case 15..<50: data = .one(identifier(keys: keys))
            case 50..<60: data = .many([])
            default: data = .many((0..<random.int(1...5)).map { _ in identifier(keys: keys) })
            }
            return ModelRelationship(
                name: random.element(["author", "r", "next-one", "ü"]) + String(index), data: data)
        }
    }

    /// Keys that the document does not hold but that come close to keys it does.
    mutating func absentNearMisses(of keys: [ResourceIdentifierKey], count: Int) -> [ResourceIdentifierKey] {
        let present = Set(keys)
        var result: [ResourceIdentifierKey] = []
        guard !keys.isEmpty else { return [ResourceIdentifierKey(type: types.first ?? "t", id: "")] }
        for _ in 0..<count {
            let key = random.element(keys)
            let candidate =
                random.chance(20)
                ? ResourceIdentifierKey(type: random.element(types), id: key.id)
                : ResourceIdentifierKey(type: key.type, id: nearMiss(of: key.id))
            if !present.contains(candidate) { result.append(candidate) }
        }
        return result
    }
}
