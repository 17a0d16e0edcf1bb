import JSONAPI

/// How the client reads a response body.
enum BodyReading: Sendable {
    /// Parsed whole into a `Document` of this kind while it arrives.
    case document(ParsingOptions.Kind)
    /// A 2xx body handed over unread, to be read as a `ResourceStream` with these options
    /// (``JSONAPIResources/stream(_:headers:)``); any other status is read and reported as for a
    /// document.
    case stream(ResourceStream.Options)
}

/// A 2xx response body read as a resource stream: each chunk checked as a whole document's is
/// (``JSONAPIClient/Configuration/maximumResponseBytes``, `Content-Length`), then fed to the
/// stream, only when the parts so far are used up, so the memory held is the stream's window.
final class StreamedBody: @unchecked Sendable {
    // SAFETY (Sendable): the parts are read by one task at a time, the stream iterator's, as an
    // AsyncIterator is; `read` is never called from two tasks at once.
    private let read: () async throws -> StreamPart?
    private let usage: () -> ResourceStream.Statistics

    init<Body: AsyncSequence & Sendable>(_ body: Body, reader: BodyReader, stream: consuming ResourceStream)
    where Body.Element: Collection<UInt8> {
        let parts = PartReader(body, reader: reader, stream: stream)
        read = { try await parts.next() }
        usage = { parts.statistics }
    }

    /// The next part, nil at the end of the document.
    func next() async throws -> StreamPart? { try await read() }

    /// The stream's use of memory so far.
    var statistics: ResourceStream.Statistics { usage() }
}

/// The state behind a ``StreamedBody``: the transport's chunks, the checks of the body and the
/// resource stream.
private final class PartReader<Body: AsyncSequence & Sendable>: @unchecked Sendable
where Body.Element: Collection<UInt8> {
    // SAFETY (Sendable): as StreamedBody's: one reader at a time.
    private var chunks: Body.AsyncIterator
    private var reader: BodyReader
    private var stream: ResourceStream
    private var failure: JSONAPIClientError?
    private var ended = false

    init(_ body: Body, reader: BodyReader, stream: consuming ResourceStream) {
        chunks = body.makeAsyncIterator()
        self.reader = reader
        self.stream = stream
    }

    var statistics: ResourceStream.Statistics { stream.statistics }

    /// The next part: from what has arrived, or after awaiting more. A failure ends the stream,
    /// and every later call throws it again.
    func next() async throws -> StreamPart? {
        if let failure { throw failure }
        while true {
            do throws(JSONAPIError) {
                if let part = try stream.next() { return part }
            } catch {
                throw failed(reader.parseFailure(error))
            }
            if ended { return nil }
            let chunk: Body.Element?
            do {
                chunk = try await chunks.next()
            } catch {
                if error is CancellationError || Task.isCancelled { throw CancellationError() }
                throw failed(
                    reader.failure(
                        .truncatedBody, underlying: error,
                        "the connection failed after \(reader.received) bytes of the body: \(error)"))
            }
            // A transport may go on handing over what it has buffered after the task is cancelled.
            try Task.checkCancellation()
            do throws(JSONAPIClientError) {
                if let chunk {
                    try reader.take(chunk)
                    do throws(JSONAPIError) {
                        try stream.feed(chunk)
                    } catch {
                        throw reader.parseFailure(error)
                    }
                } else {
                    _ = try reader.finish()  // the length the head announced
                    do throws(JSONAPIError) {
                        try stream.finish()
                    } catch {
                        throw reader.parseFailure(error)
                    }
                    ended = true
                }
            } catch {
                throw failed(error)
            }
        }
    }

    private func failed(_ error: JSONAPIClientError) -> JSONAPIClientError {
        failure = error
        return error
    }
}
