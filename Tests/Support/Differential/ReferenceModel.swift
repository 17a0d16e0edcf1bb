/// A plain-Swift model of a JSON:API document's identities and linkage, and what the library must
/// report about it: which record a (type, id) lookup finds, what each identifier resolves to, which
/// resources are duplicates and which included resources full linkage leaves unreachable.
///
/// Nothing here calls the library: the expectations come from dictionaries, arrays and a
/// breadth-first walk, written from the specification and the documented rules:
///
/// - records are numbered in document order (`data` and `included` as they appear in the text);
/// - a repeated (type, id) pair is a `duplicateResource` problem reported at every occurrence but
///   the first (an error in strict mode, a warning in lenient mode), and lookups and linkage find
///   the first occurrence;
/// - full linkage starts from the primary resources (or, in a relationship document, from the
///   resources its primary identifiers name), follows every resolved identifier of every reached
///   resource, and warns once for each included resource never reached.

/// A (type, id) pair compared by its UTF-8 bytes, as JSON:API identity is. `String`'s own `==`
/// applies Unicode canonical equivalence (`"é"` equals `"e\u{301}"`), which would merge ids the
/// specification keeps apart, so the model never compares ids as `String`s.
struct ResourceIdentifierKey: Hashable, CustomStringConvertible {
    var type: String
    var id: String

    static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.type.utf8.elementsEqual(rhs.type.utf8) && lhs.id.utf8.elementsEqual(rhs.id.utf8)
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(type.utf8.count)
        for byte in type.utf8 { hasher.combine(byte) }
        hasher.combine(id.utf8.count)
        for byte in id.utf8 { hasher.combine(byte) }
    }

    var description: String { "\(type.debugDescription)/\(id.debugDescription)" }
}

/// A string with the seed that decides how it is spelled in JSON (which characters are escaped,
/// and how), so that a document renders the same way every time, also while it is being shrunk.
struct SpelledString {
    var value: String
    var spelling: UInt64
}

/// A resource identifier object in linkage.
struct ModelIdentifier {
    var type: SpelledString
    var id: SpelledString
    var layout: UInt64

    var key: ResourceIdentifierKey { ResourceIdentifierKey(type: type.value, id: id.value) }
}

/// A relationship and its `data`.
struct ModelRelationship {
    enum Data {
        /// No `data` member: the relationship has only `meta`.
        case absent
        case null
        case one(ModelIdentifier)
        case many([ModelIdentifier])

        var identifiers: [ModelIdentifier] {
            switch self {
            case .absent, .null: []
            case .one(let identifier): [identifier]
            case .many(let identifiers): identifiers
            }
        }
    }

    var name: String
    var data: Data
}

/// A resource object.
struct ModelResource {
    var type: SpelledString
    var id: SpelledString
    var relationships: [ModelRelationship]
    /// Decides member order, extra members and whitespace.
    var layout: UInt64

    var key: ResourceIdentifierKey { ResourceIdentifierKey(type: type.value, id: id.value) }
}

/// A whole document as the model sees it.
struct ModelDocument {
    enum Kind {
        /// A response whose `data` is an array of resources.
        case many
        /// A response whose `data` is one resource (`primary` holds exactly one).
        case one
        /// A response whose `data` is `null` (`primary` is empty).
        case null
        /// A relationship document (`ParsingOptions.Kind.relationshipUpdate`): `data` is an
        /// array of identifiers.
        case linkage
    }

    var kind: Kind
    var primary: [ModelResource]
    /// The primary identifiers of a `.linkage` document.
    var primaryLinkage: [ModelIdentifier]
    /// nil when the document has no `included` member.
    var included: [ModelResource]?
    /// Whether `included` is written before `data`, which puts its records first.
    var includedFirst: Bool
    /// Decides whitespace and the extra top-level members.
    var layout: UInt64
    /// How much whitespace goes between tokens: 0 for none.
    var looseness: Int

    /// Every resource in record order (document order), and whether it is included.
    var records: [(resource: ModelResource, isIncluded: Bool)] {
        let primaryRecords = primary.map { (resource: $0, isIncluded: false) }
        let includedRecords = (included ?? []).map { (resource: $0, isIncluded: true) }
        return includedFirst ? includedRecords + primaryRecords : primaryRecords + includedRecords
    }

    var resourceCount: Int { primary.count + (included?.count ?? 0) }
}

/// One diagnostic the library must report, without line and column.
struct ExpectedDiagnostic: Equatable, CustomStringConvertible {
    var isError: Bool
    var code: String
    var message: String
    var offset: Int
    var pointer: String

