import JSONAPI

/// The member names `JSONAPIEncoder` writes for coding-key names under a key strategy.
///
/// The names are not converted here: a probe resource whose attribute holds an object with one
/// member per name is encoded with the strategy and read back, so the schemas name members
/// exactly as the encoder does (snake case, kebab case, or a custom strategy) and the rule lives
/// in the encoder alone. One encode per model.
struct MemberNames {
    private var converted: [String: String] = [:]

    /// The names of `keys` under `options`' key strategy; a key the probe could not convert keeps
    /// its name.
    init(_ keys: some Sequence<String>, options: EncodingOptions) {
        let keys = Array(Set(keys)).sorted()
        if case .useDefaultKeys = options.keyEncodingStrategy { return }
        guard !keys.isEmpty else { return }
        var probeOptions = options
        probeOptions.prettyPrinted = false
        guard let bytes = try? JSONAPIEncoder(options: probeOptions).encode(Probe(keys: keys)),
            let document = try? Document(parsing: bytes),
            let members = document.primaryResources.first?.attributes[Probe.holder]?.members
        else { return }
        for (name, value) in members {
            if let index = value.int64Value.flatMap({ Int(exactly: $0) }), keys.indices.contains(index) {
                converted[keys[index]] = name
            }
        }
    }

    /// The member name for the coding-key name `key`.
    subscript(key: String) -> String { converted[key] ?? key }

    /// A resource with one attribute, an object whose members are the keys, each holding its
    /// index so that the encoded names can be matched back.
    private struct Probe: Encodable, JSONAPIResource {
        static let resourceType = "probes"
        static let holder = "holder"
        let keys: [String]

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Key.self)
            try container.encode("1", forKey: Key("id"))
            try container.encode(Indexed(keys: keys), forKey: Key(Self.holder))
        }

        private struct Indexed: Encodable {
            let keys: [String]
            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: Key.self)
                for (index, key) in keys.enumerated() { try container.encode(index, forKey: Key(key)) }
            }
        }
    }

    private struct Key: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }
        init(_ name: String) { stringValue = name }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }
}
