import JSONAPI
import Testing

@testable import JSONAPIExample

/// The example store against a reference model written the obvious way (an array in creation
/// order, copied for each transaction), under random sequences of creates, replacements,
/// deletes and issued ids, in transactions of which some fail and must leave no trace.
@Suite struct ExampleStoreTests {
    struct Failed: Error {}

    /// The reference: what the store must answer.
    struct Model {
        var rows: [String: [(id: String, resource: JSONAPIResourceObject)]] = [:]
        var nextID = 1

        mutating func put(_ resource: JSONAPIResourceObject) {
            guard let id = resource.id else { return }
            if let index = rows[resource.type]?.firstIndex(where: { $0.id == id }) {
                rows[resource.type]?[index].resource = resource
            } else {
                rows[resource.type, default: []].append((id, resource))
            }
        }

        mutating func remove(_ type: String, _ id: String) {
            rows[type]?.removeAll { $0.id == id }
        }
    }

    static let types = ["articles", "people"]

    func resource(_ type: String, _ id: String, _ version: Int) -> JSONAPIResourceObject {
        JSONAPIResourceObject(type: type, id: id, attributes: ["version": JSON(Double(version))])
    }

    func expectSame(_ store: ExampleStore, _ model: Model, sourceLocation: SourceLocation = #_sourceLocation) {
        store.read { state in
            #expect(state.nextID == model.nextID, sourceLocation: sourceLocation)
            for type in Self.types {
                let expected = model.rows[type] ?? []
                #expect(state.count(type) == expected.count, sourceLocation: sourceLocation)
                #expect(state.all(type) == expected.map(\.resource), sourceLocation: sourceLocation)
                for size in [1, 3, 7] {
                    for number in 1...(expected.count / size + 2) {
                        let start = (number - 1) * size
                        let slice =
                            start < expected.count ? Array(expected[start..<min(expected.count, start + size)]) : []
                        #expect(
                            state.page(type, number: number, size: size) == slice.map(\.resource),
                            "page \(number) of \(size)", sourceLocation: sourceLocation)
                    }
                }
                for row in expected {
                    #expect(state.resource(type, row.id) == row.resource, sourceLocation: sourceLocation)
                }
            }
        }
    }

    @Test(arguments: 0..<24) func randomTransactionsMatchTheReference(seed: UInt64) throws {
        var random = SplitMix64(seed: seed)
        let store = ExampleStore(state: .init())
        var model = Model()
        var version = 0
        for _ in 0..<60 {
            let fails = random.next() % 4 == 0
            var draft = model
            do {
                try store.write { state in
                    for _ in 0..<(1 + Int(random.next() % 6)) {
                        let type = Self.types[Int(random.next() % 2)]
                        // Few ids, so puts replace, deletes hit and removed ids come back.
                        let id = "\(random.next() % 12)"
                        version += 1
                        switch random.next() % 5 {
                        case 0, 1:
                            state.put(resource(type, id, version))
                            draft.put(resource(type, id, version))
                        case 2, 3:
                            state.remove(type, id)
                            draft.remove(type, id)
                        default:
                            let issued = state.newID()
                            #expect(issued == "n\(draft.nextID)")
                            draft.nextID += 1
                            state.put(resource(type, issued, version))
                            draft.put(resource(type, issued, version))
                        }
                    }
                    if fails { throw Failed() }
                }
            } catch is Failed {
                draft = model
            }
            model = draft
            expectSame(store, model)
        }
    }

    /// Deleting most of a large table squeezes its holes out, and pages still count only the
    /// resources that remain.
    @Test func manyDeletesKeepPagesExact() throws {
        let store = ExampleStore(state: .init())
        var model = Model()
        store.writeInPlace { state in
            for index in 0..<1_000 { state.put(resource("articles", "\(index)", index)) }
        }
        for index in 0..<1_000 { model.put(resource("articles", "\(index)", index)) }
        for index in stride(from: 0, to: 1_000, by: 1) where index % 10 != 3 {
            try store.write { $0.remove("articles", "\(index)") }
            model.remove("articles", "\(index)")
        }
        expectSame(store, model)
        try store.write { $0.put(resource("articles", "new", 0)) }
        model.put(resource("articles", "new", 0))
        expectSame(store, model)
    }

    @Test func liveSlotsFindTheKthLiveSlot() {
        var random = SplitMix64(seed: 11)
        var slots = LiveSlots()
        var flags: [Bool] = []
        for step in 0..<2_000 {
            switch random.next() % 4 {
            case 0, 1:
                let live = random.next() % 3 != 0
                slots.append(isLive: live)
                flags.append(live)
            case 2 where !flags.isEmpty:
                let slot = Int(random.next() % UInt64(flags.count))
                let live = random.next() % 2 == 0
                slots.set(slot, isLive: live)
                flags[slot] = live
            default:
                if !flags.isEmpty && random.next() % 2 == 0 {
                    slots.removeLast()
                    flags.removeLast()
                }
            }
            if step % 50 == 0 {
                let liveSlots = flags.indices.filter { flags[$0] }
                for k in 0...liveSlots.count {
                    #expect(slots.slot(ofLive: k) == (k < liveSlots.count ? liveSlots[k] : nil))
                }
                #expect(slots.prefix(flags.count) == liveSlots.count)
            }
        }
        let rebuilt = LiveSlots(count: 5)
        #expect((0..<6).map { rebuilt.slot(ofLive: $0) } == [0, 1, 2, 3, 4, nil])
    }
}
