#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

// Lenient decoding
// ----------------
// With `DecodingOptions.tolerance == .lenient`, a decode recovers at two kinds of places: an
// optional value (`decodeOptional`, the keyed containers' and readers' `decodeIfPresent`) becomes
// nil, and an element of a list of resources (primary data, `included`, a to-many relationship,
// a typed collection's walk) is left out. Everything between the failure and that place has
// been unwound by the frames' `defer`s, so the decoder is as it was before the value began;
// what the failed value recorded on the way (skips, problems) is dropped with it, and one
// problem, located where the failure is, says what happened.
//
// Strict decoding never reaches `recover`: every recovery point checks `lenient` first, and
// the check and the `catch` cost nothing on the path that does not throw.

/// A problem the decode worked around (or a skipped resource), before it is made public.
struct PendingProblem {
    var kind: DecodingProblem.Kind
    var action: DecodingProblem.Action
    /// Index into the decoder's skips when the problem is a skipped resource, else -1.
    var skip: Int
    var resource: ResourceIdentifier?
    var path: [any CodingKey]
    var message: String
    /// Where the failure is, when its error carries a location.
    var place: JSONAPIError?
    /// The offset to locate when it does not.
    var offset: Int
    /// The error a strict decode throws for the problem, kept when the decode lists every
    /// problem (``ResourceDecoder/standIn(_:after:at:)``).
    var error: DecodingError? = nil
}

/// A failure that a decode listing every problem has recorded already, passed on because no
/// stand-in could be made where it happened: whoever can make one for an enclosing value does
/// so without recording it again.
struct RecordedFailure: Error {}

extension ResourceDecoder {
    /// Counts of what the decode has recorded, so a recovered value's records can be dropped.
    struct RecoveryMark {
        var skips: Int
        var problems: Int
    }

    @inline(__always)
    var recoveryMark: RecoveryMark {
        unsafe RecoveryMark(skips: skips.count, problems: problems.count)
    }

    /// Records `error`, which decoding `node` (with `key` as its last coding key) threw, as a
    /// problem the decode works around with `action`, when the decode is lenient and the error
    /// is one a document can cause. False when the caller must throw it. `node` is the value
    /// (its identity, when it is a resource, is the problem's resource) unless `isValue` is
    /// false: then it only locates a value that is absent.
    @inline(never)
    func recover(
        _ error: any Error, since mark: RecoveryMark, node: Node, key: KeyRef, action: DecodingProblem.Action,
        isValue: Bool = true
    ) -> Bool {
        guard unsafe lenient, unsafe session.invalidOptions == nil else { return false }
        if error is RecordedFailure { return unsafe listsEveryProblem }
        guard let decodingError = error as? DecodingError, let context = decodingError.context else { return false }
        // A decode that lists every problem keeps what the failed value recorded on the way.
        if unsafe !listsEveryProblem {
            unsafe skips.removeSubrange(min(mark.skips, skips.count)...)
            unsafe problems.removeSubrange(min(mark.problems, problems.count)...)
        }
        unsafe foreignErrorLocated = false
        var fullPath = path
        if let key = key.key(in: self) { fullPath.append(key) }
        let resource = isValue ? (try? identity(of: node)).flatMap { $0.map(resourceIdentifier) } : nil
        let place = decodingError.jsonapiError
        unsafe problems.append(
            PendingProblem(
                kind: Self.kind(of: decodingError), action: action, skip: -1, resource: resource, path: fullPath,
                message: place?.message ?? context.debugDescription, place: place, offset: offset(of: node)))
        return true
    }

    /// In a decode that lists every problem, records `error` (which decoding a non-optional
    /// `T` at or in `node` threw) and returns a stand-in `T` (see `StandIn`) so that the decode
    /// goes on to the values after it; in any other decode, throws `error`.
    ///
    /// Every non-optional value passes here when it fails: a present value through `unbox`, a
    /// missing one through `absentValue`, and the containers' scalar fast paths directly. The
    /// innermost place records the error; an enclosing one sees ``RecordedFailure`` only when
    /// no stand-in could be made inside it.
    @inline(never)
    func standIn<T: Decodable>(_ type: T.Type, after error: any Error, at node: Node) throws -> T {
        guard unsafe listsEveryProblem, unsafe session.invalidOptions == nil else { throw error }
        if !(error is RecordedFailure) {
            guard let decodingError = error as? DecodingError, let context = decodingError.context else { throw error }
            let place = decodingError.jsonapiError
            // A missing value's own key is not in its context's path (it names the container).
            var path = context.codingPath
            if case .keyNotFound(let key, _) = decodingError { path.append(key) }
            unsafe problems.append(
                PendingProblem(
                    kind: Self.kind(of: decodingError), action: .rejected, skip: -1, resource: nil,
                    path: path, message: place?.message ?? context.debugDescription, place: place,
                    offset: offset(of: node), error: decodingError))
            unsafe foreignErrorLocated = false
        }
        guard let value = StandIn.value(of: T.self) else { throw RecordedFailure() }
        return value
    }

    /// The problems a decode listing every problem recorded, in decode order, each with the
    /// error a strict decode throws for it.
    func rejections() -> [(error: DecodingError, problem: DecodingProblem)] {
        unsafe problems.compactMap { pending in
            guard let error = pending.error else { return nil }
            return (error, describe(pending))
        }
    }

    /// What kind of problem an error describes.
    static func kind(of error: DecodingError) -> DecodingProblem.Kind {
        if error.jsonapiError?.code == .missingResource { return .missingResource }
        switch error {
        case .typeMismatch(let type, _):
            if type is any JSONAPIResource.Type { return .wrongResourceType }
            if type is any ResourceUnion.Type { return .unhandledResourceType }
            return .invalidValue
        case .valueNotFound, .keyNotFound:
            return .missingValue
        default:
            return .invalidValue
        }
    }

    /// The problems recorded so far, skipped resources included, located in the document.
    func decodingProblems() -> [DecodingProblem] {
        guard unsafe !problems.isEmpty else { return [] }
        let skipped = skippedResources()
        var result: [DecodingProblem] = []
        unsafe result.reserveCapacity(problems.count)
        for problem in unsafe problems {
            if problem.skip >= 0 {
                guard problem.skip < skipped.count else { continue }
                let skip = skipped[problem.skip]
                let kind: DecodingProblem.Kind
                let message: String
                switch skip.reason {
                case .missing:
                    kind = .missingResource
                    message = "resource \(skip.identifier) is not in the document"
                case .unhandledType(let union):
                    kind = .unhandledResourceType
                    message = "resource type `\(skip.identifier.type)` is not a member of \(union)"
                }
                result.append(
                    DecodingProblem(
                        kind: kind, action: problem.action, resource: skip.identifier, codingPath: skip.codingPath,
                        pointer: skip.pointer, line: skip.line, column: skip.column, message: message))
                continue
            }
            result.append(describe(problem))
        }
        return result
    }

    /// A recovered failure (not a skip), located in the document.
    private func describe(_ problem: PendingProblem) -> DecodingProblem {
        let place: (pointer: String, line: Int, column: Int)
        if let located = problem.place {
            place = (located.pointer, located.line, located.column)
        } else {
            let found = unsafe storage.locate(min(max(0, problem.offset), bytes.count))
            place = (found.pointer, found.line, found.column)
        }
        return DecodingProblem(
            kind: problem.kind, action: problem.action, resource: problem.resource,
            codingPath: renderPath(problem.path), pointer: place.pointer, line: place.line, column: place.column,
            message: problem.message)
    }
}
