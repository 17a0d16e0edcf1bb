import Foundation
import JSONAPI
import PropertyBased
import Testing

@testable import JSONAPITestSupport

/// Random documents parsed every way (strict and lenient, whole and chunked) must agree with a
/// reference model written in plain Swift: lookups, linkage resolution, duplicates and full
/// linkage. The ids are chosen to be hard on the (type, id) index. (The yajl backend's tests check
/// that it builds what the scanner builds from the same documents.)
///
/// The seed and the number of documents are fixed by default; set `JSONAPI_DIFFERENTIAL_SEED`
/// (a number, or `random`) and `JSONAPI_DIFFERENTIAL_ITERATIONS` for longer runs. A failure
/// prints the configuration, the seed and iteration that replay it, and the document shrunk to
/// the fewest resources and identifiers that still fail.
@Suite("Differential: the library against a reference model")
struct DifferentialTests {
    /// Runs `iterations` random documents from `seed`, each from its own sub-seed.
    private func run(
        _ name: String, iterations: Int, seed: UInt64, typeCount: RandomModelDocuments.TypeCount = .few,
        resources: ClosedRange<Int>? = nil, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        var failures = 0
        for iteration in 0..<iterations {
            let documentSeed = seed &+ UInt64(iteration) &* 0x9E37_79B9
            var generator = RandomModelDocuments(seed: documentSeed)
            let count = resources.map { generator.random.int($0) }
            let model = generator.document(typeCount: typeCount, resources: count)
            let keys = model.records.map(\.resource.key) + model.primaryLinkage.map(\.key)
            let absent = generator.absentNearMisses(of: keys, count: 40)
            var random = SplitMix64(seed: documentSeed ^ 0xC0FF_EE)
            let replay =
                "\(name): JSONAPI_DIFFERENTIAL_SEED=\(seed), iteration \(iteration) (document seed \(documentSeed))"
            if !DifferentialCheck.check(
                model, absentKeys: absent, random: &random, replay: replay, sourceLocation: sourceLocation)
            {
                failures += 1
                if failures >= 3 { return }
            }
        }
    }

    @Test("random documents: lookups, linkage, duplicates and full linkage agree with the model")
    func randomDocuments() {
        run("randomDocuments", iterations: DifferentialSettings.iterations(600), seed: DifferentialSettings.seed)
    }

    @Test("random documents with hundreds of types (more than a byte can number)")
    func hundredsOfTypes() {
        run(
            "hundredsOfTypes", iterations: DifferentialSettings.iterations(6, share: 0.02),
            seed: DifferentialSettings.seed ^ 0x255, typeCount: .hundreds, resources: 300...700)
    }

    /// Short keys hold the first 4,096 types; the resources after the first 4,096 straddle that
    /// boundary (the last 300 types are drawn most).
    @Test("a document with types on both sides of 4,096")
    func typesAroundShortKeyLimit() {
        let seed = DifferentialSettings.seed ^ 0x1000
        var generator = RandomModelDocuments(seed: seed)
        let model = generator.document(typeCount: .thousands(4_250), resources: 5_000)
        let keys = model.records.map(\.resource.key)
        let absent = generator.absentNearMisses(of: Array(keys.suffix(1_000)), count: 400)
        var random = SplitMix64(seed: seed)
        DifferentialCheck.check(
            model, absentKeys: absent, random: &random,
            replay: "typesAroundShortKeyLimit: JSONAPI_DIFFERENTIAL_SEED=\(DifferentialSettings.seed)")
    }

    @Test("a document with more than 32,768 types")
    func thousandsOfTypes() {
        let seed = DifferentialSettings.seed ^ 0x8000
        var generator = RandomModelDocuments(seed: seed)
        let model = generator.document(typeCount: .thousands(32_900), resources: 33_400)
        let keys = model.records.map(\.resource.key)
        let absent = generator.absentNearMisses(of: Array(keys.suffix(600)), count: 300)
        var random = SplitMix64(seed: seed)
        let configurations = [
            ParseConfiguration(lenient: false, feeding: .whole),
            ParseConfiguration(lenient: true, feeding: .random(seed)),
            ParseConfiguration(lenient: true, feeding: .whole),
        ]
        DifferentialCheck.check(
            model, absentKeys: absent, random: &random,
            replay: "thousandsOfTypes: JSONAPI_DIFFERENTIAL_SEED=\(DifferentialSettings.seed)",
            configurations: configurations)
    }

