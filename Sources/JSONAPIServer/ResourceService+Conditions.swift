import JSONAPI

// Conditional requests (RFC 9110, section 13). Every 200 read carries a strong `ETag` computed
// from the bytes of its document; `If-None-Match` that matches it is answered 304 without a body.
// A write (`PATCH`, `DELETE`, a relationship change) with `If-Match` is compared with the `ETag` a
// `GET` of the same URL without a query answers now: 412 when it does not match, and 428 when the
// declaration requires `If-Match` and the request has none.

extension ResourceService {
    /// `response` with its `ETag`, or a 304 when `If-None-Match` matches it.
    func conditional(_ response: ResourceResponse, _ request: ResourceRequest) throws -> ResourceResponse {
        guard let body = response.body else { return response }
        var answer = Self.answer(body, etag: Self.entityTag(of: body), profiles: response.profiles, request)
        answer.location = response.location
        if answer.status != 304 { answer.status = response.status }
        return answer
    }

    /// 200 with `body`, its `etag` and the `profiles` it applies, or 304 when `If-None-Match`
    /// matches it.
    static func answer(
        _ body: [UInt8], etag: String, profiles: [String], _ request: ResourceRequest
    ) -> ResourceResponse {
        if let ifNoneMatch = request.ifNoneMatch, matches(ifNoneMatch, etag, weak: true) {
            return ResourceResponse(status: 304, etag: etag)
        }
        var response = ResourceResponse(status: 200, body: body, etag: etag)
        response.profiles = profiles
        return response
    }

    /// Checks `If-Match` against `current`, the representation a `GET` of the target answers
    /// (nil when the resource does not exist).
    func checkPrecondition(
        _ resource: any ServedResource, current: () throws -> [UInt8]?, _ request: ResourceRequest
    ) throws {
        guard let ifMatch = request.ifMatch else {
            guard !resource.requiresIfMatch else {
                throw JSONAPIHTTPError([
                    JSONAPIErrorObject(
                        status: 428, code: "precondition-required", title: "Precondition Required",
                        detail: "changes to `\(resource.type)` must carry If-Match with the resource's ETag",
                        source: .header("If-Match"))
                ])
            }
            return
        }
        let body = try current()
        let matched = body.map { Self.matches(ifMatch, Self.entityTag(of: $0), weak: false) } ?? false
        guard matched else {
            throw JSONAPIHTTPError([
                JSONAPIErrorObject(
                    status: 412, code: "precondition-failed", title: "Precondition Failed",
                    detail: "If-Match does not match the resource's current ETag", source: .header("If-Match"))
            ])
        }
    }

    /// The strong entity tag of a representation: a 64-bit hash of its bytes, quoted.
    ///
    /// Four lanes take 32 bytes a step (each a multiply and a shift per 8 bytes, independent of
    /// the others, so the processor runs them side by side); the lanes, the rest of the bytes and
    /// the length are then folded into one value and mixed so that every bit of it depends on
    /// every input bit.
    public static func entityTag(of bytes: [UInt8]) -> String {
        let multiplier: UInt64 = 0x9E37_79B9_7F4A_7C15
        func step(_ lane: UInt64, _ word: UInt64) -> UInt64 {
            let mixed = (lane ^ word) &* multiplier
            return mixed ^ (mixed >> 29)
        }
        let count = bytes.count
        var hash: UInt64 = 0x243F_6A88_85A3_08D3 ^ UInt64(truncatingIfNeeded: count)
        bytes.withUnsafeBytes { raw in
            // SAFETY: every load reads 8 bytes at `index`, and `index + 8 <= count` holds for
            // each (the loops' conditions); `loadUnaligned` needs no alignment.
            func word(_ index: Int) -> UInt64 {
                UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: index, as: UInt64.self))
            }
            var lanes: (UInt64, UInt64, UInt64, UInt64) = (hash, ~hash, hash &* multiplier, hash ^ multiplier)
            var index = 0
            while index + 32 <= count {
                lanes.0 = step(lanes.0, word(index))
                lanes.1 = step(lanes.1, word(index + 8))
                lanes.2 = step(lanes.2, word(index + 16))
                lanes.3 = step(lanes.3, word(index + 24))
                index += 32
            }
            hash = step(step(step(step(hash, lanes.0), lanes.1), lanes.2), lanes.3)
            while index + 8 <= count {
                hash = step(hash, word(index))
                index += 8
            }
            var tail: UInt64 = 0
            var shift: UInt64 = 0
            while index < count {
                tail |= UInt64(raw[index]) << shift
                shift += 8
                index += 1
            }
            hash = step(hash, tail)
        }
        hash ^= hash >> 32
        hash = hash &* 0xBF58_476D_1CE4_E5B9
        hash ^= hash >> 31
        let hex = String(hash, radix: 16)
        return "\"" + String(repeating: "0", count: 16 - hex.count) + hex + "\""
    }

    /// Whether a list of entity tags (`If-Match`, `If-None-Match`) matches `etag`; `*` matches any.
    /// The weak comparison ignores `W/`; the strong one never matches a weak tag.
    static func matches(_ header: String, _ etag: String, weak: Bool) -> Bool {
        var rest = Substring(header)
        while true {
            rest = rest.drop { $0 == " " || $0 == "\t" || $0 == "," }
            if rest.isEmpty { return false }
            if rest.first == "*" { return true }
            var isWeak = false
            if rest.hasPrefix("W/") {
                isWeak = true
                rest = rest.dropFirst(2)
            }
            guard rest.first == "\"" else { return false }
            guard let close = rest.dropFirst().firstIndex(of: "\"") else { return false }
            let tag = rest[rest.startIndex...close]
            if tag == etag, weak || !isWeak { return true }
            rest = rest[rest.index(after: close)...]
        }
    }
}
