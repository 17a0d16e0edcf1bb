import JSONAPI

/// A declaration that links two ``InMemoryDataSource`` stores names a member the model does not
/// have as the kind of relationship the link needs.
public struct InMemoryLinkError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong, naming the type and the member.
    public var description: String
}

extension InMemoryDataSource {
    /// Declares that the to-one relationship `member` of this store's models names resources of
    /// `target`, and what deleting one of them does to the models that name it
    /// (``ResourceDeleteRule``; default ``ResourceDeleteRule/refuse``: a 409 names the
    /// relationship).
    ///
    /// - Throws: ``InMemoryLinkError`` when `member` is not a to-one relationship of the model, or
    ///   `onDelete` is ``ResourceDeleteRule/setNull`` for one that cannot be null.
    public func toOne<Target>(
        _ member: String, in target: InMemoryDataSource<Target>, onDelete: ResourceDeleteRule = .refuse
    ) throws(InMemoryLinkError) {
        let optional = try Self.toOneShape(member).isOptional
        if onDelete == .setNull && !optional {
            throw InMemoryLinkError(
                description: "`\(member)` of `\(Model.resourceType)` cannot be null: it cannot be set null on delete")
        }
        state.withLock { $0.index(member) }
        target.links.withLock { links in
            links.referrers.removeAll { $0.store === self && $0.member == member }
            links.referrers.append(InMemoryLinks.Referrer(store: self, member: member, rule: onDelete))
        }
    }

    /// Declares that the to-many relationship `member` of this store's models names resources of
    /// `target`, held in the models as a database holds it in a join table: deleting a resource
    /// of `target` removes it from the linkage of every model that names it.
    ///
    /// - Throws: ``InMemoryLinkError`` when `member` is not a to-many relationship of the model.
    public func toMany<Target>(_ member: String, in target: InMemoryDataSource<Target>) throws(InMemoryLinkError) {
        try Self.checkToMany(member)
        target.links.withLock { links in
            links.referrers.removeAll { $0.store === self && $0.member == member }
            links.referrers.append(InMemoryLinks.Referrer(store: self, member: member, rule: .setNull, isToMany: true))
        }
    }

    /// Declares the to-many relationship `member` of this store's models as the inverse of the
    /// to-one relationship `inverse` of `other`'s models (`Book.reviews` is `Review.book` seen
    /// from the book): one fact, kept by `other`. A read of `member` lists the models of `other`
    /// that name the resource, in the order they were created; a write of `member` sets their
    /// `inverse` (a model that leaves gets `null`, or the write is refused with 409 when
    /// `inverse` cannot be null). What the models of this store hold in `member` is not read.
    ///
    /// Unless ``toOne(_:in:onDelete:)`` declared otherwise on `other`, deleting a resource of
    /// this store is refused while a model of `other` names it.
    ///
    /// - Throws: ``InMemoryLinkError`` when `member` is not a to-many relationship of this model
    ///   or `inverse` not a to-one relationship of `other`'s.
    public func toMany<Other>(
        _ member: String, inverseOf inverse: String, in other: InMemoryDataSource<Other>
    ) throws(InMemoryLinkError) {
        try Self.checkToMany(member)
        let optional = try InMemoryDataSource<Other>.toOneShape(inverse).isOptional
        other.state.withLock { $0.index(inverse) }
        links.withLock { links in
            links.inverses.removeAll { $0.member == member }
            links.inverses.append(
                InMemoryLinks.Inverse(member: member, store: other, inverse: inverse, inverseIsOptional: optional))
            if !links.referrers.contains(where: { $0.store === other && $0.member == inverse }) {
                links.referrers.append(InMemoryLinks.Referrer(store: other, member: inverse, rule: .refuse))
            }
        }
    }

    /// Throws unless `member` is a to-many relationship of the model.
    static func checkToMany(_ member: String) throws(InMemoryLinkError) {
        guard
            ResourceShape(of: Model.self).relationships.contains(where: {
                $0.name == member && $0.cardinality == .toMany
            })
        else {
            throw InMemoryLinkError(description: "`\(member)` is not a to-many relationship of `\(Model.resourceType)`")
        }
    }

    /// The shape of the to-one relationship `member` of the model.
    static func toOneShape(_ member: String) throws(InMemoryLinkError) -> RelationshipShape {
        guard
            let shape = ResourceShape(of: Model.self).relationships.first(where: {
                $0.name == member && $0.cardinality == .toOne
            })
        else {
            throw InMemoryLinkError(description: "`\(member)` is not a to-one relationship of `\(Model.resourceType)`")
        }
        return shape
    }

