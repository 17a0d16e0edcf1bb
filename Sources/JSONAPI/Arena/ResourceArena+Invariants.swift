extension ByteRange: CustomStringConvertible {
    @usableFromInline var description: String { isAbsent ? "-" : "\(start)..<\(end)" }
}

extension ResourceArena {
    /// Deep consistency checks of the arena against its input. Compiled only into debug builds
    /// (the tests run them after every parse); release builds pay nothing.
    ///
    /// - Returns: A description of every broken invariant; empty when the arena is sound.
    func checkInvariants(inputCount: Int) -> [String] {
        #if DEBUG
            var problems: [String] = []
            func inInput(_ range: ByteRange, _ what: String) {
                if range.isPresent && (range.start > range.end || Int(range.end) > inputCount) {
                    problems.append("\(what) range \(range) outside input of \(inputCount) bytes")
                }
            }
            for (i, r) in resources.enumerated() {
                for (range, name) in [
                    (r.id, "id"), (lid(ofResource: i), "lid"), (r.object, "object"), (r.attributes, "attributes"),
                ] {
                    inInput(range, "resource \(i) \(name)")
                }
                inInput(r.links, "resource \(i) links")
                inInput(meta(ofResource: i), "resource \(i) meta")
                if r.type != .max && Int(r.type) >= types.count { problems.append("resource \(i) type out of table") }
                if Int(r.firstRelationship) + Int(r.relationshipCount) > relationships.count {
                    problems.append("resource \(i) relationships slice out of bounds")
                }
                if r.attributes.isPresent && !(r.object.start <= r.attributes.start && r.attributes.end <= r.object.end)
                {
                    problems.append("resource \(i) attributes outside its object")
                }
            }
            for (i, r) in relationships.enumerated() {
                inInput(r.name, "relationship \(i) name")
                inInput(r.object, "relationship \(i) object")
                inInput(links(ofRelationship: i), "relationship \(i) links")
                inInput(meta(ofRelationship: i), "relationship \(i) meta")
                if Int(r.firstLinkage) + Int(r.linkageCount) > linkages.count {
                    problems.append("relationship \(i) linkage slice out of bounds")
                }
                if r.data == .one && r.linkageCount > 1 {
                    problems.append("relationship \(i) to-one with several identifiers")
                }
                if (r.data == .null || r.data == .absent) && r.linkageCount != 0 {
                    problems.append("relationship \(i) without data has identifiers")
                }
            }
            for (i, l) in linkages.enumerated() {
                inInput(l.id, "linkage \(i) id")
                inInput(l.object, "linkage \(i) object")
                inInput(lid(ofLinkage: i), "linkage \(i) lid")
                inInput(meta(ofLinkage: i), "linkage \(i) meta")
                if l.target != .max {
                    if Int(l.target) >= resources.count {
                        problems.append("linkage \(i) target out of bounds")
                    } else if resources[Int(l.target)].type != l.type {
                        problems.append("linkage \(i) resolved to a resource of another type")
                    }
                }
            }
            let top = topLevel
            if !top.primaryIsLinkage && Int(top.primaryStart) + Int(top.primaryCount) > resources.count {
                problems.append("primary slice out of bounds")
            }
            if top.primaryIsLinkage && Int(top.primaryStart) + Int(top.primaryCount) > linkages.count {
                problems.append("primary linkage slice out of bounds")
            }
            if Int(top.includedStart) + Int(top.includedCount) > resources.count {
                problems.append("included slice out of bounds")
            }
            if Int(top.primaryCount) + Int(top.includedCount) != resources.count && !top.primaryIsLinkage {
                problems.append("resources outside primary and included")
            }
            for (i, e) in errors.enumerated() { inInput(e, "error \(i)") }
            // Each out-of-line table lists exactly the records flagged as having its member, in order.
            func checkTable(_ table: SparseRanges, _ flags: [RecordFlags], _ what: String) {
                if table.entries.map({ Int($0.record) }) != flags.indices.filter({ flags[$0].contains(table.flag) }) {
                    problems.append("\(what) table does not match the records' flags")
                }
            }
            checkTable(resourceLids, resources.map(\.flags), "resource lid")
            checkTable(resourceMeta, resources.map(\.flags), "resource meta")
            checkTable(relationshipLinks, relationships.map(\.flags), "relationship links")
            checkTable(relationshipMeta, relationships.map(\.flags), "relationship meta")
            checkTable(linkageLids, linkages.map(\.flags), "linkage lid")
            checkTable(linkageMeta, linkages.map(\.flags), "linkage meta")
            return problems
        #else
            return []
        #endif
    }

    /// Everything a parse produced that two backends or two chunkings must agree on.
    struct Fingerprint: Equatable {
        var resources: [ResourceRecord]
        var relationships: [RelationshipRecord]
        var linkages: [LinkageRecord]
        var errors: [ByteRange]
        var topLevel: TopLevelRecord
        var foreignMembers: [ForeignMember]
        var ignoredMembers: [ForeignMember]
        var skippedElements: [SkippedElement]
        var outOfLine: [SparseRanges]
        var types: [[UInt8]]
    }

    var fingerprint: Fingerprint {
        Fingerprint(
            resources: resources, relationships: relationships, linkages: linkages, errors: errors, topLevel: topLevel,
            foreignMembers: foreignMembers, ignoredMembers: ignoredMembers, skippedElements: skippedElements,
            outOfLine: [resourceLids, resourceMeta, relationshipLinks, relationshipMeta, linkageLids, linkageMeta],
            types: types.names
        )
    }
}
