import JSONAPI
import Testing

/// Validates `bytes` fed in chunks of `size` bytes; returns the error, if any.
private func stream(_ bytes: [UInt8], chunkSize size: Int, maximumDepth: Int = 512) -> JSONAPIError? {
    var validator = JSONSyntaxValidator(maximumDepth: maximumDepth)
    do throws(JSONAPIError) {
        var start = 0
        while start < bytes.count {
            let end = min(bytes.count, start + size)
            try validator.feed(bytes[start..<end])
            start = end
        }
        try validator.finish()
        return nil
    } catch {
        return error
    }
}

private func validate(_ json: String) -> JSONAPIError? {
    do throws(JSONAPIError) {
        try JSONSyntaxValidator.validate(Array(json.utf8))
        return nil
    } catch {
        return error
    }
}

@Suite("JSONSyntaxValidator")
struct JSONSyntaxValidatorTests {
    @Test("Accepts valid JSON, whole and streamed")
    func valid() {
        for json in [#"{"data":[1,2.5,"x",true,null,{}]}"#, "0", #""\u00e9""#, " [ ] "] {
            #expect(validate(json) == nil)
            for size in [1, 2, 5, 64] { #expect(stream(Array(json.utf8), chunkSize: size) == nil) }
        }
    }

    @Test("A whole-document error has offset, line, column and pointer")
    func locatedError() throws {
        let error = try #require(validate(#"{"data": [1, 2,]}"#))
        #expect(error.code == .invalidJSON)
        #expect(error.offset == 15)
        #expect(error.line == 1)
        #expect(error.column == 16)
        #expect(error.pointer == "/data/2")
        #expect(error.description == "1:16: error: expected a value after ',' in an array, found ']' (/data/2)")
    }

    @Test("Streaming errors have the same offset, line and column at any chunk size")
    func streamingErrors() throws {
        let json = "{\n  \"name\": \"café\",\n  \"tags\": [\"a\", \"b\" \"c\"]\n}"
        let bytes = Array(json.utf8)
        let whole = try #require(validate(json))
        #expect(whole.line == 3 && whole.column == 21)
        #expect(whole.pointer == "/tags")
        for size in [1, 2, 3, 7, 16, 17, 1000] {
            let error = try #require(stream(bytes, chunkSize: size))
            #expect(error.offset == whole.offset)
            #expect(error.code == whole.code)
            #expect(error.line == whole.line, "chunk size \(size)")
            #expect(error.column == whole.column, "chunk size \(size)")
            #expect(error.pointer == "")
        }
    }

    @Test("An error pointing back into an earlier chunk is still placed")
    func errorInAnEarlierChunk() throws {
        // The unpaired surrogate's error points at its backslash, several chunks back.
        let json = "[\n \"ab\\uD800\\n\"]"
        let whole = try #require(validate(json))
        #expect(whole.code == .invalidEscape)
        #expect(whole.line == 2 && whole.column == 5)
        for size in [1, 2, 4] {
            let error = try #require(stream(Array(json.utf8), chunkSize: size))
            #expect(error.offset == whole.offset)
            #expect(error.line == 2 && error.column == 5, "chunk size \(size)")
        }
    }

    @Test("finish reports a missing end; errors stick")
    func finishAndSticky() throws {
        var validator = JSONSyntaxValidator()
        try validator.feed(Array("[1,".utf8))
        #expect(validator.bytesConsumed == 3)
        var first: JSONAPIError?
        do { try validator.finish() } catch { first = error }
        #expect(first?.code == .unexpectedEnd)
        #expect(first?.offset == 3)
        #expect(first?.line == 1 && first?.column == 4)
        var second: JSONAPIError?
        do { try validator.feed(Array("2]".utf8)) } catch { second = error }
        #expect(second == first)

        var empty = JSONSyntaxValidator()
        var nothing: JSONAPIError?
        do { try empty.finish() } catch { nothing = error }
        #expect(nothing?.code == .unexpectedEnd && nothing?.line == 1 && nothing?.column == 1)
    }

    @Test("Feeds any collection of bytes")
    func collections() throws {
        let json = #"{"a":[1,2,{"b":null}]}"#
        var fromString = JSONSyntaxValidator()
        try fromString.feed(json.utf8)
        try fromString.finish()
        var fromLazy = JSONSyntaxValidator()
        try fromLazy.feed(json.utf8.lazy.map { $0 })
        try fromLazy.finish()
        var fromBuffer = JSONSyntaxValidator()
        try Array(json.utf8).withUnsafeBytes { buffer in try fromBuffer.feed(buffer) }
        try fromBuffer.finish()
        var broken = JSONSyntaxValidator()
        var thrown: JSONAPIError?
        do { try broken.feed("[1,,2]".utf8.lazy.map { $0 }) } catch { thrown = error }
        #expect(thrown?.offset == 3)
    }

    @Test("The depth limit is configurable")
    func depth() throws {
        #expect(throws: JSONAPIError.self) { try JSONSyntaxValidator.validate(Array("[[[]]]".utf8), maximumDepth: 2) }
        try JSONSyntaxValidator.validate(Array("[[[]]]".utf8), maximumDepth: 3)
        let deep = Array(repeating: UInt8(ascii: "["), count: 100_000)
        let error = try #require(stream(deep, chunkSize: 4096))
        #expect(error.code == .depthLimitExceeded && error.offset == 512)
    }

    @Test(
        "The JSONTestSuite verdicts, through the public API",
        .enabled(if: jsonTestSuiteDirectory != nil, "JSONTestSuite not found beside the package root"))
    func corpus() throws {
        for name in jsonTestSuiteFiles where !name.hasPrefix("i_") {
            let bytes = try jsonTestSuiteBytes(name)
            var failed = false
            do { try JSONSyntaxValidator.validate(bytes) } catch { failed = true }
            #expect(failed == name.hasPrefix("n_"), "\(name)")
        }
    }
}