    /// Whether a to-many relationship of this store is read from another store.
    var hasInverses: Bool { links.withLock { !$0.inverses.isEmpty } }

    /// `records` with each inverse relationship's linkage read from the store that keeps it.
    func withInverses(_ records: [JSONAPIResourceObject]) -> [JSONAPIResourceObject] {
        let inverses = links.withLock { $0.inverses }
        guard !inverses.isEmpty, !records.isEmpty else { return records }
        var records = records
        let ids = records.compactMap(\.id)
        for inverse in inverses {
            let naming = inverse.store.naming(ids, in: inverse.inverse)
            let type = inverse.store.resourceType
            for index in records.indices {
                let linked = records[index].id.flatMap { naming[$0] } ?? []
                var relationship = records[index].relationships[inverse.member] ?? JSONAPIRelationship()
                relationship.data = .many(linked.map { ResourceIdentifier(type: type, id: $0) })
                records[index].relationships[inverse.member] = relationship
            }
        }
        return records
    }

    /// The model a stored resource object describes.
    static func model(_ record: JSONAPIResourceObject) throws -> Model {
        try ResourceRecords.model(Model.self, from: record)
    }

    /// What writing `record` changes in the stores that keep its inverse relationships: the
    /// models that leave it (set to `null`) and those that join it, checked before anything is
    /// written.
    func inverseChanges(of record: JSONAPIResourceObject) throws -> [InMemoryLinkChange] {
        let inverses = links.withLock { $0.inverses }
        guard !inverses.isEmpty, let id = record.id else { return [] }
        var changes: [InMemoryLinkChange] = []
        for inverse in inverses {
            guard case .many(let identifiers)? = record.relationships[inverse.member]?.data else { continue }
            let wanted = identifiers.compactMap(\.id)
            let current = inverse.store.naming([id], in: inverse.inverse)[id] ?? []
            let kept = Set(wanted)
            let leaving = current.filter { !kept.contains($0) }
            if !leaving.isEmpty {
                guard inverse.inverseIsOptional else {
                    throw JSONAPIHTTPError.requiredInverse(
                        of: inverse.member, keptBy: inverse.store.resourceType, as: inverse.inverse)
                }
                changes.append(
                    InMemoryLinkChange(store: inverse.store, member: inverse.inverse, ids: leaving, target: nil))
            }
            let present = Set(current)
            let joining = wanted.filter { !present.contains($0) }
            if !joining.isEmpty {
                changes.append(
                    InMemoryLinkChange(
                        store: inverse.store, member: inverse.inverse, ids: joining,
                        target: ResourceIdentifier(type: Model.resourceType, id: id)))
            }
        }
        return changes
    }

    /// Writes `changes` into the stores they name.
    func apply(_ changes: [InMemoryLinkChange]) throws {
        for change in changes { try change.store.link(change.ids, change.member, to: change.target) }
    }

    /// Adds to `plan` what deleting `ids` of this store takes, by the rules of the stores that
    /// name them; throws the refusal of the first rule that refuses.
    func planDelete(_ ids: [String], into plan: inout InMemoryDeletePlan) throws {
        let fresh = ids.filter { plan.seen.insert(Model.resourceType + "\u{0}" + $0).inserted }
        guard !fresh.isEmpty else { return }
        plan.deletions.append((self, fresh))
        for referrer in links.withLock({ $0.referrers }) {
            if referrer.isToMany {
                plan.unlinked.append((referrer.store, referrer.member, Set(fresh), Model.resourceType))
                continue
            }
            let naming = referrer.store.naming(fresh, in: referrer.member).values.flatMap { $0 }
                .filter { !plan.seen.contains(referrer.store.resourceType + "\u{0}" + $0) }
            guard let first = naming.first else { continue }
            switch referrer.rule {
            case .refuse:
                throw JSONAPIHTTPError.conflict(
                    "`\(referrer.store.resourceType)` \(first) names this resource in its `\(referrer.member)` relationship; "
                        + "delete or change it first")
            case .setNull:
                plan.cleared.append(
                    InMemoryLinkChange(store: referrer.store, member: referrer.member, ids: naming, target: nil))
            case .cascade: try referrer.store.planDelete(naming, into: &plan)
            }
        }
    }
}

extension InMemoryDataSource: InMemoryLinkedStore {
    var resourceType: String { Model.resourceType }

