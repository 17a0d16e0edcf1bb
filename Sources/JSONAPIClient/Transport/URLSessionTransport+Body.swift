import Foundation
import JSONAPI

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension URLSessionTransport {
    /// A response body: `Data` chunks in the order `URLSession` delivers them, read once.
    ///
    /// Where the data task can pause (Apple platforms), at most about
    /// ``URLSessionTransport/maximumBufferedBytes`` wait to be read: the task is suspended while
    /// more do, and resumed once the reader has taken them down to a quarter of that. Ending the
    /// iteration early, or cancelling the reading task, cancels the data task.
    public struct Body: AsyncSequence, Sendable {
        public typealias Element = Data

        let pipe: BodyPipe

        public func makeAsyncIterator() -> AsyncIterator { AsyncIterator(reader: BodyReaderHandle(pipe)) }

        /// Reads the chunks in order; nil after the last.
        public struct AsyncIterator: AsyncIteratorProtocol {
            let reader: BodyReaderHandle

            public mutating func next() async throws -> Data? { try await reader.pipe.next() }
        }
    }
}

/// What the body can ask of the data task behind it.
struct BodyFlowControl: Sendable {
    /// Stops delivery (`URLSessionTask.suspend()`); nil where the task cannot pause without
    /// losing the transfer (Linux).
    var pause: (@Sendable () -> Void)?
    /// Starts delivery again (`URLSessionTask.resume()`).
    var resume: @Sendable () -> Void
    /// Ends the transfer (`URLSessionTask.cancel()`).
    var cancel: @Sendable () -> Void
}

/// Ends the transfer when the iterator that reads the body goes away before its end.
final class BodyReaderHandle: Sendable {
    let pipe: BodyPipe

    init(_ pipe: BodyPipe) { self.pipe = pipe }

    deinit { pipe.abandon() }
}

/// The chunks between the URLSession delegate, which hands them over as they arrive, and the reader,
/// which takes them one at a time; the delegate is told to pause while more than `high` bytes
/// wait, and to resume once they are down to `low`.
final class BodyPipe: Sendable {
    private struct State {
        var chunks: [Data] = []
        var head = 0
        var buffered = 0
        var paused = false
        var end: Result<Void, any Error>?
        var waiter: CheckedContinuation<Data?, any Error>?
        /// The reader stopped (cancelled, or its iterator went away): chunks are dropped.
        var abandoned = false
    }

    private let state = Locked(State())
    private let control: BodyFlowControl
    private let high: Int
    private let low: Int

    /// A pipe that pauses the producer above `high` buffered bytes (when it can) and resumes it
    /// at `high / 4`.
    init(high: Int, control: BodyFlowControl) {
        self.control = control
        self.high = high
        low = high / 4
    }

    // MARK: The delegate's side

    /// A chunk has arrived.
    func yield(_ data: Data) {
        let (waiter, pause) = state.withLock { state -> (CheckedContinuation<Data?, any Error>?, Bool) in
            if state.abandoned || state.end != nil { return (nil, false) }
            if let waiter = state.waiter {
                state.waiter = nil
                return (waiter, false)
            }
            state.chunks.append(data)
            state.buffered &+= data.count
            guard control.pause != nil, !state.paused, state.buffered > high else { return (nil, false) }
            state.paused = true
            return (nil, true)
        }
        if let waiter { waiter.resume(returning: data) }
        if pause { control.pause?() }
    }

    /// The transfer ended: after the chunks still waiting, the reader gets nil, or `error`.
    func finish(throwing error: (any Error)?) {
        let waiter = state.withLock { state -> CheckedContinuation<Data?, any Error>? in
            guard state.end == nil else { return nil }
            state.end = error.map { .failure($0) } ?? .success(())
            defer { state.waiter = nil }
            return state.waiter
        }
        guard let waiter else { return }
        if let error { waiter.resume(throwing: error) } else { waiter.resume(returning: nil) }
    }

    // MARK: The reader's side

    private enum Step {
        case chunk(Data, resume: Bool)
        case end(Result<Void, any Error>)
        case cancelled
        case wait
    }

    /// The next chunk, nil at the end; throws the transfer's error, or `CancellationError` once
    /// the reading task is cancelled (which cancels the transfer).
    func next() async throws -> Data? {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Data?, any Error>) in
                let step = state.withLock { state -> Step in
                    if state.abandoned { return .cancelled }
                    if state.head < state.chunks.count {
                        let data = state.chunks[state.head]
                        state.head &+= 1
                        state.buffered &-= data.count
                        if state.head == state.chunks.count {
                            state.chunks.removeAll(keepingCapacity: true)
                            state.head = 0
                        }
                        let resume = state.paused && state.buffered <= low
                        if resume { state.paused = false }
                        return .chunk(data, resume: resume)
                    }
                    if let end = state.end { return .end(end) }
                    state.waiter = continuation
                    return .wait
                }
                switch step {
                case .chunk(let data, let resume):
                    if resume { control.resume() }
                    continuation.resume(returning: data)
                case .end(.success):
                    continuation.resume(returning: nil)
                case .end(.failure(let error)):
                    continuation.resume(throwing: error)
                case .cancelled:
                    continuation.resume(throwing: CancellationError())
                case .wait:
                    break
                }
            }
        } onCancel: {
            abandon()
        }
    }

    /// The reader stopped before the end: the transfer is cancelled and what waits is dropped.
    func abandon() {
        let (waiter, cancel) = state.withLock { state -> (CheckedContinuation<Data?, any Error>?, Bool) in
            guard !state.abandoned else { return (nil, false) }
            state.abandoned = true
            state.chunks = []
            state.head = 0
            state.buffered = 0
            defer { state.waiter = nil }
            return (state.waiter, state.end == nil)
        }
        waiter?.resume(throwing: CancellationError())
        if cancel { control.cancel() }
    }

    /// The bytes waiting to be read, and whether the producer is paused (for tests).
    var buffered: (bytes: Int, paused: Bool) { state.withLock { ($0.buffered, $0.paused) } }
}