    @Test("more duplicates than maximumDiagnostics: the rest are counted")
    func diagnosticsLimit() {
        var generator = RandomModelDocuments(seed: DifferentialSettings.seed ^ 0xD1A6)
        var model = generator.document(resources: 0)
        model.kind = .many
        model.included = nil
        // 40 distinct keys, each written three times: 80 duplicates.
        for copy in 0..<3 {
            for n in 0..<40 {
                model.primary.append(
                    ModelResource(
                        type: generator.spelled("things"), id: generator.spelled(String(format: "%06d", n)),
                        relationships: [], layout: UInt64(copy * 40 + n)))
            }
        }
        var random = SplitMix64(seed: 1)
        var configurations: [ParseConfiguration] = []
        for lenient in [false, true] {
            var configuration = ParseConfiguration(lenient: lenient, feeding: .whole)
            configuration.maximumDiagnostics = 25
            configurations.append(configuration)
        }
        DifferentialCheck.check(
            model, absentKeys: [], random: &random, replay: "diagnosticsLimit", configurations: configurations)
    }

    /// Two resources of one type, the second's id a near miss of the first's (or the same id),
    /// drawn by swift-property-based from a small alphabet around the index's 6-byte boundary.
    @Test("two ids that differ in one place are told apart", .shrinking)
    func nearMissPairs() async {
        let alphabet: [Character] = ["0", "1", "2", "9", "a", "\u{0}", "é", "\"", "\u{7F}"]
        let ids = Gen.int(in: 0...alphabet.count - 1).array(of: 0...9).map { String($0.map { alphabet[$0] }) }
        let edits = Gen.int(in: 0...5)
        await propertyCheck(count: 400, input: ids, edits, Gen.int(in: 0...2)) { first, edit, type in
            var second = Array(first.unicodeScalars)
            switch edit {
            case 0 where !second.isEmpty: second.removeLast()
            case 1: second.append("\u{0}")
            case 2: second.append("0")
            case 3 where !second.isEmpty: second[second.count - 1] = second[second.count - 1] == "0" ? "2" : "0"
            case 4: second.insert("0", at: 0)
            default: break  // the same id: a duplicate when the type is the same
            }
            var view = String.UnicodeScalarView()
            view.append(contentsOf: second)
            let secondID = String(view)
            let model = ModelDocument(
                kind: .many,
                primary: [
                    ModelResource(
                        type: SpelledString(value: "things", spelling: 1), id: SpelledString(value: first, spelling: 2),
                        relationships: [
                            ModelRelationship(
                                name: "other",
                                data: .one(
                                    ModelIdentifier(
                                        type: SpelledString(value: ["things", "others", "t"][type], spelling: 3),
                                        id: SpelledString(value: secondID, spelling: 4), layout: 5)))
                        ], layout: 6),
                    ModelResource(
                        type: SpelledString(value: ["things", "others", "t"][type], spelling: 7),
                        id: SpelledString(value: secondID, spelling: 8), relationships: [], layout: 9),
                ], primaryLinkage: [], included: nil, includedFirst: false, layout: 10, looseness: 0)
            var random = SplitMix64(seed: 11)
            let absent = [
                ResourceIdentifierKey(type: "things", id: first + "\u{0}"),
                ResourceIdentifierKey(type: "things", id: String(first.dropLast())),
                ResourceIdentifierKey(type: "things", id: secondID + "0"),
            ]
            DifferentialCheck.check(
                model, absentKeys: absent, random: &random,
                replay: "nearMissPairs: \(first.debugDescription) and \(secondID.debugDescription)")
        }
    }
}
