import JSONAPIClient
import Synchronization

/// A transport that passes requests to another and watches the client read the first response's
/// body: how many chunks and bytes it took, whether it reached the end. It can also steer that
/// body: hold it after the first chunk until the reading task is cancelled, or slip a byte in
/// after the first chunk. Later responses pass through untouched, so a test can go on using the
/// client.
///
/// Each chunk is handed over as an array copied from the underlying transport's buffer (a copy of
/// contiguous bytes, cheap next to parsing them).
struct ObservedTransport<Base: JSONAPITransport>: JSONAPITransport {
    let base: Base
    let steering: BodySteering
    let log = BodyLog()

    init(_ base: Base, steering: BodySteering = .none) {
        self.base = base
        self.steering = steering
    }

    func send(_ request: JSONAPIHTTPRequest) async throws -> JSONAPITransportResponse<Body> {
        let isFirst = log.claimFirstResponse()
        let head = try await base.send(request)
        let body =
            isFirst
            ? Body(base: head.body, steering: steering, log: log)
            : Body(base: head.body, steering: .none, log: BodyLog())
        return JSONAPITransportResponse(status: head.status, headers: head.headers, body: body)
    }

    struct Body: AsyncSequence, Sendable {
        typealias Element = [UInt8]
        let base: Base.Body
        let steering: BodySteering
        let log: BodyLog

        func makeAsyncIterator() -> Iterator {
            Iterator(base: base.makeAsyncIterator(), steering: steering, log: log)
        }

        struct Iterator: AsyncIteratorProtocol {
            var base: Base.Body.AsyncIterator
            let steering: BodySteering
            let log: BodyLog
            var handedOver = 0
            var pending: [UInt8]?

            mutating func next() async throws -> [UInt8]? {
                if let pending {
                    self.pending = nil
                    return pending
                }
                if handedOver == 1, case .holdAfterFirstChunkUntilCancelled = steering {
                    // A hang guard only: the test cancels as soon as the first chunk is read.
                    let deadline = ContinuousClock.now + .seconds(300)
                    while !Task.isCancelled, ContinuousClock.now < deadline {
                        try? await Task.sleep(for: .milliseconds(5))
                    }
                }
                guard let chunk = try await base.next() else {
                    // A transport may end a cancelled task's body early, as if it were complete.
                    if !Task.isCancelled { log.recordEnd() }
                    return nil
                }
                let bytes = chunk.withContiguousStorageIfAvailable { Array($0) } ?? Array(chunk)
                handedOver += 1
                log.record(bytes.count)
                if handedOver == 1, case .insertAfterFirstChunk(let byte) = steering { pending = [byte] }
                return bytes
            }
        }
    }
}

/// What an ``ObservedTransport`` does to a body besides watching it.
enum BodySteering: Sendable {
    /// Every chunk as it comes.
    case none
    /// After the first chunk, nothing more until the reading task is cancelled (then the rest
    /// comes from the underlying transport, which should be cancelling its request).
    case holdAfterFirstChunkUntilCancelled
    /// `byte` slipped in as a chunk of its own after the first chunk.
    case insertAfterFirstChunk(UInt8)
}

/// What the client read of the body an ``ObservedTransport`` watched.
final class BodyLog: Sendable {
    private let chunks = Atomic<Int>(0)
    private let bytes = Atomic<Int>(0)
    private let ended = Atomic<Bool>(false)
    private let firstChunkBytes = Atomic<Int>(0)
    /// Yields once, when the first chunk has been handed to the client.
    let firstChunk: AsyncStream<Void>
    private let firstChunkContinuation: AsyncStream<Void>.Continuation

    /// Chunks handed to the client (not counting an inserted byte).
    var chunkCount: Int { chunks.load(ordering: .sequentiallyConsistent) }
    /// Bytes handed to the client (not counting an inserted byte).
    var byteCount: Int { bytes.load(ordering: .sequentiallyConsistent) }
    /// Bytes of the first chunk.
    var firstChunkSize: Int { firstChunkBytes.load(ordering: .sequentiallyConsistent) }
    /// The body's end was read: the underlying body said it had no more, and not because the
    /// reading task was cancelled.
    var reachedEnd: Bool { ended.load(ordering: .sequentiallyConsistent) }

    func recordEnd() { ended.store(true, ordering: .sequentiallyConsistent) }

    private let responses = Atomic<Int>(0)

    /// True for the first call only: the response this log watches.
    func claimFirstResponse() -> Bool { responses.add(1, ordering: .sequentiallyConsistent).newValue == 1 }

    init() {
        (firstChunk, firstChunkContinuation) = AsyncStream.makeStream(of: Void.self)
    }

    func record(_ count: Int) {
        let index = chunks.add(1, ordering: .sequentiallyConsistent).newValue
        bytes.add(count, ordering: .sequentiallyConsistent)
        if index == 1 {
            firstChunkBytes.store(count, ordering: .sequentiallyConsistent)
            firstChunkContinuation.yield()
            firstChunkContinuation.finish()
        }
    }

    /// Waits until the first chunk has been handed over.
    func waitForFirstChunk() async {
        for await _ in firstChunk { return }
    }
}
