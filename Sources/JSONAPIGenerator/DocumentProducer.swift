/// Writes one generated document into a ``ByteBuffer``, a resource at a time, so that the caller
/// can hand out chunks between resources.
///
/// Layout: `{"jsonapi":…,"links":…,"meta":…,"data":[articles],"included":[comments, people, tags]}`.
/// Random choices are drawn from one ``SplitMix64`` stream in document order; references between
/// resources use closed forms (article `i`'s author is person `i % personCount`, comments are
/// numbered in article order), so nothing but a few counters is kept between resources.
struct DocumentProducer {
    /// Room kept beyond a chunk, so that the resource that crosses the chunk boundary never makes the buffer grow.
    static let slack = 64 << 10
    /// Reserved before each resource, which then writes its fields unchecked; an upper bound of one
    /// resource's size, back-references aside (they reserve per item).
    static let maximumResourceBytes = 16 << 10

    private let articles: Int
    private let comments: Int
    private let people: Int
    private let tags: Int
    private let seed: UInt64
    /// Writes every resource id, in the generator's ``IDScheme``.
    private let ids: IDWriter
    /// The standard scheme's ids, for links.
    private let standardIDs: IDWriter
    private var random: SplitMix64
    var output: ByteBuffer

    /// 0 is the header, then one step per resource in document order, then the trailer.
    private var step = 0
    /// Comments not yet assigned to an article.
    private var unassignedComments: Int
    /// The index of the next comment to assign to an article.
    private var nextComment = 0

    private static let base: StaticString = "https://api.example.com"
    /// ``CompoundDocumentGenerator/mostlyNonASCIIText``.
    private let mostlyNonASCII: Bool

    init(generator: CompoundDocumentGenerator, bufferCapacity: Int) {
        articles = generator.primaryCount
        comments = generator.commentCount
        people = generator.personCount
        tags = generator.tagCount
        unassignedComments = generator.commentCount
        seed = generator.seed
        random = SplitMix64(seed: generator.seed)
        ids = IDWriter(scheme: generator.idScheme, seed: generator.seed)
        standardIDs = IDWriter(scheme: .standard, seed: generator.seed)
        mostlyNonASCII = generator.mostlyNonASCIIText
        output = ByteBuffer(capacity: bufferCapacity)
    }

    func deallocate() {
        output.deallocate()
    }

    /// Writes resources until the buffer holds at least `threshold` bytes or the document is complete.
    /// - Returns: Whether the document is complete.
    mutating func fill(upTo threshold: Int) -> Bool {
        let last = articles + comments + people + tags + 1
        while output.count < threshold {
            if step > last {
                return true
            }
            output.reserve(Self.maximumResourceBytes)
            let index = step - 1
            if step == 0 {
                writeHeader()
            } else if index < articles {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                writeArticle(index)
                if index == articles - 1 { closeData() }
            } else if index < articles + comments {
                if index > articles { output.append(UInt8(ascii: ",")) }
                writeComment(index - articles)
            } else if index < articles + comments + people {
                if index > articles { output.append(UInt8(ascii: ",")) }
                writePerson(index - articles - comments)
            } else if index < last - 1 {
                if index > articles { output.append(UInt8(ascii: ",")) }
                writeTag(index - articles - comments - people)
            } else {
                writeTrailer()
            }
            step += 1
        }
        return step > last
    }

    // MARK: - Document frame

