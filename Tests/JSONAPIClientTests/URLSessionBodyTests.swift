import Foundation
import JSONAPI
import Testing

@testable import JSONAPIClient

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The body of ``URLSessionTransport`` between the session delegate and the reader: the data task
/// paused above the buffer's limit and resumed at a quarter of it where it can pause (Apple
/// platforms; a recorded control stands in for the task here), never paused where it cannot
/// (Linux), cancelled when the reader stops, and every byte in order either way.
@Suite struct URLSessionBodyTests {
    /// What the pipe asked of the task.
    final class RecordedTask: Sendable {
        let events = Locked<[String]>([])
        func control(pauses: Bool) -> BodyFlowControl {
            var control = BodyFlowControl(
                pause: nil, resume: { self.events.withLock { $0.append("resume") } },
                cancel: { self.events.withLock { $0.append("cancel") } })
            if pauses { control.pause = { self.events.withLock { $0.append("pause") } } }
            return control
        }
        var log: [String] { events.withLock { $0 } }
    }

    static func chunk(_ index: Int, _ size: Int) -> Data {
        Data(repeating: UInt8(truncatingIfNeeded: index), count: size)
    }

    @Test("paused above the limit, resumed at a quarter of it, every chunk in order")
    func pausesAndResumes() async throws {
        let task = RecordedTask()
        let pipe = BodyPipe(high: 1000, control: task.control(pauses: true))
        for index in 0..<12 { pipe.yield(Self.chunk(index, 100)) }
        // 1,100 bytes wait: paused once, at the eleventh chunk.
        #expect(task.log == ["pause"])
        #expect(pipe.buffered == (1200, true))
        var read: [Data] = []
        for _ in 0..<9 { read.append(try #require(try await pipe.next())) }
        // 300 bytes wait: above 250, still paused.
        #expect(task.log == ["pause"] && pipe.buffered == (300, true))
        read.append(try #require(try await pipe.next()))
        #expect(task.log == ["pause", "resume"] && pipe.buffered == (200, false))
        pipe.yield(Self.chunk(12, 100))
        pipe.finish(throwing: nil)
        while let data = try await pipe.next() { read.append(data) }
        #expect(read == (0..<13).map { Self.chunk($0, 100) })
        #expect(task.log == ["pause", "resume"])
    }

    @Test("where the task cannot pause, everything is buffered and nothing is asked of it")
    func neverPausesWithoutControl() async throws {
        let task = RecordedTask()
        let pipe = BodyPipe(high: 100, control: task.control(pauses: false))
        for index in 0..<50 { pipe.yield(Self.chunk(index, 64)) }
        pipe.finish(throwing: nil)
        #expect(pipe.buffered == (3200, false))
        var count = 0
        while let data = try await pipe.next() {
            #expect(data == Self.chunk(count, 64))
            count += 1
        }
        #expect(count == 50 && task.log.isEmpty)
    }

    @Test("a reader waiting for the next chunk gets it, then the error after the chunks before it")
    func waitingReaderAndError() async throws {
        let pipe = BodyPipe(high: 1 << 20, control: RecordedTask().control(pauses: true))
        async let first = pipe.next()
        try await Task.sleep(for: .milliseconds(20))
        pipe.yield(Self.chunk(1, 10))
        #expect(try await first == Self.chunk(1, 10))
        pipe.yield(Self.chunk(2, 10))
        pipe.finish(throwing: URLError(.networkConnectionLost))
        #expect(try await pipe.next() == Self.chunk(2, 10))
        await #expect(throws: URLError.self) { try await pipe.next() }
    }

    @Test("a cancelled reader cancels the task, and an iterator dropped before the end does too")
    func cancellation() async throws {
        let task = RecordedTask()
        let pipe = BodyPipe(high: 1 << 20, control: task.control(pauses: true))
        let reader = Task { try await pipe.next() }
        try await Task.sleep(for: .milliseconds(20))
        reader.cancel()
        await #expect(throws: CancellationError.self) { try await reader.value }
        #expect(task.log == ["cancel"])
        pipe.yield(Self.chunk(0, 10))
        #expect(pipe.buffered == (0, false))

        let dropped = RecordedTask()
        let body = URLSessionTransport.Body(pipe: BodyPipe(high: 1 << 20, control: dropped.control(pauses: true)))
        body.pipe.yield(Self.chunk(0, 10))
        do {
            var iterator = body.makeAsyncIterator()
            #expect(try await iterator.next() == Self.chunk(0, 10))
        }
        #expect(dropped.log == ["cancel"])

        let finished = RecordedTask()
        let whole = URLSessionTransport.Body(pipe: BodyPipe(high: 1 << 20, control: finished.control(pauses: true)))
        whole.pipe.finish(throwing: nil)
        for try await _ in whole {}
        #expect(finished.log.isEmpty)
    }

    @Test("the default configuration has no URLCache and ignores locally cached data")
    func noURLCache() {
        let configuration = URLSessionTransport.defaultConfiguration
        #expect(configuration.urlCache == nil)
        #expect(configuration.requestCachePolicy == .reloadIgnoringLocalCacheData)
        #expect(URLSessionTransport().maximumBufferedBytes == 4 << 20)
    }
}