    func naming(_ targets: [String], in member: String) -> [String: [String]] {
        state.withLock { state in
            guard let index = state.naming[member] else { return [:] }
            var naming: [String: [String]] = [:]
            for target in targets {
                guard let ids = index[target] else { continue }
                // In the order the models were created.
                naming[target] = ids.sorted { (state.positions[$0] ?? 0) < (state.positions[$1] ?? 0) }
            }
            return naming
        }
    }

    func unlink(_ targets: Set<String>, type: String, from member: String) throws {
        let records = state.withLock { state in
            state.records.compactMap { record -> JSONAPIResourceObject? in
                guard case .many(let identifiers)? = record?.relationships[member]?.data,
                    identifiers.contains(where: { $0.type == type && targets.contains($0.id ?? "") })
                else { return nil }
                return record
            }
        }
        try replace(records) { record in
            guard var relationship = record.relationships[member], case .many(let identifiers)? = relationship.data
            else { return }
            relationship.data = .many(identifiers.filter { !($0.type == type && targets.contains($0.id ?? "")) })
            record.relationships[member] = relationship
        }
    }

    func link(_ ids: [String], _ member: String, to target: ResourceIdentifier?) throws {
        let records = state.withLock { state in ids.compactMap { state.positions[$0].flatMap { state.records[$0] } } }
        try replace(records) { record in
            var relationship = record.relationships[member] ?? JSONAPIRelationship()
            relationship.data = target.map { .one($0) } ?? .null
            record.relationships[member] = relationship
        }
    }

    /// Stores `records` as `change` leaves them, each with the model it describes (decoded
    /// before anything is stored, so a record the model cannot hold changes nothing); a record
    /// deleted meanwhile stays deleted.
    private func replace(
        _ records: [JSONAPIResourceObject], _ change: (inout JSONAPIResourceObject) -> Void
    ) throws {
        var changed: [(model: Model, record: JSONAPIResourceObject)] = []
        for var record in records {
            change(&record)
            changed.append((try Self.model(record), record))
        }
        state.withLock { state in
            for (model, record) in changed {
                guard let key = record.id, state.positions[key] != nil else { continue }
                state.put(key: key, model: model, record: record)
            }
        }
    }
}

/// One store, seen by another it is linked to, whatever its model.
protocol InMemoryLinkedStore: AnyObject, Sendable {
    /// The resource type of its models.
    var resourceType: String { get }
    /// For each of `targets`, the ids of the models whose to-one `member` names it, in creation
    /// order (the member must be indexed).
    func naming(_ targets: [String], in member: String) -> [String: [String]]
    /// Sets the to-one `member` of the models `ids` to `target` (`null` when nil).
    func link(_ ids: [String], _ member: String, to target: ResourceIdentifier?) throws
    /// Removes the resources `targets` of `type` from the to-many `member` of every model.
    func unlink(_ targets: Set<String>, type: String, from member: String) throws
    /// Adds what deleting `ids` takes to `plan`.
    func planDelete(_ ids: [String], into plan: inout InMemoryDeletePlan) throws
    /// Removes the models of `ids`, without rules; the number removed.
    @discardableResult func remove(_ ids: [String]) -> Int
}

/// The links of one store to others.
struct InMemoryLinks: Sendable {
    /// A to-many relationship of this store kept as another store's to-one.
    struct Inverse: Sendable {
        var member: String
        var store: any InMemoryLinkedStore
        var inverse: String
        var inverseIsOptional: Bool
    }

    /// Another store whose relationship `member` names this store's resources, and the rule on
    /// delete (a to-many one loses the deleted resources from its linkage).
    struct Referrer: Sendable {
        var store: any InMemoryLinkedStore
        var member: String
        var rule: ResourceDeleteRule
        var isToMany = false
    }

    var inverses: [Inverse] = []
    var referrers: [Referrer] = []
}

/// A change of one to-one relationship of several models of one store.
struct InMemoryLinkChange: Sendable {
    var store: any InMemoryLinkedStore
    var member: String
    var ids: [String]
    var target: ResourceIdentifier?
}

/// What one delete takes: the models it removes (with their store) and the relationships it
/// clears; `seen` holds every `type\0id` already in it.
struct InMemoryDeletePlan {
    var deletions: [(store: any InMemoryLinkedStore, ids: [String])] = []
    var cleared: [InMemoryLinkChange] = []
    var unlinked: [(store: any InMemoryLinkedStore, member: String, ids: Set<String>, type: String)] = []
    var seen: Set<String> = []
}
