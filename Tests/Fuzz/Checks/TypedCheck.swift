import JSONAPI

/// The `typed` target: decoding errors are expected on most inputs; crashes are not, and the
/// lazy and eager ways of decoding the same collection must agree.
enum TypedCheck {
    static func run(_ bytes: [UInt8]) throws(FuzzFailure) {
        var plan = InputPlan(bytes)
        decoders(bytes, plan: &plan)
        let options = ParsingOptions(kind: .response, lenient: plan.flip())
        guard let document = try? Document(parsing: bytes, options: options) else { return }
        try collection(document.primary(as: FuzzArticle.self), what: "primary articles")
        try collection(document.primary(as: FuzzContributor.self), what: "primary contributors")
        try collection(document.included(of: FuzzPerson.self), what: "included people")
        try collection(document.resources(of: FuzzComment.self), what: "comments")
        try collection(document.resources(of: FuzzTag.self), what: "tags")
        var lenient = DecodingOptions()
        lenient.ignoresMissingResources = true
        lenient.ignoresUnhandledResourceTypes = true
        lenient.keyDecodingStrategy = .convertFromKebabCase
        lenient.maximumRelationshipDepth = 1 + plan.next(below: 8)
        lenient.usesResourceReaders = plan.flip()
        try collection(document.primary(as: FuzzArticle.self, options: lenient), what: "primary articles, lenient")
        try tolerant(document, strict: lenient)
        for person in document.resources(ofType: FuzzPerson.resourceType) {
            guard let id = person.id else { continue }
            _ = try? document.resource(FuzzPerson.self, id: id)
            _ = try? document.resource(FuzzPerson.self, id: id, options: lenient)
        }
        _ = try? document.decode([FuzzArticle].self)
        _ = try? document.decode(FuzzArticle.self, options: lenient)
        _ = try? document.decode(CompoundDocument<[FuzzContributor], JSON, JSON>.self)
    }

    /// A lenient decode of the primary articles never throws; every element is decoded or left
    /// out with a located problem; and when the strict decode succeeds the two give the same
    /// models and the same problems.
    private static func tolerant(_ document: Document, strict: DecodingOptions) throws(FuzzFailure) {
        var options = strict
        options.tolerance = .lenient
        let primary = document.primary(as: FuzzArticle.self, options: options)
        let report: DecodingReport<[FuzzArticle]>
        do {
            report = try primary.decodeAllReporting()
        } catch {
            throw FuzzFailure("a lenient decodeAll threw: \(error)")
        }
        var leftOut: Set<String> = []
        for problem in report.problems {
            _ = problem.description
            if !problem.pointer.hasPrefix("/") && !problem.pointer.isEmpty {
                throw FuzzFailure("problem with pointer \(problem.pointer): \(problem)")
            }
            if problem.line < 1 || problem.column < 1 { throw FuzzFailure("problem without a line: \(problem)") }
            let path = problem.codingPath
            if problem.action == .leftOut, path.hasPrefix("["), path.hasSuffix("]"), !path.dropFirst().contains("[") {
                leftOut.insert(path)
            }
        }
        if report.value.count + leftOut.count != primary.count {
            throw FuzzFailure(
                "lenient: \(report.value.count) articles decoded and \(leftOut.count) left out of \(primary.count)")
        }
        guard let exact = try? document.primary(as: FuzzArticle.self, options: strict).decodeAllReporting() else {
            return
        }
        if exact.value.map({ String(describing: $0) }) != report.value.map({ String(describing: $0) })
            || exact.problems != report.problems
        {
            throw FuzzFailure("a strict decode that succeeds and a lenient one give different results")
        }
    }

    /// Every `JSONAPIDecoder` entry point that takes bytes.
    private static func decoders(_ bytes: [UInt8], plan: inout InputPlan) {
        let decoder = JSONAPIDecoder()
        _ = try? decoder.decode([FuzzArticle].self, from: bytes)
        _ = try? decoder.decode(FuzzArticle.self, from: bytes)
        _ = try? decoder.decodeReporting(CompoundDocument<[FuzzArticle], JSON, JSON>.self, from: bytes)
        let lenient = JSONAPIDecoder()
        lenient.keyDecodingStrategy = .convertFromSnakeCase
        lenient.ignoresMissingResources = true
        lenient.ignoresUnhandledResourceTypes = plan.flip()
        lenient.parsingOptions = ParsingOptions(kind: .response, lenient: true)
        if let report = try? lenient.decodeReporting([FuzzArticle].self, from: bytes) {
            _ = report.skipped.map(\.description)
            for article in report.value { resolve(article) }
        }
        _ = try? lenient.decode(CompoundDocument<FuzzContributor, JSON, JSON>.self, from: bytes)
        _ = try? lenient.decode(CompoundDocument<[FuzzComment], JSON, JSON>.self, from: bytes)
    }

    /// Follows an article's lazy relationship.
    private static func resolve(_ article: FuzzArticle) {
        guard let author = article.author else { return }
        _ = author.identifier
        _ = author.identifierMeta?.keys
        _ = author.description
        _ = try? author.resolve()
    }

    /// Decodes `collection` element by element, with `forEachDecoded`, with an iterator and all
    /// at once: when `decodeAll` succeeds, every other way gives the same models.
    private static func collection<Model: Decodable>(_ collection: TypedResourceCollection<Model>, what: String)
        throws(FuzzFailure)
    {
        var lazily: [String?] = []
        for index in collection.indices {
            let element = try? collection.element(at: index)
            lazily.append(element.map { String(describing: $0) })
            if let article = element as? FuzzArticle { resolve(article) }
            if case .success(let model) = collection[index], String(describing: model) != lazily.last {
                throw FuzzFailure("\(what)[\(index)]: subscript and element(at:) differ")
            }
            _ = collection.resource(at: index)?.identifier
        }
        var walked: [String] = []
        let walk = try? collection.forEachDecodedReporting { walked.append(String(describing: $0)) }
        var iterator = collection.makeDecodingIterator()
        var iterated: [String] = []
        while let next = try? iterator.next() {
            iterated.append(String(describing: next))
        }
        _ = iterator.skippedResources()
        _ = try? collection.decodeAllReporting()
        guard let all = try? collection.decodeAll() else { return }
        let eager = all.map { String(describing: $0) }
        if eager.count != collection.count || lazily != eager.map(Optional.some) {
            throw FuzzFailure(
                "\(what): decodeAll gives \(eager.count) models, element(at:) \(lazily.count) that differ")
        }
        if let walk, walk.skipped.isEmpty, walked != eager {
            throw FuzzFailure("\(what): forEachDecoded gives other models than decodeAll")
        }
        if iterator.skippedResources().isEmpty, iterated != eager {
            throw FuzzFailure("\(what): the decoding iterator gives other models than decodeAll")
        }
    }
}
