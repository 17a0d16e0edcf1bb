import Foundation
import JSONAPI
import Testing

@testable import JSONAPITestSupport

@Suite("Decoding strategies and values")
struct StrategyDecodingTests {
    struct Person: Decodable, Equatable, JSONAPIResource {
        static let resourceType = "people"
        var id: String
        var firstName: String
        var lastName: String
        var homeAddress: Address?
        var favoriteTag: Tag?
    }

    struct Address: Decodable, Equatable {
        var streetName: String
        var zipCode: String
    }

    struct Tag: Decodable, Equatable, JSONAPIResource {
        static let resourceType = "tags"
        var id: String
        var tagName: String
    }

    @Test func snakeCase() throws {
        let text = #"""
            {"data":{"type":"people","id":"1",
              "attributes":{"first_name":"Ada","last_name":"Lovelace","home_address":{"street_name":"St James","zip_code":"W1"}},
              "relationships":{"favorite_tag":{"data":{"type":"tags","id":"t"}}}},
             "included":[{"type":"tags","id":"t","attributes":{"tag_name":"math"}}]}
            """#
        let person = try decode(Person.self, text) { $0.keyDecodingStrategy = .convertFromSnakeCase }
        #expect(person.firstName == "Ada")
        #expect(person.homeAddress == Address(streetName: "St James", zipCode: "W1"))
        #expect(person.favoriteTag?.tagName == "math")
        // Without the strategy the keys are missing.
        #expect(throws: DecodingError.self) { try decode(Person.self, text) }
    }

    @Test func kebabCase() throws {
        let text = #"""
            {"data":{"type":"people","id":"1",
              "attributes":{"first-name":"Ada","last-name":"Lovelace","home-address":{"street-name":"St James","zip-code":"W1"}},
              "relationships":{"favorite-tag":{"data":{"type":"tags","id":"t"}}}},
             "included":[{"type":"tags","id":"t","attributes":{"tag-name":"math"}}]}
            """#
        let person = try decode(Person.self, text) { $0.keyDecodingStrategy = .convertFromKebabCase }
        #expect(person.lastName == "Lovelace")
        #expect(person.homeAddress?.zipCode == "W1")
        #expect(person.favoriteTag?.tagName == "math")
    }

    @Test func customKeyStrategy() throws {
        let text = #"{"data":{"type":"people","id":"1","attributes":{"FIRSTNAME":"Ada","LASTNAME":"L"}}}"#
        struct Short: Decodable, JSONAPIResource {
            static let resourceType = "people"
            var id: String
            var firstname: String
            var lastname: String
        }
        let person = try decode(Short.self, text) { decoder in
            decoder.keyDecodingStrategy = .custom { path in
                AnyKey(path.last?.stringValue.lowercased() ?? "")
            }
        }
        #expect(person.firstname == "Ada")
    }

    struct AnyKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(_ string: String) { stringValue = string }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    /// The byte-level snake/kebab matcher agrees with `JSONDecoder`'s conversion.
    @Test(arguments: [
        "first_name", "_leading", "trailing_", "__both__", "a__b", "URL_value", "already_camelCase",
        "x", "_", "ÉCOLE_name", "two_words_here", "with_1_digit", "ALLCAPS", "a_b_",
    ])
    func snakeMatchesFoundation(_ key: String) throws {
        let json = Data(#"{"\#(key)":1}"#.utf8)
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        let converted = try decoder.decode([String: Int].self, from: json)
        struct Probe: Decodable {
            var keys: [String]
            init(from decoder: any Decoder) throws {
                keys = try decoder.container(keyedBy: AnyKey.self).allKeys.map(\.stringValue)
            }
        }
        let foundation = try decoder.decode(Probe.self, from: json).keys
        _ = converted
        // Some of these names break the specification's member-name rules: parse leniently.
        let document = try parse(
            #"{"data":{"type":"x","id":"1","attributes":{"\#(key)":1}}}"#,
            options: ParsingOptions(kind: .response, lenient: true))
        struct Resource: Decodable, JSONAPIResource {
            static let resourceType = "x"
            var found: [String]
            init(from decoder: any Decoder) throws {
                let container = try decoder.container(keyedBy: AnyKey.self)
                found = container.allKeys.map(\.stringValue).filter { $0 != "id" && $0 != "type" }
                for name in found {
                    #expect(container.contains(AnyKey(name)), "\(name) must match its own member")
                    #expect(try container.decode(Int.self, forKey: AnyKey(name)) == 1)
                }
            }
        }
        var options = DecodingOptions()
        options.keyDecodingStrategy = .convertFromSnakeCase
        let ours = try document.decode(Resource.self, options: options).found
        #expect(ours == foundation)
    }

    struct Event: Decodable, JSONAPIResource {
        static let resourceType = "events"
        var id: String
        var at: Date
    }

    @Test(arguments: [
        ("2015-05-22T14:56:29Z", 1_432_306_589.0),
        ("2015-05-22T14:56:29.123Z", 1_432_306_589.123),
        ("2015-05-22T14:56:29.5+02:00", 1_432_299_389.5),
        ("2015-05-22T14:56:29-0500", 1_432_324_589.0),
        ("2000-02-29T00:00:00z", 951_782_400.0),
        ("1969-12-31T23:59:59Z", -1.0),
    ])
    func iso8601Dates(_ text: String, _ seconds: Double) throws {
        let event = try decode(Event.self, #"{"data":{"type":"events","id":"1","attributes":{"at":"\#(text)"}}}"#)
        #expect(abs(event.at.timeIntervalSince1970 - seconds) < 0.0005)
        // Foundation agrees on every case it can parse.
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions =
            text.contains(".") ? [.withInternetDateTime, .withFractionalSeconds] : [.withInternetDateTime]
        if let reference = formatter.date(from: text) {
            #expect(abs(reference.timeIntervalSince1970 - event.at.timeIntervalSince1970) < 0.0005)
        }
    }

    @Test(arguments: ["2015-13-22T14:56:29Z", "2015-02-30T00:00:00Z", "2015-05-22", "yesterday", "2015-05-22T14:56:29"])
    func badDates(_ text: String) throws {
        let error = decodingError {
            try decode(Event.self, #"{"data":{"type":"events","id":"1","attributes":{"at":"\#(text)"}}}"#)
        }
        #expect(error?.debugDescription.contains("expected an ISO 8601 date") == true)
        #expect(error?.jsonapiError?.pointer == "/data/attributes/at")
    }

    @Test func numericDateStrategies() throws {
        let seconds = try decode(Event.self, #"{"data":{"type":"events","id":"1","attributes":{"at":1432306589.5}}}"#) {
            $0.dateDecodingStrategy = .secondsSince1970
        }
        #expect(seconds.at.timeIntervalSince1970 == 1_432_306_589.5)
        let milliseconds = try decode(
            Event.self, #"{"data":{"type":"events","id":"1","attributes":{"at":1432306589500}}}"#
        ) {
            $0.dateDecodingStrategy = .millisecondsSince1970
        }
        #expect(milliseconds.at.timeIntervalSince1970 == 1_432_306_589.5)
        let deferred = try decode(Event.self, #"{"data":{"type":"events","id":"1","attributes":{"at":10}}}"#) {
            $0.dateDecodingStrategy = .deferredToDate
        }
        #expect(deferred.at == Date(timeIntervalSinceReferenceDate: 10))
        let custom = try decode(Event.self, #"{"data":{"type":"events","id":"1","attributes":{"at":"day 3"}}}"#) {
            $0.dateDecodingStrategy = .custom { decoder in
                let text = try decoder.singleValueContainer().decode(String.self)
                return Date(timeIntervalSince1970: Double(text.dropFirst(4)).map { $0 * 86_400 } ?? 0)
            }
        }
        #expect(custom.at.timeIntervalSince1970 == 3 * 86_400)
    }

    struct Values: Decodable, JSONAPIResource {
        static let resourceType = "values"
        var id: String
        var blob: Data
        var price: Decimal
        var priceText: Decimal
        var site: URL
        var token: UUID
        var small: Int8
        var big: UInt64
        var negative: Int64
        var ratio: Float
        var flag: Bool
        var scores: [Double]
        var matrix: [[Int]]
        var labels: [String: String]
        var nested: [String: [Address]]
        var maybe: [Int?]
        var set: Set<String>
    }

    @Test func valueTypes() throws {
        let text = #"""
            {"data":{"type":"values","id":"1","attributes":{
              "blob":"aGVsbG8=","price":19.99,"priceText":"0.1","site":"https://example.com/a?b=c",
              "token":"E621E1F8-C36C-495A-93FC-0C247A3E6E5F","small":-128,"big":18446744073709551615,
              "negative":-9223372036854775808,"ratio":0.25,"flag":true,"scores":[1,2.5,-3e2],
              "matrix":[[1,2],[],[3]],"labels":{"a":"x","b_c":"y"},
              "nested":{"home":[{"streetName":"S","zipCode":"Z"}]},"maybe":[1,null,3],"set":["p","q","p"]}}}
            """#
        let values = try decode(Values.self, text) { $0.keyDecodingStrategy = .convertFromSnakeCase }
        #expect(values.blob == Data("hello".utf8))
        #expect(values.price == Decimal(string: "19.99"))
        #expect(values.priceText == Decimal(string: "0.1"))
        #expect(values.site.host == "example.com")
        #expect(values.token == UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F"))
        #expect(values.small == -128)
        #expect(values.big == .max)
        #expect(values.negative == .min)
        #expect(values.ratio == 0.25)
        #expect(values.flag)
        #expect(values.scores == [1, 2.5, -300])
        #expect(values.matrix == [[1, 2], [], [3]])
        // Dictionary keys are kept as they are, whatever the key strategy (as in JSONDecoder).
        #expect(values.labels == ["a": "x", "b_c": "y"])
        #expect(values.nested["home"] == [Address(streetName: "S", zipCode: "Z")])
        #expect(values.maybe == [1, nil, 3])
        #expect(values.set == ["p", "q"])
    }

    @Test func decimalIsExact() throws {
        struct Money: Decodable, JSONAPIResource {
            static let resourceType = "money"
            var id: String
            var amount: Decimal
        }
        let money = try decode(
            Money.self, #"{"data":{"type":"money","id":"1","attributes":{"amount":0.30000000000000000001}}}"#)
        #expect(money.amount == Decimal(string: "0.30000000000000000001"))
        #expect(money.amount != Decimal(0.3))
    }

    @Test func dataStrategies() throws {
        struct Blob: Decodable, JSONAPIResource {
            static let resourceType = "blobs"
            var id: String
            var bytes: Data
        }
        let deferred = try decode(Blob.self, #"{"data":{"type":"blobs","id":"1","attributes":{"bytes":[1,2,255]}}}"#) {
            $0.dataDecodingStrategy = .deferredToData
        }
        #expect(deferred.bytes == Data([1, 2, 255]))
        let custom = try decode(Blob.self, #"{"data":{"type":"blobs","id":"1","attributes":{"bytes":"ff00"}}}"#) {
            $0.dataDecodingStrategy = .custom { decoder in
                let hex = try decoder.singleValueContainer().decode(String.self)
                var data = Data()
                var index = hex.startIndex
                while index < hex.endIndex {
                    let next = hex.index(index, offsetBy: 2)
                    data.append(UInt8(hex[index..<next], radix: 16) ?? 0)
                    index = next
                }
                return data
            }
        }
        #expect(custom.bytes == Data([0xFF, 0]))
        let bad = decodingError {
            try decode(Blob.self, #"{"data":{"type":"blobs","id":"1","attributes":{"bytes":"%%%"}}}"#)
        }
        #expect(bad?.debugDescription.contains("base64") == true)
    }

    struct Numbers: Decodable, JSONAPIResource {
        static let resourceType = "n"
        var id: String
        var byte: UInt8
    }

    @Test(arguments: [
        ("256", "does not fit in UInt8"), ("-1", "does not fit in UInt8"), ("1.5", "not an integer"),
        ("\"1\"", "found a string"),
    ])
    func integerProblems(_ value: String, _ message: String) throws {
        let error = decodingError {
            try decode(Numbers.self, #"{"data":{"type":"n","id":"1","attributes":{"byte":\#(value)}}}"#)
        }
        #expect(error?.debugDescription.contains(message) == true, "\(String(describing: error?.debugDescription))")
        #expect(error?.jsonapiError?.pointer == "/data/attributes/byte")
    }

    @Test func integralDoublesBecomeIntegers() throws {
        #expect(try decode(Numbers.self, #"{"data":{"type":"n","id":"1","attributes":{"byte":2e2}}}"#).byte == 200)
    }

    @Test func stringsWithEscapesAndUnicode() throws {
        struct Text: Decodable, JSONAPIResource {
            static let resourceType = "t"
            var id: String
            var body: String
            var words: [String]
        }
        let text = try decode(
            Text.self,
            #"{"data":{"type":"t","id":"1","attributes":{"body":"a\"b\\c\n\u00e9\ud83d\ude00 — ok","words":["x\ty","ü"]}}}"#
        )
        #expect(text.body == "a\"b\\c\né😀 — ok")
        #expect(text.words == ["x\ty", "ü"])
    }

    @Test func escapedMemberNames() throws {
        struct Named: Decodable, JSONAPIResource {
            static let resourceType = "t"
            var id: String
            var title: String
        }
        let named = try decode(Named.self, #"{"data":{"type":"t","id":"1","attributes":{"t\u0069tle":"yes"}}}"#)
        #expect(named.title == "yes")
    }

    @Test func userInfoReachesInitFromDecoder() throws {
        let key = try #require(CodingUserInfoKey(rawValue: "prefix"))
        struct Prefixed: Decodable, JSONAPIResource {
            static let resourceType = "t"
            var name: String
            init(from decoder: any Decoder) throws {
                let prefix = CodingUserInfoKey(rawValue: "prefix").flatMap { decoder.userInfo[$0] as? String } ?? ""
                enum Keys: String, CodingKey { case name }
                name = prefix + (try decoder.container(keyedBy: Keys.self).decode(String.self, forKey: .name))
            }
        }
        let value = try decode(Prefixed.self, #"{"data":{"type":"t","id":"1","attributes":{"name":"x"}}}"#) {
            $0.userInfo = [key: "pre-"]
        }
        #expect(value.name == "pre-x")
    }
}
