extension JSONAPIErrorObject {
    /// The JSON Pointer of the member a model's property is written as, for a 422 a handler
    /// raises itself: `\Article.title` is `/data/attributes/title`, a relationship
    /// (`\Article.author`, a model, identifier, union or an array or optional of one) is
    /// `/data/relationships/author`, and `id`, `lid` and `meta` stay at the resource's top.
    ///
    /// The name goes through `keys`, the key strategy the documents are written with
    /// (``EncodingOptions/keyEncodingStrategy``): `\Article.wordCount` with
    /// ``EncodingOptions/KeyEncodingStrategy/convertToKebabCase`` is
    /// `/data/attributes/word-count`. A path through a value (`\Article.metrics.views`) goes on
    /// inside the attribute (and is taken as one: its first property's type is not known). The
    /// property's name comes from the key path's description, so a `CodingKeys` that renames it
    /// is not seen: give such a pointer yourself.
    ///
    /// ```swift
    /// JSONAPIErrorObject.pointer(to: \Article.title)                      // "/data/attributes/title"
    /// JSONAPIErrorObject.pointer(to: \Article.author)                     // "/data/relationships/author"
    /// JSONAPIErrorObject.pointer(to: \Article.title, resourcePointer: "/data/2")   // "/data/2/attributes/title"
    /// ```
    ///
    /// - Parameters:
    ///   - keyPath: A stored property of the model (or a path into one).
    ///   - keys: How member names are written.
    ///   - resourcePointer: Where the resource object is in the document.
    /// - Returns: The pointer; `resourcePointer` itself for a key path it cannot name (`\Article.self`).
    public static func pointer<Model: JSONAPIResource>(
        to keyPath: PartialKeyPath<Model>, keys: EncodingOptions.KeyEncodingStrategy = .useDefaultKeys,
        resourcePointer: String = "/data"
    ) -> String {
        let names = propertyNames(of: keyPath)
        guard let first = names.first else { return resourcePointer }
        var options = EncodingOptions()
        options.keyEncodingStrategy = keys
        let context = EncodingContext(options: options)
        var path: [any CodingKey] = []
        var tokens: [String] = []
        for name in names {
            let key = AnyKey(name)
            tokens.append(escapePointerToken(context.name(for: key, path: path)))
            path.append(key)
        }
        let section: String
        if ["id", "lid", "meta", "links", "type"].contains(first) {
            section = ""
        } else if names.count == 1 && RelationshipType.of(type(of: keyPath).valueType) != nil {
            section = "/relationships"
        } else {
            section = "/attributes"
        }
        return resourcePointer + section + "/" + tokens.joined(separator: "/")
    }

    /// A 422 error object for the member `keyPath` names, at ``pointer(to:keys:resourcePointer:)``.
    ///
    /// ```swift
    /// guard article.title.count <= 200 else {
    ///     throw JSONAPIHTTPError([
    ///         .unprocessable(\Article.title, detail: "a title is at most 200 characters")
    ///     ])
    /// }
    /// // {"status":"422","code":"invalid-value","title":"Invalid value",
    /// //  "detail":"a title is at most 200 characters","source":{"pointer":"/data/attributes/title"}}
    /// ```
    public static func unprocessable<Model: JSONAPIResource>(
        _ keyPath: PartialKeyPath<Model>, detail: String? = nil, code: String? = "invalid-value",
        title: String = "Invalid value", keys: EncodingOptions.KeyEncodingStrategy = .useDefaultKeys,
        resourcePointer: String = "/data"
    ) -> JSONAPIErrorObject {
        JSONAPIErrorObject(
            status: 422, code: code, title: title, detail: detail,
            source: .pointer(pointer(to: keyPath, keys: keys, resourcePointer: resourcePointer)))
    }

    /// The property names of `keyPath`, from its description (`\Article.author?.name` is
    /// `["author", "name"]`); subscripts end the path.
    static func propertyNames(of keyPath: AnyKeyPath) -> [String] {
        let text = String(describing: keyPath)
        // `\Article.title`, `\Article.author?.name`, `\Article.tags.<computed …>`: the root type
        // as `String(describing:)` names it, then the components.
        let root = "\\" + String(describing: type(of: keyPath).rootType) + "."
        guard text.hasPrefix(root) else { return [] }
        var names: [String] = []
        for part in text.dropFirst(root.count).split(separator: ".", omittingEmptySubsequences: false) {
            var name = Substring(part)
            while let last = name.last, last == "?" || last == "!" { name = name.dropLast() }
            if let bracket = name.firstIndex(of: "[") {
                if bracket != name.startIndex { names.append(String(name[..<bracket])) }
                break
            }
            guard !name.isEmpty, !name.hasPrefix("<") else { break }
            names.append(String(name))
        }
        return names
    }
}

extension JSONAPIErrorObject {
    /// One 422 error object describing a problem a lenient decode worked around, at its
    /// pointer: `code` `missing-value`, `invalid-value`, `wrong-resource-type`, ... as
    /// ``DecodingProblem/kind`` says, `detail` its message.
    ///
    /// ```swift
    /// var options = DecodingOptions()
    /// options.tolerance = .lenient
    /// let report = try JSONAPIDecoder(options: options).decodeReporting(ArticlePatch.self, from: document)
    /// let errors = report.problems.map(JSONAPIErrorObject.init(decodingProblem:))
    /// ```
    public init(decodingProblem problem: DecodingProblem) {
        let code: String
        switch problem.kind {
        case .missingResource: code = "missing-resource"
        case .wrongResourceType: code = "wrong-resource-type"
        case .unhandledResourceType: code = "unhandled-resource-type"
        case .missingValue: code = "missing-value"
        case .invalidValue: code = "invalid-value"
        }
        var place = JSON.Object()
        if problem.line > 0 {
            place["line"] = JSON(problem.line)
            place["column"] = JSON(problem.column)
        }
        self.init(
            status: 422, code: code, title: "Invalid value", detail: problem.message,
            source: .pointer(problem.pointer), meta: place.isEmpty ? nil : place)
    }
}

extension JSONAPIHTTPError {
    /// 422 Unprocessable Content with one error object per problem of a lenient decode (see
    /// ``JSONAPIErrorObject/init(decodingProblem:)``), so a client learns of every one at once.
    ///
    /// ```swift
    /// let report = try decoder.decodeReporting(ArticlePatch.self, from: document)
    /// if !report.problems.isEmpty { throw JSONAPIHTTPError.unprocessable(report.problems) }
    /// ```
    public static func unprocessable(_ problems: [DecodingProblem]) -> JSONAPIHTTPError {
        JSONAPIHTTPError(problems.map(JSONAPIErrorObject.init(decodingProblem:)))
    }
}
