import JSONAPI
import Testing

@testable import JSONAPITestSupport

@Suite("Encoding: JSON:API media type parsing and formatting")
struct EncodingMediaTypeTests {
    static let atomic = "https://jsonapi.org/ext/atomic"
    static let version = "https://jsonapi.org/ext/version"
    static let timestamps = "https://example.com/resource-timestamps"

    @Test func documentationExamples() throws {
        let type = JSONAPIMediaType(parsing: #"Application/VND.API+JSON; EXT="https://jsonapi.org/ext/atomic""#)
        #expect(type?.extensions == ["https://jsonapi.org/ext/atomic"])
        #expect(
            JSONAPIMediaType(profiles: ["https://example.com/timestamps"]).description
                == #"application/vnd.api+json; profile="https://example.com/timestamps""#)
        let accept = #"application/vnd.api+json; ext="https://jsonapi.org/ext/atomic", */*;q=0.1"#
        let result = JSONAPINegotiation.negotiateAccept(
            accept, supportedExtensions: ["https://jsonapi.org/ext/atomic"], supportedProfiles: [])
        #expect(try result.get().description == #"application/vnd.api+json; ext="https://jsonapi.org/ext/atomic""#)
    }

    @Test func parsesThePlainMediaType() throws {
        let type = try #require(JSONAPIMediaType(parsing: "application/vnd.api+json"))
        #expect(type == JSONAPIMediaType())
        #expect(type.extensions.isEmpty)
        #expect(type.profiles.isEmpty)
        #expect(type.hasOnlyAllowedParameters)
        #expect(type.hasNoParameters)
        #expect(type.description == "application/vnd.api+json")
        #expect(JSONAPIMediaType.base == "application/vnd.api+json")
    }

    @Test(arguments: [
        "APPLICATION/VND.API+JSON", "Application/Vnd.Api+Json", "  application/vnd.api+json  ",
        "\tapplication/vnd.api+json;", "application/vnd.api+json ; ",
    ])
    func typeIsCaseInsensitiveAndWhitespaceTolerant(_ text: String) {
        #expect(JSONAPIMediaType(parsing: text) == JSONAPIMediaType())
    }

    @Test func quotedParametersWithSpacesSplitIntoURIs() throws {
        let type = try #require(
            JSONAPIMediaType(
                parsing:
                    #"application/vnd.api+json; ext="\#(Self.atomic) \#(Self.version)"; profile="\#(Self.timestamps)""#)
        )
        #expect(type.extensions == [Self.atomic, Self.version])
        #expect(type.profiles == [Self.timestamps])
        #expect(type.otherParameters.isEmpty)
        #expect(type.hasOnlyAllowedParameters)
        #expect(!type.hasNoParameters)
    }

    @Test func parameterNamesAreCaseInsensitiveButValuesAreNot() throws {
        let type = try #require(
            JSONAPIMediaType(parsing: #"application/vnd.api+json;EXT="https://A.example/X";Profile="https://b""#))
        #expect(type.extensions == ["https://A.example/X"])
        #expect(type.profiles == ["https://b"])
        let charset = try #require(JSONAPIMediaType(parsing: "application/vnd.api+json; CharSet=UTF-8"))
        #expect(charset.otherParameters == [JSONAPIMediaType.Parameter(name: "charset", value: "UTF-8")])
        #expect(!charset.hasOnlyAllowedParameters)
    }

    @Test func separatorsAndSpacingAreLenient() throws {
        let tight = try #require(JSONAPIMediaType(parsing: #"application/vnd.api+json;ext="a  b ";profile=c"#))
        #expect(tight.extensions == ["a", "b"])
        #expect(tight.profiles == ["c"])
        let spaced = try #require(
            JSONAPIMediaType(parsing: #"application/vnd.api+json ;  ext = "a" ;; profile = "c" "#))
        #expect(spaced == JSONAPIMediaType(extensions: ["a"], profiles: ["c"]))
        // A bare (unquoted) URI is accepted although `:` and `/` are not token characters.
        let bare = try #require(JSONAPIMediaType(parsing: "application/vnd.api+json; ext=\(Self.atomic)"))
        #expect(bare.extensions == [Self.atomic])
        let empty = try #require(JSONAPIMediaType(parsing: #"application/vnd.api+json; ext="""#))
        #expect(empty.extensions.isEmpty)
    }

    @Test func quotedStringEscapes() throws {
        let type = try #require(JSONAPIMediaType(parsing: #"application/vnd.api+json; foo="a \"quoted\" \\ value;,""#))
        #expect(type.otherParameters == [.init(name: "foo", value: #"a "quoted" \ value;,"#)])
        #expect(type.description == #"application/vnd.api+json; foo="a \"quoted\" \\ value;,""#)
        #expect(JSONAPIMediaType(parsing: type.description) == type)
    }

    @Test(arguments: [
        "application/json", "application/vnd.api+jsonx", "application/vnd.api", "text/vnd.api+json", "application/*",
        "*/*", "vnd.api+json", "", "   ", "application/ vnd.api+json", "application/vnd.api+json, application/json",
    ])
    func otherMediaTypesAreNotParsed(_ text: String) {
        #expect(JSONAPIMediaType(parsing: text) == nil)
    }

    @Test(arguments: [
        #"application/vnd.api+json; ext="unterminated"#, #"application/vnd.api+json; ext="#,
        #"application/vnd.api+json; ext"#, #"application/vnd.api+json; =x"#,
        #"application/vnd.api+json; ext="a"; ext="b""#, #"application/vnd.api+json; EXT="a"; ext="b""#,
        #"application/vnd.api+json; ext="a" junk"#, #"application/vnd.api+json junk"#,
    ])
    func malformedParametersAreNotParsed(_ text: String) {
        #expect(JSONAPIMediaType(parsing: text) == nil)
    }

    @Test func descriptionFormatsAndRoundTrips() throws {
        let cases: [(JSONAPIMediaType, String)] = [
            (JSONAPIMediaType(), "application/vnd.api+json"),
            (
                JSONAPIMediaType(extensions: [Self.atomic]),
                #"application/vnd.api+json; ext="https://jsonapi.org/ext/atomic""#
            ),
            (
                JSONAPIMediaType(extensions: [Self.atomic, Self.version], profiles: [Self.timestamps]),
                #"application/vnd.api+json; ext="https://jsonapi.org/ext/atomic https://jsonapi.org/ext/version"; profile="https://example.com/resource-timestamps""#
            ),
            (JSONAPIMediaType(profiles: ["a", "b"]), #"application/vnd.api+json; profile="a b""#),
            (
                JSONAPIMediaType(otherParameters: [
                    .init(name: "charset", value: "utf-8"), .init(name: "x", value: "a b"),
                ]),
                #"application/vnd.api+json; charset=utf-8; x="a b""#
            ),
        ]
        for (type, text) in cases {
            #expect(type.description == text)
            #expect(JSONAPIMediaType(parsing: text) == type)
            #expect(JSONAPIMediaType(parsing: text.uppercased())?.extensions == type.extensions.map { $0.uppercased() })
        }
    }

    @Test func unsupportedExtensions() {
        let type = JSONAPIMediaType(extensions: [Self.atomic, "https://x", Self.version])
        #expect(type.unsupportedExtensions([Self.atomic]) == ["https://x", Self.version])
        #expect(type.unsupportedExtensions([Self.atomic, "https://x", Self.version]).isEmpty)
    }
}

@Suite("Encoding: JSON:API content negotiation")
struct EncodingNegotiationTests {
    static let atomic = EncodingMediaTypeTests.atomic
    static let version = EncodingMediaTypeTests.version
    static let timestamps = EncodingMediaTypeTests.timestamps
    static let supportedExtensions: Set<String> = [atomic]
    static let supportedProfiles: Set<String> = [timestamps]

    static func contentType(
        _ header: String?, _ version: JSONAPINegotiation.SpecVersion = .v1_1
    ) -> Result<JSONAPIMediaType?, NegotiationFailure> {
        JSONAPINegotiation.checkContentType(header, supportedExtensions: supportedExtensions, version: version)
    }

    static func accept(
        _ header: String?, _ version: JSONAPINegotiation.SpecVersion = .v1_1
    ) -> Result<JSONAPIMediaType, NegotiationFailure> {
        JSONAPINegotiation.negotiateAccept(
            header, supportedExtensions: supportedExtensions, supportedProfiles: supportedProfiles, version: version)
    }

    static func status<T>(_ result: Result<T, NegotiationFailure>) -> Int? {
        if case .failure(let failure) = result { return failure.status }
        return nil
    }

    // MARK: Content-Type

    @Test func contentTypeAbsentOrOtherIsNotJudged() {
        for header: String? in [nil, "", "  ", "application/json", "text/plain; charset=utf-8", "garbage"] {
            #expect(Self.contentType(header) == .success(nil), "\(header ?? "nil")")
        }
    }

    @Test func contentTypePlainIsAccepted() {
        #expect(Self.contentType("application/vnd.api+json") == .success(JSONAPIMediaType()))
        #expect(Self.contentType("Application/Vnd.Api+JSON") == .success(JSONAPIMediaType()))
        #expect(Self.contentType("application/vnd.api+json", .v1_0) == .success(JSONAPIMediaType()))
    }

    @Test func contentTypeWithOtherParametersIs415() throws {
        for header in [
            "application/vnd.api+json; charset=utf-8", "application/vnd.api+json; version=1.1",
            #"application/vnd.api+json; ext="\#(Self.atomic)"; q=0.5"#, "application/vnd.api+json; Charset=\"utf-8\"",
        ] {
            let result = Self.contentType(header)
            #expect(Self.status(result) == 415, "\(header)")
        }
        guard case .failure(let failure) = Self.contentType("application/vnd.api+json; charset=utf-8") else {
            Issue.record("expected a failure")
            return
        }
        #expect(failure.title == "Unsupported Media Type")
        #expect(failure.reason.contains("charset"))
        #expect(failure.description.hasPrefix("415 Unsupported Media Type: "))
    }

    @Test func contentTypeWithSupportedExtensionIsAccepted() {
        #expect(
            Self.contentType(#"application/vnd.api+json; ext="\#(Self.atomic)""#)
                == .success(JSONAPIMediaType(extensions: [Self.atomic])))
    }

    @Test func contentTypeWithUnsupportedExtensionIs415() {
        #expect(Self.status(Self.contentType(#"application/vnd.api+json; ext="\#(Self.version)""#)) == 415)
        // Every extension must be supported.
        #expect(
            Self.status(Self.contentType(#"application/vnd.api+json; ext="\#(Self.atomic) \#(Self.version)""#)) == 415)
        // Extension URIs compare case-sensitively.
        #expect(Self.status(Self.contentType(#"application/vnd.api+json; ext="\#(Self.atomic.uppercased())""#)) == 415)
    }

    @Test func contentTypeProfilesAreKeptEvenWhenUnknown() {
        #expect(
            Self.contentType(#"application/vnd.api+json; profile="https://unknown \#(Self.timestamps)""#)
                == .success(JSONAPIMediaType(profiles: ["https://unknown", Self.timestamps])))
    }

    @Test func contentTypeMalformedParametersAre415() {
        for header in [
            #"application/vnd.api+json; ext="unterminated"#, #"application/vnd.api+json; ext"#,
            #"application/vnd.api+json; ext="a"; ext="b""#, "application/vnd.api+json, application/json",
        ] {
            #expect(Self.status(Self.contentType(header)) == 415, "\(header)")
        }
    }

    @Test func contentTypeUnderJSONAPI10RejectsEveryParameter() {
        for header in [
            #"application/vnd.api+json; ext="\#(Self.atomic)""#,
            #"application/vnd.api+json; profile="\#(Self.timestamps)""#,
            "application/vnd.api+json; charset=utf-8",
        ] {
            #expect(Self.status(Self.contentType(header, .v1_0)) == 415, "\(header)")
        }
    }

    // MARK: Accept

    @Test func acceptAbsentOrWildcardGivesThePlainType() {
        for header: String? in [
            nil, "", "   ", "*/*", "application/*", "text/html, */*;q=0.1", "application/*;q=0.5",
            "application/json;q=0.9, */*;q=0.1", "application/*, */*;q=0",
        ] {
            #expect(Self.accept(header) == .success(JSONAPIMediaType()), "\(header ?? "nil")")
        }
    }

    @Test func acceptPlainJSONAPI() {
        #expect(Self.accept("application/vnd.api+json") == .success(JSONAPIMediaType()))
        #expect(Self.accept("text/html, APPLICATION/VND.API+JSON;q=0.3") == .success(JSONAPIMediaType()))
    }

    @Test func acceptWithoutJSONAPIOrWildcardIs406() throws {
        for header in [
            "application/json", "text/html, application/xml;q=0.9", "*/*;q=0", "application/*;q=0, */*", "nonsense",
        ] {
            #expect(Self.status(Self.accept(header)) == 406, "\(header)")
        }
        guard case .failure(let failure) = Self.accept("application/json") else { return }
        #expect(failure.title == "Not Acceptable")
    }

    @Test func acceptAllInstancesWithForbiddenParametersIs406() {
        #expect(Self.status(Self.accept("application/vnd.api+json; charset=utf-8")) == 406)
        #expect(
            Self.status(Self.accept("application/vnd.api+json; charset=utf-8, application/vnd.api+json; v=2")) == 406)
        // The JSON:API instances decide even when a wildcard is listed too.
        #expect(Self.status(Self.accept("application/vnd.api+json; charset=utf-8, */*")) == 406)
        // Malformed JSON:API instances count as unusable.
        #expect(Self.status(Self.accept(#"application/vnd.api+json; ext="a"; ext="b""#)) == 406)
    }

    @Test func acceptForbiddenInstancesAreIgnoredWhenAnotherIsUsable() {
        #expect(
            Self.accept("application/vnd.api+json; charset=utf-8, application/vnd.api+json")
                == .success(JSONAPIMediaType()))
        #expect(
            Self.accept(
                #"application/vnd.api+json; charset=utf-8; ext="\#(Self.atomic)", application/vnd.api+json; ext="\#(Self.atomic)""#
            )
                == .success(JSONAPIMediaType(extensions: [Self.atomic])))
    }

    @Test func acceptWithSupportedExtensionAppliesIt() {
        #expect(
            Self.accept(#"application/vnd.api+json; ext="\#(Self.atomic)""#)
                == .success(JSONAPIMediaType(extensions: [Self.atomic])))
        if case .success(let type) = Self.accept(#"application/vnd.api+json;ext="\#(Self.atomic)""#) {
            #expect(type.description == #"application/vnd.api+json; ext="https://jsonapi.org/ext/atomic""#)
        }
    }

    @Test func acceptEveryInstanceWithAnUnsupportedExtensionIs406() {
        #expect(Self.status(Self.accept(#"application/vnd.api+json; ext="\#(Self.version)""#)) == 406)
        #expect(Self.status(Self.accept(#"application/vnd.api+json; ext="\#(Self.atomic) \#(Self.version)""#)) == 406)
        #expect(
            Self.status(
                Self.accept(
                    #"application/vnd.api+json; ext="\#(Self.version)", application/vnd.api+json; ext="https://x""#))
                == 406)
        // One usable instance is enough.
        #expect(
            Self.accept(#"application/vnd.api+json; ext="\#(Self.version)", application/vnd.api+json"#)
                == .success(JSONAPIMediaType()))
        #expect(
            Self.accept(
                #"application/vnd.api+json; ext="\#(Self.version)", application/vnd.api+json; ext="\#(Self.atomic)""#)
                == .success(JSONAPIMediaType(extensions: [Self.atomic])))
    }

    @Test func acceptProfilesAreAppliedWhenSupportedAndOtherwiseIgnored() {
        #expect(
            Self.accept(#"application/vnd.api+json; profile="https://unknown \#(Self.timestamps)""#)
                == .success(JSONAPIMediaType(profiles: [Self.timestamps])))
        #expect(Self.accept(#"application/vnd.api+json; profile="https://unknown""#) == .success(JSONAPIMediaType()))
        #expect(
            Self.accept(
                #"application/vnd.api+json; ext="\#(Self.atomic)"; profile="\#(Self.timestamps) \#(Self.timestamps)""#)
                == .success(JSONAPIMediaType(extensions: [Self.atomic], profiles: [Self.timestamps])))
    }

    @Test func acceptQualityValues() {
        // q=0 excludes, and an excluded JSON:API instance is not rescued by a wildcard.
        #expect(Self.status(Self.accept("application/vnd.api+json;q=0")) == 406)
        #expect(Self.status(Self.accept("application/vnd.api+json; q=0.000, */*")) == 406)
        // The highest q wins, whatever the order.
        #expect(
            Self.accept(#"application/vnd.api+json;q=0.5, application/vnd.api+json;ext="\#(Self.atomic)""#)
                == .success(JSONAPIMediaType(extensions: [Self.atomic])))
        #expect(
            Self.accept(#"application/vnd.api+json;ext="\#(Self.atomic)";q=0.4, application/vnd.api+json;q=0.9"#)
                == .success(JSONAPIMediaType()))
        #expect(
            Self.accept(#"application/vnd.api+json;q=0.9, application/vnd.api+json;ext="\#(Self.atomic)";q=0.95"#)
                == .success(JSONAPIMediaType(extensions: [Self.atomic])))
        // Equal q (including none): the first listed.
        #expect(
            Self.accept(#"application/vnd.api+json;ext="\#(Self.atomic)", application/vnd.api+json"#)
                == .success(JSONAPIMediaType(extensions: [Self.atomic])))
        #expect(
            Self.accept(#"application/vnd.api+json, application/vnd.api+json;ext="\#(Self.atomic)""#)
                == .success(JSONAPIMediaType()))
        #expect(
            Self.accept(#"application/vnd.api+json;q=1.0, application/vnd.api+json;ext="\#(Self.atomic)""#)
                == .success(JSONAPIMediaType()))
        // q before other parameters still counts as the weight.
        #expect(
            Self.accept(#"application/vnd.api+json;q=0.2;ext="\#(Self.atomic)", application/vnd.api+json;q=0.1"#)
                == .success(JSONAPIMediaType(extensions: [Self.atomic])))
    }

    @Test func acceptInvalidQualityValuesSkipTheRange() {
        for q in ["2", "1.5", "0.1234", "abc", "-1", ".5", "1.001"] {
            #expect(Self.status(Self.accept("application/vnd.api+json;q=\(q)")) == 406, "q=\(q)")
            #expect(
                Self.accept("application/vnd.api+json;q=\(q), application/vnd.api+json") == .success(JSONAPIMediaType())
            )
        }
        for q in ["1", "1.", "1.000", "0.5", "0.001"] {
            #expect(Self.accept("application/vnd.api+json;q=\(q)") == .success(JSONAPIMediaType()), "q=\(q)")
        }
        // Valid spellings of zero.
        for q in ["0", "0.", "0.000"] {
            #expect(Self.status(Self.accept("application/vnd.api+json;q=\(q)")) == 406, "q=\(q)")
        }
    }

    @Test func acceptQuotedCommasDoNotSplit() {
        let header = #"application/vnd.api+json; profile="https://a.example/x,y \#(Self.timestamps)", text/html"#
        #expect(Self.accept(header) == .success(JSONAPIMediaType(profiles: [Self.timestamps])))
        let escaped = #"text/html; x="a\",b", application/vnd.api+json; ext="\#(Self.atomic)""#
        #expect(Self.accept(escaped) == .success(JSONAPIMediaType(extensions: [Self.atomic])))
        let odd = #"application/vnd.api+json; profile="x,y""#
        #expect(Self.accept(odd) == .success(JSONAPIMediaType()))
    }

    @Test func acceptMalformedElementsAreSkipped() {
        #expect(Self.accept(", ,application/vnd.api+json,,") == .success(JSONAPIMediaType()))
        #expect(Self.accept("garbage, application/vnd.api+json") == .success(JSONAPIMediaType()))
        #expect(Self.accept("*/json, application/vnd.api+json") == .success(JSONAPIMediaType()))
    }

    @Test func acceptUnderJSONAPI10() {
        #expect(Self.accept("application/vnd.api+json", .v1_0) == .success(JSONAPIMediaType()))
        #expect(Self.accept("application/vnd.api+json;q=0.8", .v1_0) == .success(JSONAPIMediaType()))
        #expect(Self.status(Self.accept(#"application/vnd.api+json; ext="\#(Self.atomic)""#, .v1_0)) == 406)
        #expect(Self.status(Self.accept(#"application/vnd.api+json; profile="\#(Self.timestamps)""#, .v1_0)) == 406)
        #expect(
            Self.accept(#"application/vnd.api+json; ext="\#(Self.atomic)", application/vnd.api+json"#, .v1_0)
                == .success(JSONAPIMediaType()))
        #expect(Self.accept("*/*", .v1_0) == .success(JSONAPIMediaType()))
    }

    @Test func acceptsAnotherMediaType() {
        let json = { (header: String?) in JSONAPINegotiation.accepts(header, type: "application", subtype: "json") }
        #expect(json(nil) && json("") && json(" \t"))
        #expect(json("application/json") && json("Application/JSON; charset=utf-8") && json("application/*"))
        #expect(json("*/*") && json("text/html, application/json;q=0.1"))
        #expect(!json("application/vnd.api+json") && !json("text/*") && !json("application/json;q=0"))
        // The most specific range decides, whatever the order or the weights of the others.
        #expect(!json("*/*, application/json;q=0") && !json("application/json;q=0, application/*"))
        #expect(json("*/*;q=0, application/json") && json("application/*;q=0, application/json;q=0.001"))
        #expect(!json("application/*;q=0, */*"))
        // A quoted comma does not split a range.
        #expect(json(#"text/plain; a="x, application/json;q=0", application/json"#))

        let configuration = JSONAPIConfiguration()
        #expect(configuration.allowsAnswer(of: "application/json", accept: "application/json"))
        #expect(!configuration.allowsAnswer(of: "application/vnd.api+json", accept: "application/json"))
        #expect(!configuration.allowsAnswer(of: nil, accept: "application/json"))
        #expect(!configuration.allowsAnswer(of: "application/json", accept: "text/html"))
    }

    /// Against a model of RFC 9110 §12.5.1 written the long way: every range that matches,
    /// ranked by specificity, the first of the highest weight among the most specific.
    @Test func acceptsAgreesWithAModel() {
        let candidates = ["application/json", "application/*", "*/*", "text/html", "text/*", "application/xml"]
        let weights = ["", ";q=0", ";q=0.5", ";q=1", ";q=0.000", ";level=1"]
        var random = SplitMix64(seed: 11)
        for _ in 0..<2_000 {
            let count = Int(random.next() % 4)
            var ranges: [(type: String, weight: String)] = []
            for _ in 0..<count {
                ranges.append(
                    (
                        candidates[Int(random.next() % UInt64(candidates.count))],
                        weights[Int(random.next() % UInt64(weights.count))]
                    ))
            }
            let header = ranges.map { $0.type + $0.weight }.joined(separator: ", ")
            func quality(_ weight: String) -> Double { weight.hasPrefix(";q=") ? Double(weight.dropFirst(3)) ?? 1 : 1 }
            var expected = ranges.isEmpty
            for pattern in ["application/json", "application/*", "*/*"] {
                let matching = ranges.filter { $0.type == pattern }
                if !matching.isEmpty {
                    expected = (matching.map { quality($0.weight) }.max() ?? 0) > 0
                    break
                }
            }
            #expect(JSONAPINegotiation.accepts(header, type: "application", subtype: "json") == expected, "\(header)")
        }
    }

    @Test func failureValues() {
        let failure = NegotiationFailure.notAcceptable("why")
        #expect(failure == NegotiationFailure(status: 406, reason: "why"))
        #expect(failure.description == "406 Not Acceptable: why")
        #expect(NegotiationFailure.unsupportedMediaType("x").status == 415)
    }
}
