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
}

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
        guard unsafe lenient, unsafe session.invalidOptions == nil, let decodingError = error as? DecodingError,
            let context = decodingError.context
        else {
            return false
        }
        unsafe skips.removeSubrange(min(mark.skips, skips.count)...)
        unsafe problems.removeSubrange(min(mark.problems, problems.count)...)
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
            let place: (pointer: String, line: Int, column: Int)
            if let located = problem.place {
                place = (located.pointer, located.line, located.column)
            } else {
                let found = unsafe storage.locate(min(max(0, problem.offset), bytes.count))
                place = (found.pointer, found.line, found.column)
            }
            result.append(
                DecodingProblem(
                    kind: problem.kind, action: problem.action, resource: problem.resource,
                    codingPath: renderPath(problem.path), pointer: place.pointer, line: place.line,
                    column: place.column, message: problem.message))
        }
        return result
    }
}