    private mutating func writeHeader() {
        output.append(#"{"jsonapi":{"version":"1.1"},"links":{"self":""#)
        output.append(Self.base)
        output.append("/articles?page[number]=1&page[size]=")
        output.append(decimal: articles)
        output.append(#"","next":{"href":""#)
        output.append(Self.base)
        output.append("/articles?page[number]=2&page[size]=")
        output.append(decimal: articles)
        output.append(#"","meta":{"page":2,"cursor":null}}},"meta":{"total":"#)
        output.append(decimal: articles)
        output.append(#","generatedBy":"JSONAPIGenerator","seed":""#)
        output.append(decimal: seed)
        output.append(#""},"data":["#)
        if articles == 0 {
            closeData()
        }
    }

    private mutating func closeData() {
        output.append(UInt8(ascii: "]"))
        if comments + people + tags > 0 {
            output.append(#","included":["#)
        }
    }

    private mutating func writeTrailer() {
        if comments + people + tags > 0 {
            output.append(UInt8(ascii: "]"))
        }
        output.append(UInt8(ascii: "}"))
    }

    // MARK: - Resources

    private mutating func writeArticle(_ index: Int) {
        let id = index + 1
        output.append(#"{"type":"articles","id":""#)
        ids.append(.article, index, site: .resource, to: &output)
        output.append(#"","attributes":{"title":""#)
        let unicodeTitle = index == 0 || random.chance(30)
        writeTitle(unicode: unicodeTitle)
        output.append(#"","body":""#)
        let style: TextStyle = index == 0 || random.chance(25) ? .escaped : random.chance(40) ? .unicode : .plain
        let words = writeText(
            bytes: random.next(in: 300...1_300), style: style, paragraphs: true, opening: index == 0 ? 0 : nil)
        output.append(#"","slug":""#)
        writeSlug(id: id)
        output.append(#"","wordCount":"#)
        output.append(decimal: words)
        output.append(#","rating":"#)
        writeRating()
        output.append(random.chance(70) ? #","published":true"# : #","published":false"#)
        output.append(#","subtitle":"#)
        if index == 0 || random.chance(40) {
            output.append("null")
        } else {
            output.append(UInt8(ascii: "\""))
            writeTitle(unicode: random.chance(20))
            output.append(UInt8(ascii: "\""))
        }
        output.append(#","keywords":["#)
        let labels = random.next(below: 5)
        for label in 0..<labels {
            if label > 0 { output.append(UInt8(ascii: ",")) }
            output.append(UInt8(ascii: "\""))
            output.append(Vocabulary.words[random.next(below: Vocabulary.words.count)])
            output.append(UInt8(ascii: "\""))
        }
        output.append(#"],"metrics":{"views":"#)
        output.append(decimal: random.next(below: 1 << 20) << random.next(below: 8))
        output.append(#","shares":"#)
        output.append(decimal: random.next(below: 5_000))
        output.append(#","ratio":0."#)
        output.append(decimal: random.next(below: 10_000), width: 4)
        output.append(#"},"createdAt":""#)
        writeTimestamp()
        output.append(#""},"relationships":{"author":{"links":{"self":""#)
        writeArticleURL(id: id)
        output.append(#"/relationships/author","related":""#)
        writeArticleURL(id: id)
        output.append(#"/author"},"data":"#)
        if people > 0 {
            writePersonIdentifier(index % people)
        } else {
            output.append("null")
        }
        output.append(#"},"comments":{"links":{"self":""#)
        writeArticleURL(id: id)
        output.append(#"/relationships/comments","related":""#)
        writeArticleURL(id: id)
        output.append(#"/comments"},"data":["#)
        let commentCount = nextCommentCount(article: index)
        for offset in 0..<commentCount {
            if offset > 0 { output.append(UInt8(ascii: ",")) }
            output.append(#"{"type":"comments","id":""#)
            ids.append(.comment, nextComment + offset, site: .linkage, to: &output)
            output.append(#""}"#)
        }
        nextComment += commentCount
        output.append(UInt8(ascii: "]"))
        if random.chance(50) {
            output.append(#","meta":{"count":"#)
            output.append(decimal: commentCount)
            output.append(UInt8(ascii: "}"))
        }
        output.append(#"},"tags":{"data":["#)
        writeTagLinkage(article: index)
        output.append(#"]}},"links":{"self":""#)
        writeArticleURL(id: id)
        output.append(#""}"#)
        if random.chance(30) {
            output.append(#","meta":{"revision":"#)
            output.append(decimal: random.next(in: 1...40))
            output.append(random.chance(10) ? #","locked":true}"# : #","locked":false}"#)
        }
        output.append(UInt8(ascii: "}"))
    }

    private mutating func writeComment(_ index: Int) {
        let id = index + 1
        output.append(#"{"type":"comments","id":""#)
        ids.append(.comment, index, site: .resource, to: &output)
        output.append(#"","attributes":{"body":""#)
        let style: TextStyle = random.chance(15) ? .escaped : random.chance(30) ? .unicode : .plain
        _ = writeText(bytes: random.next(in: 180...980), style: style, paragraphs: random.chance(20), opening: nil)
        output.append(#"","createdAt":""#)
        writeTimestamp()
        output.append(#"","likes":"#)
        output.append(decimal: random.next(below: 8) == 0 ? random.next(below: 10_000) : random.next(below: 20))
        output.append(#"},"relationships":{"author":{"data":"#)
        if people > 0 {
            writePersonIdentifier(random.next(below: people))
        } else {
            output.append("null")
        }
        output.append(#"}},"links":{"self":""#)
        output.append(Self.base)
        output.append("/comments/")
        output.append(decimal: id)
        output.append(#""}}"#)
    }

    private mutating func writePerson(_ index: Int) {
        let first = Vocabulary.firstNames[random.next(below: Vocabulary.firstNames.count)]
        let last = Vocabulary.lastNames[random.next(below: Vocabulary.lastNames.count)]
        output.append(#"{"type":"people","id":""#)
        ids.append(.person, index, site: .resource, to: &output)
        output.append(#"","attributes":{"firstName":""#)
        output.append(first.display)
        output.append(#"","lastName":""#)
        output.append(last.display)
        output.append(#"","email":""#)
        output.append(first.ascii)
        output.append(UInt8(ascii: "."))
        output.append(last.ascii)
        output.append(decimal: index)
        output.append(#"@example.com","age":"#)
        output.append(decimal: random.next(in: 18...90))
        output.append(#","bio":""#)
        let style: TextStyle = random.chance(20) ? .escaped : random.chance(40) ? .unicode : .plain
        _ = writeText(bytes: random.next(in: 80...400), style: style, paragraphs: false, opening: nil)
        output.append(#"","twitter":"#)
        if random.chance(40) {
            output.append("null")
        } else {
            output.append(#""@"#)
            output.append(first.ascii)
            output.append(UInt8(ascii: "_"))
            output.append(last.ascii)
            output.append(UInt8(ascii: "\""))
        }
        output.append(UInt8(ascii: "}"))
        if index % 3 == 0 {
            // Back-references close cycles: article → author → articles → article.
            output.append(#","relationships":{"articles":{"data":["#)
            var article = index
            while article < articles {
                output.reserve(64 + IDScheme.maximumSpelledBytes)
                if article > index { output.append(UInt8(ascii: ",")) }
                output.append(#"{"type":"articles","id":""#)
                ids.append(.article, article, site: .backReference, to: &output)
                output.append(#""}"#)
                article += people
            }
            output.reserve(256)
            output.append("]}}")
        }
        output.append(#","links":{"self":""#)
        output.append(Self.base)
        output.append("/people/")
        writePersonID(index)
        output.append(#""}}"#)
    }

    private mutating func writeTag(_ index: Int) {
        output.append(#"{"type":"tags","id":""#)
        ids.append(.tag, index, site: .resource, to: &output)
        output.append(#"","attributes":{"name":""#)
        output.append(Vocabulary.words[index % Vocabulary.words.count])
        if index >= Vocabulary.words.count {
            output.append(UInt8(ascii: "-"))
            output.append(decimal: index / Vocabulary.words.count)
        }
        output.append(#"","color":""#)
        output.append(Vocabulary.colors[random.next(below: Vocabulary.colors.count)])
        output.append(#""}}"#)
    }

    // MARK: - Linkage

    /// How many comments article `index` gets: 2–6, but always leaving a feasible number for the
    /// remaining articles so that the total is exactly ``comments``.
    private mutating func nextCommentCount(article index: Int) -> Int {
        let remainingArticles = articles - index - 1
        var count = random.next(in: 2...6)
        count = Swift.min(count, Swift.max(0, unassignedComments - 2 * remainingArticles))
        count = Swift.max(count, unassignedComments - 6 * remainingArticles)
        count = Swift.min(count, unassignedComments)
        unassignedComments -= count
        return count
    }

    /// Writes 0–4 distinct tag identifiers. Article `i < tags` always links tag `i`, so every tag is referenced.
    private mutating func writeTagLinkage(article index: Int) {
        guard tags > 0 else { return }
        var chosen = (-1, -1, -1, -1)
        var count = Swift.min(tags, random.next(below: 5))
        if index < tags {
            chosen.0 = index
            count = Swift.max(count, 1)
        }
        var filled = index < tags ? 1 : 0
        while filled < count {
            let candidate = random.next(below: tags)
            if candidate == chosen.0 || candidate == chosen.1 || candidate == chosen.2 { continue }
            switch filled {
            case 0: chosen.0 = candidate
            case 1: chosen.1 = candidate
            case 2: chosen.2 = candidate
            default: chosen.3 = candidate
            }
            filled += 1
        }
        for slot in 0..<count {
            let tag: Int
            switch slot {
            case 0: tag = chosen.0
            case 1: tag = chosen.1
            case 2: tag = chosen.2
            default: tag = chosen.3
            }
            if slot > 0 { output.append(UInt8(ascii: ",")) }
            output.append(#"{"type":"tags","id":""#)
            ids.append(.tag, tag, site: .linkage, to: &output)
            output.append(#""}"#)
        }
    }

    private mutating func writePersonIdentifier(_ index: Int) {
        output.append(#"{"type":"people","id":""#)
        ids.append(.person, index, site: .linkage, to: &output)
        output.append(#""}"#)
    }

    /// The person's id as the standard scheme writes it (a UUID), for the `self` link, which
    /// stays the same whatever the id scheme.
    private mutating func writePersonID(_ index: Int) {
        standardIDs.append(.person, index, site: .resource, to: &output)
    }

    // MARK: - Values

    private mutating func writeArticleURL(id: Int) {
        output.append(Self.base)
        output.append("/articles/")
        output.append(decimal: id)
    }

    /// 3–8 words, capitalised; with `unicode`, one of them is a raw multi-byte word.
    private mutating func writeTitle(unicode: Bool) {
        let count = random.next(in: 3...8)
        let special = unicode ? random.next(below: count) : -1
        for word in 0..<count {
            if word > 0 { output.append(UInt8(ascii: " ")) }
            if word == special {
                output.append(Vocabulary.unicodeWords[random.next(below: Vocabulary.unicodeWords.count)])
            } else {
                output.appendCapitalized(Vocabulary.words[random.next(below: Vocabulary.words.count)])
            }
        }
    }

    private mutating func writeSlug(id: Int) {
        for _ in 0..<random.next(in: 2...5) {
            output.append(Vocabulary.words[random.next(below: Vocabulary.words.count)])
            output.append(UInt8(ascii: "-"))
        }
        output.append(decimal: id)
    }

    /// Mostly `d.dd`, sometimes with an exponent (`1.5e3`, `2.25E-2`), sometimes negative.
    private mutating func writeRating() {
        let form = random.next(below: 10)
        if form < 7 {
            output.append(decimal: random.next(below: 5))
            output.append(UInt8(ascii: "."))
            output.append(decimal: random.next(below: 100), width: 2)
        } else if form < 9 {
            output.append(decimal: random.next(in: 1...9))
            output.append(UInt8(ascii: "."))
            output.append(decimal: random.next(in: 1...99))
            output.append(form == 7 ? "e" : "E")
            let exponent = random.next(in: -4...4)
            if exponent > 0 && random.chance(50) { output.append(UInt8(ascii: "+")) }
            output.append(decimal: exponent)
        } else {
            output.append("-0.")
            output.append(decimal: random.next(in: 1...999))
        }
    }

    /// An RFC 3339 timestamp: `Z`, milliseconds plus `Z`, or a numeric offset.
    private mutating func writeTimestamp() {
        output.append(decimal: random.next(in: 2015...2025))
        output.append(UInt8(ascii: "-"))
        output.append(decimal: random.next(in: 1...12), width: 2)
        output.append(UInt8(ascii: "-"))
        output.append(decimal: random.next(in: 1...28), width: 2)
        output.append(UInt8(ascii: "T"))
        output.append(decimal: random.next(below: 24), width: 2)
        output.append(UInt8(ascii: ":"))
        output.append(decimal: random.next(below: 60), width: 2)
        output.append(UInt8(ascii: ":"))
        output.append(decimal: random.next(below: 60), width: 2)
        let form = random.next(below: 10)
        if form < 7 {
            output.append(UInt8(ascii: "Z"))
        } else if form < 9 {
            output.append(UInt8(ascii: "."))
            output.append(decimal: random.next(below: 1000), width: 3)
            output.append(UInt8(ascii: "Z"))
        } else {
            output.append(random.chance(50) ? "+02:00" : "-05:00")
        }
    }

    private enum TextStyle {
        /// ASCII words only.
        case plain
        /// Some raw multi-byte UTF-8 words.
        case unicode
        /// Raw multi-byte words and JSON escape sequences, opened by an escape-rich sentence.
        case escaped
    }

    /// Writes sentences of words until at least `bytes` bytes were written.
    ///
    /// - Parameters:
    ///   - paragraphs: Whether sentences are sometimes separated by an escaped `\n\n`.
    ///   - opening: For `.escaped`, which ``Vocabulary/escapeSentences`` entry opens the text; random when `nil`.
    /// - Returns: The number of words written.
    private mutating func writeText(bytes target: Int, style: TextStyle, paragraphs: Bool, opening: Int?) -> Int {
        let start = output.count
        var words = 0
        if style == .escaped {
            let sentence = opening ?? random.next(below: Vocabulary.escapeSentences.count)
            output.append(Vocabulary.escapeSentences[sentence])
        }
        var position = 0
        var length = random.next(in: 5...14)
        var separator = false
        // Out of 256: about 5% of words in `.unicode` text, 60% in mostly non-ASCII documents.
        let unicodeThreshold: UInt64 = mostlyNonASCII ? 154 : style == .plain ? 0 : 12
        let escapeThreshold: UInt64 = style == .escaped ? unicodeThreshold + 6 : unicodeThreshold
        while output.count - start < target {
            if separator { output.append(UInt8(ascii: " ")) }
            separator = true
            let draw = random.next()
            let kind = draw & 0xFF
            if kind < unicodeThreshold {
                output.append(Vocabulary.unicodeWords[Self.pick(draw, Vocabulary.unicodeWords.count)])
            } else if kind < escapeThreshold {
                output.append(Vocabulary.escapeTokens[Self.pick(draw, Vocabulary.escapeTokens.count)])
            } else if position == 0 {
                output.appendCapitalized(Vocabulary.words[Self.pick(draw, Vocabulary.words.count)])
            } else {
                output.append(Vocabulary.words[Self.pick(draw, Vocabulary.words.count)])
            }
            words += 1
            position += 1
            if position == length {
                output.append(UInt8(ascii: "."))
                position = 0
                length = Self.pick(draw << 8, 10) + 5
                if paragraphs && (draw >> 8) & 0xF == 0 {
                    output.append(#"\n\n"#)
                    separator = false
                }
            }
        }
        if position > 0 {
            output.append(UInt8(ascii: "."))
        }
        return words
    }

    /// Picks an index below `count` from the high 32 bits of a draw.
    @inline(__always)
    private static func pick(_ draw: UInt64, _ count: Int) -> Int {
        Int(truncatingIfNeeded: ((draw >> 32) &* UInt64(truncatingIfNeeded: count)) >> 32)
    }
}
