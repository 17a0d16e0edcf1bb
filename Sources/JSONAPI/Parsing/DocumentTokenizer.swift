/// A tokenizer backend other than the built-in scanner (for example libyajl), driving the same
/// ``DocumentBuilder`` so every backend builds the same arena.
///
/// Chunks arrive in order without gaps; `builder.input` already holds every byte up to the end
/// of `chunk` when `feed` is called. A tokenizer must report syntax errors with the library's
/// error type and the absolute offset of the offending byte.
@_spi(Backend)
public protocol DocumentTokenizer {
    /// Tokenizes `chunk` (absolute offsets `baseOffset ..< baseOffset + chunk.count`), sending
    /// events to `builder`. `isFinal` marks the last chunk, which may be empty.
    mutating func feed(
        _ chunk: UnsafeRawBufferPointer, baseOffset: Int, isFinal: Bool, into builder: inout DocumentBuilder
    ) throws(JSONAPIError)
}
