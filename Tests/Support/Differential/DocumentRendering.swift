/// Writes a ``ModelDocument`` as JSON text: every string spelled as its seed decides (raw UTF-8,
/// short escapes, `\uXXXX` in either case, surrogate pairs, `\/`), member order and whitespace
/// varied, extra members (`attributes`, `links`, `meta`, identifier `meta`) here and there.
/// Nothing of the library is used.
struct RenderedDocument {
    var bytes: [UInt8]
    /// The offset of each record's `{`, in record order.
    var objectOffsets: [Int]
    /// The JSON Pointer of each record, in record order.
    var pointers: [String]

    /// The text for a failure message: control characters and non-ASCII kept visible.
    var displayText: String {
        let text = String(decoding: bytes, as: UTF8.self)
        return text.count > 6000 ? String(text.prefix(6000)) + "… (\(bytes.count) bytes)" : text
    }
}

extension ModelDocument {
    func render() -> RenderedDocument {
        var writer = JSONTextWriter(layout: layout, looseness: looseness)
        var offsets: [Int] = []
        var pointers: [String] = []
        var top = SplitMix64(seed: layout ^ 0x70B)
        writer.open("{")
        var first = true
        func member(_ name: String, _ writer: inout JSONTextWriter) {
            if !first { writer.comma() }
            first = false
            writer.key(SpelledString(value: name, spelling: layout &+ UInt64(name.utf8.count)))
        }
        if top.chance(20) {
            member("jsonapi", &writer)
            writer.raw(#"{"version":"1.1"}"#)
        }
        func writeIncluded(_ writer: inout JSONTextWriter) {
            guard let included else { return }
            member("included", &writer)
            writer.open("[")
            for (j, resource) in included.enumerated() {
                if j > 0 { writer.comma() }
                offsets.append(writer.resource(resource))
                pointers.append("/included/\(j)")
            }
            writer.close("]")
        }
        if includedFirst { writeIncluded(&writer) }
        member("data", &writer)
        switch kind {
        case .null:
            writer.raw("null")
        case .one:
            if let resource = primary.first {
                offsets.append(writer.resource(resource))
                pointers.append("/data")
            } else {
                writer.raw("null")
            }
        case .many:
            writer.open("[")
            for (i, resource) in primary.enumerated() {
                if i > 0 { writer.comma() }
                offsets.append(writer.resource(resource))
                pointers.append("/data/\(i)")
            }
            writer.close("]")
        case .linkage:
            writer.open("[")
            for (i, identifier) in primaryLinkage.enumerated() {
                if i > 0 { writer.comma() }
                writer.identifier(identifier)
            }
            writer.close("]")
        }
        if !includedFirst { writeIncluded(&writer) }
        if top.chance(20) {
            member("meta", &writer)
            writer.raw(#"{"total":1}"#)
        }
        writer.close("}")
        writer.whitespace()
        return RenderedDocument(bytes: writer.bytes, objectOffsets: offsets, pointers: pointers)
    }
}

/// Appends JSON tokens with random whitespace between them.
struct JSONTextWriter {
    var bytes: [UInt8] = []
    var random: SplitMix64
    let looseness: Int

    init(layout: UInt64, looseness: Int) {
        random = SplitMix64(seed: layout ^ 0x5BACE)
        self.looseness = looseness
    }

    mutating func whitespace() {
        guard looseness > 0, Int.random(in: 0..<100, using: &random) < looseness else { return }
        for _ in 0..<Int.random(in: 1...3, using: &random) {
            bytes.append([0x20, 0x0A, 0x09, 0x0D][Int.random(in: 0...3, using: &random)])
        }
    }

    mutating func raw(_ text: String) {
        bytes.append(contentsOf: text.utf8)
    }

    mutating func open(_ bracket: String) {
        whitespace()
        raw(bracket)
        whitespace()
    }

    mutating func close(_ bracket: String) {
        whitespace()
        raw(bracket)
    }

    mutating func comma() {
        whitespace()
        raw(",")
        whitespace()
    }

    /// `"name":` with whitespace around the colon.
    mutating func key(_ name: SpelledString) {
        string(name)
        whitespace()
        raw(":")
        whitespace()
    }

    /// A JSON string whose spelling the string's seed decides.
    mutating func string(_ spelled: SpelledString) {
        bytes.append(UInt8(ascii: "\""))
        var choices = SplitMix64(seed: spelled.spelling)
        // Most strings are written as plainly as JSON allows; some escape many characters.
        let escapeRate = [0, 0, 0, 5, 30, 100][Int.random(in: 0...5, using: &choices)]
        let upperHex = choices.chance(50)
        for scalar in spelled.value.unicodeScalars {
            appendSpelling(of: scalar, escapeRate: escapeRate, upperHex: upperHex, choices: &choices)
        }
        bytes.append(UInt8(ascii: "\""))
    }

    private mutating func appendSpelling(
        of scalar: Unicode.Scalar, escapeRate: Int, upperHex: Bool, choices: inout SplitMix64
    ) {
        let value = scalar.value
        let escape = escapeRate > 0 && Int.random(in: 0..<100, using: &choices) < escapeRate
        switch value {
        case 0x22:
            raw(escape ? unicodeEscape(value, upperHex) : #"\""#)
        case 0x5C:
            raw(escape ? unicodeEscape(value, upperHex) : #"\\"#)
        case 0x2F:
            raw(escape ? (choices.chance(50) ? #"\/"# : unicodeEscape(value, upperHex)) : "/")
        case 0..<0x20:
            let short: [UInt32: String] = [0x08: #"\b"#, 0x0C: #"\f"#, 0x0A: #"\n"#, 0x0D: #"\r"#, 0x09: #"\t"#]
            if let short = short[value], choices.chance(60) {
                raw(short)
            } else {
                raw(unicodeEscape(value, upperHex))
            }
        default:
            if !escape {
                bytes.append(contentsOf: String(scalar).utf8)
            } else if value <= 0xFFFF {
                raw(unicodeEscape(value, upperHex))
            } else {
                let offset = value - 0x10000
                raw(
                    unicodeEscape(0xD800 + (offset >> 10), upperHex)
                        + unicodeEscape(0xDC00 + (offset & 0x3FF), upperHex))
            }
        }
    }

    private func unicodeEscape(_ value: UInt32, _ upper: Bool) -> String {
        let hex = String(value, radix: 16, uppercase: upper)
        return #"\u"# + String(repeating: "0", count: 4 - hex.count) + hex
    }

    /// Writes a resource object; returns the offset of its `{`.
    mutating func resource(_ resource: ModelResource) -> Int {
        var layout = SplitMix64(seed: resource.layout)
        var members: [Int] = [0, 1]  // type, id
        if !resource.relationships.isEmpty || layout.chance(10) { members.append(2) }
        if layout.chance(40) { members.append(3) }  // attributes
        if layout.chance(20) { members.append(4) }  // links
        if layout.chance(15) { members.append(5) }  // meta
        // Usually `type` first, as servers write it; sometimes any order.
        if layout.chance(30) { members.shuffle(using: &layout) }
        whitespace()
        let start = bytes.count
        raw("{")
        whitespace()
        for (n, member) in members.enumerated() {
            if n > 0 { comma() }
            switch member {
            case 0:
                key(SpelledString(value: "type", spelling: layout.next()))
                string(resource.type)
            case 1:
                key(SpelledString(value: "id", spelling: layout.next()))
                string(resource.id)
            case 2:
                key(SpelledString(value: "relationships", spelling: layout.next()))
                open("{")
                for (r, relationship) in resource.relationships.enumerated() {
                    if r > 0 { comma() }
                    self.relationship(relationship, layout: &layout)
                }
                close("}")
            case 3:
                key(SpelledString(value: "attributes", spelling: layout.next()))
                raw(
                    [
                        #"{"title":"x","n":-1.5e3,"ok":true,"none":null}"#, #"{}"#,
                        #"{"nested":{"a":[1,{"b":"c"}],"d":"\u00e9"}}"#, #"{"name":"\"id\"","id-like":"1"}"#,
                    ][Int.random(in: 0...3, using: &layout)])
            case 4:
                key(SpelledString(value: "links", spelling: layout.next()))
                raw(#"{"self":"https://example.com/r"}"#)
            default:
                key(SpelledString(value: "meta", spelling: layout.next()))
                raw(#"{"rev":1}"#)
            }
        }
        close("}")
        return start
    }

    private mutating func relationship(_ relationship: ModelRelationship, layout: inout SplitMix64) {
        key(SpelledString(value: relationship.name, spelling: layout.next()))
        open("{")
        var wroteMember = false
        if layout.chance(15) {
            raw(#""links":{"related":"https://example.com/related"}"#)
            wroteMember = true
        }
        switch relationship.data {
        case .absent:
            if wroteMember { comma() }
            raw(#""meta":{"count":0}"#)
        case .null:
            if wroteMember { comma() }
            key(SpelledString(value: "data", spelling: layout.next()))
            raw("null")
        case .one(let identifier):
            if wroteMember { comma() }
            key(SpelledString(value: "data", spelling: layout.next()))
            self.identifier(identifier)
        case .many(let identifiers):
            if wroteMember { comma() }
            key(SpelledString(value: "data", spelling: layout.next()))
            open("[")
            for (i, identifier) in identifiers.enumerated() {
                if i > 0 { comma() }
                self.identifier(identifier)
            }
            close("]")
        }
        close("}")
    }

    mutating func identifier(_ identifier: ModelIdentifier) {
        var layout = SplitMix64(seed: identifier.layout)
        open("{")
        let idFirst = layout.chance(25)
        let meta = layout.chance(10)
        for n in 0..<2 {
            if n > 0 { comma() }
            if (n == 0) != idFirst {
                key(SpelledString(value: "type", spelling: layout.next()))
                string(identifier.type)
            } else {
                key(SpelledString(value: "id", spelling: layout.next()))
                string(identifier.id)
            }
        }
        if meta {
            comma()
            raw(#""meta":{"primary":true}"#)
        }
        close("}")
    }
}
