import Testing

@testable import JSONAPI

/// The lock the modules share state through (not Synchronization's `Mutex`, which Apple platforms
/// have only from their 2024 releases).
@Suite("Locked values")
struct LockedTests {
    @Test("increments from many tasks at once are none of them lost")
    func noLostUpdate() async {
        let counter = Locked(0)
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    for _ in 0..<10_000 { counter.withLock { $0 += 1 } }
                }
            }
        }
        #expect(counter.withLock { $0 } == 80_000)
    }

    @Test("an error thrown inside leaves the lock free and the value as the body left it")
    func throwing() {
        struct Failure: Error {}
        let value = Locked([1])
        #expect(throws: Failure.self) {
            try value.withLock { (array: inout [Int]) throws(Failure) in
                array.append(2)
                throw Failure()
            }
        }
        #expect(value.withLock { $0 } == [1, 2])
    }
}