    /// Messages hold ids, so they are compared byte for byte (see ``ResourceIdentifierKey``).
    static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.isError == rhs.isError && lhs.code == rhs.code && lhs.offset == rhs.offset
            && lhs.message.utf8.elementsEqual(rhs.message.utf8) && lhs.pointer.utf8.elementsEqual(rhs.pointer.utf8)
    }

    var description: String { "\(isError ? "error" : "warning") \(code) @\(offset) \(pointer): \(message)" }
}

/// What the library must report for one document in one mode.
struct Expectations {
    /// Record position of the first occurrence of every key.
    var firstPosition: [ResourceIdentifierKey: Int] = [:]
    /// Records, in order, with their keys.
    var keys: [ResourceIdentifierKey] = []
    /// For each record, each relationship's resolved targets (nil for an unresolved identifier).
    var targets: [[[Int?]]] = []
    /// The primary identifiers' targets of a relationship document.
    var primaryTargets: [Int?] = []
    /// The diagnostics, in the order the library lists them.
    var diagnostics: [ExpectedDiagnostic] = []
    /// Whether strict parsing must throw.
    var strictFails = false
}

extension ModelDocument {
    /// What the library must report, given where each record's object starts in the rendered
    /// text and the options that matter.
    ///
    /// - Parameters:
    ///   - objectOffsets: the byte offset of each record's `{`, in record order.
    ///   - pointers: each record's JSON Pointer, in record order.
    func expectations(
        objectOffsets: [Int], pointers: [String], lenient: Bool, checksFullLinkage: Bool, maximumDiagnostics: Int
    ) -> Expectations {
        var result = Expectations()
        let records = self.records
        result.keys = records.map(\.resource.key)

        // The index: the first occurrence of each key wins; each later one is a duplicate.
        var pending: [ExpectedDiagnostic] = []
        var errors = 0
        for (position, key) in result.keys.enumerated() {
            if result.firstPosition[key] == nil {
                result.firstPosition[key] = position
            } else {
                errors += 1
                pending.append(
                    ExpectedDiagnostic(
                        isError: !lenient, code: "duplicateResource",
                        message:
                            "resource with type `\(key.type)` and id `\(key.id)` appears more than once; (type, id) pairs must be unique",
                        offset: objectOffsets[position], pointer: pointers[position]))
            }
        }

        // Linkage resolution.
        result.targets = records.map { record in
            record.resource.relationships.map { relationship in
                relationship.data.identifiers.map { result.firstPosition[$0.key] }
            }
        }
        result.primaryTargets = primaryLinkage.map { result.firstPosition[$0.key] }

        // Full linkage: a breadth-first walk over resolved linkage.
        let includedCount = included?.count ?? 0
        if checksFullLinkage && includedCount > 0 {
            var reached = [Bool](repeating: false, count: records.count)
            var queue: [Int] = []
            if kind == .linkage {
                for target in result.primaryTargets.compactMap({ $0 }) where !reached[target] {
                    reached[target] = true
                    queue.append(target)
                }
            } else {
                for position in records.indices where !records[position].isIncluded {
                    reached[position] = true
                    queue.append(position)
                }
            }
            var head = 0
            while head < queue.count {
                let position = queue[head]
                head += 1
                for relationship in result.targets[position] {
                    for target in relationship.compactMap({ $0 }) where !reached[target] {
                        reached[target] = true
                        queue.append(target)
                    }
                }
            }
            for position in records.indices where records[position].isIncluded && !reached[position] {
                let key = result.keys[position]
                pending.append(
                    ExpectedDiagnostic(
                        isError: false, code: "unreachableResource",
                        message:
                            "included resource with type `\(key.type)` and id `\(key.id)` is not reachable from primary data through relationships (full linkage)",
                        offset: objectOffsets[position], pointer: pointers[position]))
            }
        }

        // At most `maximumDiagnostics` are kept, in the order found; then sorted by offset (a
        // stable sort); a last warning counts the rest.
        let kept = Array(pending.prefix(maximumDiagnostics))
        let dropped = pending.count - kept.count
        var sorted = kept.enumerated().sorted { ($0.element.offset, $0.offset) < ($1.element.offset, $1.offset) }
            .map(\.element)
        if dropped > 0 {
            sorted.append(
                ExpectedDiagnostic(
                    isError: false, code: "specViolation",
                    message: "\(dropped) more problems were found but not recorded (ParsingOptions.maximumDiagnostics)",
                    offset: -1, pointer: ""))
        }
        result.diagnostics = sorted
        result.strictFails = errors > 0
        return result
    }
}
