import Foundation
import JSONAPI
import Testing

@testable import JSONAPITestSupport

/// A linkage naming a resource of another type than the property's model, in every shape a
/// relationship can be read as (`Lazy`, `Related`, `Identifier`, arrays and optionals of them),
/// and a resource of another type in the primary data. Strict decoding fails at the linkage
/// (pointer, line and column of the resource identifier, not of the resource it names); lenient
/// decoding reports one problem there, and leaves the value out or reads it as absent.
@Suite("A resource of the wrong type")
struct WrongResourceTypeTests {
    /// The holders' shared shape, so one check serves them all.
    protocol Thing: Decodable, JSONAPIResource {
        var id: String { get }
    }

    struct Person: Decodable, JSONAPIResource {
        static let resourceType = "people"
        var id: String
        var name: String
    }

    struct ByLazy: Thing {
        static let resourceType = "things"
        var id: String
        var author: Lazy<Person>
    }

    struct ByOptionalLazy: Thing {
        static let resourceType = "things"
        var id: String
        var author: Lazy<Person>?
    }

    struct ByLazies: Thing {
        static let resourceType = "things"
        var id: String
        var authors: [Lazy<Person>]
    }

    struct ByRelated: Thing {
        static let resourceType = "things"
        var id: String
        var author: Related<Person, NoMeta, NoLinks>
    }

    struct ByRelatedOptional: Thing {
        static let resourceType = "things"
        var id: String
        var author: Related<Person?, NoMeta, NoLinks>
    }

    struct ByIdentifier: Thing {
        static let resourceType = "things"
        var id: String
        var author: Identifier<Person>
    }

    struct ByOptionalIdentifier: Thing {
        static let resourceType = "things"
        var id: String
        var author: Identifier<Person>?
    }

    struct ByIdentifiers: Thing {
        static let resourceType = "things"
        var id: String
        var authors: [Identifier<Person>]
    }

    /// Two things: the first's `author` is a robot (line 2), the second's a person (line 3);
    /// `authors` lists a person, then the robot.
    static let document = #"""
        {"data": [
        {"type": "things", "id": "1", "relationships": {"author": {"data": {"type": "robots", "id": "r1"}}, "authors": {"data": [{"type": "people", "id": "9"}, {"type": "robots", "id": "r1"}]}}},
        {"type": "things", "id": "2", "relationships": {"author": {"data": {"type": "people", "id": "9"}}, "authors": {"data": [{"type": "people", "id": "9"}]}}}],
         "included": [{"type": "robots", "id": "r1", "attributes": {"name": "T-1000"}},
                      {"type": "people", "id": "9", "attributes": {"name": "Dan"}}]}
        """#

    /// Column of the robot's linkage object in `author` (line 2) and in `authors` (its second
    /// element, line 2).
    static let authorColumn = 68
    static let authorsColumn = 153

    static var lenient: DecodingOptions {
        var options = DecodingOptions()
        options.tolerance = .lenient
        return options
    }

    /// What a model's relationship says of the robot.
    static let wrongResource = "expected a `people` resource (Person), found a `robots` resource (robots/r1)"
    /// What an identifier's says.
    static let wrongIdentifier = "expected an identifier of type `people` (Person), found `robots` (robots/r1)"

    /// Strict: the error is at `pointer` (line 2, `column`), a type mismatch naming both types.
    func expectStrictFailure<T: Decodable>(
        _ type: T.Type, pointer: String, column: Int, message: String = wrongResource,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let error = decodingError { try JSONAPIDecoder().decode(T.self, from: Self.document) }
        guard case .typeMismatch(_, let context)? = error else {
            Issue.record("expected typeMismatch, got \(String(describing: error))", sourceLocation: sourceLocation)
            return
        }
        let place = error?.jsonapiError
        #expect(place?.pointer == pointer, sourceLocation: sourceLocation)
        #expect(
            place?.line == 2 && place?.column == column, "\(String(describing: place))", sourceLocation: sourceLocation)
        #expect(place?.code == .typeMismatch, sourceLocation: sourceLocation)
        #expect(
            context.debugDescription == "\(message) at \(pointer) (line 2, column \(column))",
            "\(context.debugDescription)", sourceLocation: sourceLocation)
    }

    /// Lenient: one problem, a wrong resource type at `pointer`, with `action` at `codingPath`
    /// (`resource` the one left out or not set, by default the robot); `remaining` are the ids
    /// decoded.
    func expectOneProblem<T: Thing>(
        _ type: T.Type, pointer: String, column: Int, codingPath: String, action: DecodingProblem.Action,
        resource: ResourceIdentifier = ResourceIdentifier(type: "robots", id: "r1"), remaining: [String],
        message: String = wrongResource, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let report = try JSONAPIDecoder(options: Self.lenient).decodeReporting([T].self, from: Self.document)
        #expect(report.value.map(\.id) == remaining, sourceLocation: sourceLocation)
        #expect(report.problems.count == 1, "\(report.problems)", sourceLocation: sourceLocation)
        let problem = try #require(report.problems.first, sourceLocation: sourceLocation)
        #expect(problem.kind == .wrongResourceType, sourceLocation: sourceLocation)
        #expect(problem.action == action, sourceLocation: sourceLocation)
        #expect(problem.pointer == pointer, sourceLocation: sourceLocation)
        #expect(problem.line == 2 && problem.column == column, sourceLocation: sourceLocation)
        #expect(problem.codingPath == codingPath, sourceLocation: sourceLocation)
        #expect(problem.resource == resource, sourceLocation: sourceLocation)
        #expect(problem.message == message, sourceLocation: sourceLocation)
    }

    /// The thing left out when its required relationship cannot be read.
    static let firstThing = ResourceIdentifier(type: "things", id: "1")
    static let author = "/data/0/relationships/author/data"
    static let secondAuthor = "/data/0/relationships/authors/data/1"

    @Test func lazy() throws {
        expectStrictFailure([ByLazy].self, pointer: Self.author, column: Self.authorColumn)
        try expectOneProblem(
            ByLazy.self, pointer: Self.author, column: Self.authorColumn, codingPath: "[0]", action: .leftOut,
            resource: Self.firstThing, remaining: ["2"])
        try expectOneProblem(
            ByOptionalLazy.self, pointer: Self.author, column: Self.authorColumn, codingPath: "[0].author",
            action: .setToNil, remaining: ["1", "2"])
        expectStrictFailure([ByLazies].self, pointer: Self.secondAuthor, column: Self.authorsColumn)
        try expectOneProblem(
            ByLazies.self, pointer: Self.secondAuthor, column: Self.authorsColumn, codingPath: "[0].authors[1]",
            action: .leftOut, remaining: ["1", "2"])
    }

    @Test func related() throws {
        expectStrictFailure([ByRelated].self, pointer: Self.author, column: Self.authorColumn)
        try expectOneProblem(
            ByRelated.self, pointer: Self.author, column: Self.authorColumn, codingPath: "[0]", action: .leftOut,
            resource: Self.firstThing, remaining: ["2"])
        expectStrictFailure([ByRelatedOptional].self, pointer: Self.author, column: Self.authorColumn)
        try expectOneProblem(
            ByRelatedOptional.self, pointer: Self.author, column: Self.authorColumn, codingPath: "[0].author",
            action: .setToNil, remaining: ["1", "2"])
    }

    @Test func identifier() throws {
        expectStrictFailure(
            [ByIdentifier].self, pointer: Self.author, column: Self.authorColumn, message: Self.wrongIdentifier)
        try expectOneProblem(
            ByIdentifier.self, pointer: Self.author, column: Self.authorColumn, codingPath: "[0]", action: .leftOut,
            resource: Self.firstThing, remaining: ["2"], message: Self.wrongIdentifier)
        try expectOneProblem(
            ByOptionalIdentifier.self, pointer: Self.author, column: Self.authorColumn, codingPath: "[0].author",
            action: .setToNil, remaining: ["1", "2"], message: Self.wrongIdentifier)
    }

    @Test func identifiers() throws {
        expectStrictFailure(
            [ByIdentifiers].self, pointer: Self.secondAuthor, column: Self.authorsColumn, message: Self.wrongIdentifier)
        try expectOneProblem(
            ByIdentifiers.self, pointer: Self.secondAuthor, column: Self.authorsColumn, codingPath: "[0].authors[1]",
            action: .leftOut, remaining: ["1", "2"], message: Self.wrongIdentifier)
    }

    @Test func primaryData() throws {
        let text = #"""
            {"data": [{"type": "people", "id": "9", "attributes": {"name": "Dan"}},
                      {"type": "robots", "id": "r1", "attributes": {"name": "T-1000"}}]}
            """#
        let error = decodingError { try JSONAPIDecoder().decode([Person].self, from: text) }
        guard case .typeMismatch(_, let context)? = error else {
            Issue.record("expected typeMismatch, got \(String(describing: error))")
            return
        }
        #expect(error?.jsonapiError?.pointer == "/data/1")
        #expect(error?.jsonapiError?.line == 2 && error?.jsonapiError?.column == 11)
        #expect(context.debugDescription.hasPrefix("expected a `people` resource (Person), found a `robots` resource"))

        let report = try JSONAPIDecoder(options: Self.lenient).decodeReporting([Person].self, from: text)
        #expect(report.value.map(\.id) == ["9"])
        #expect(report.problems.map(\.kind) == [.wrongResourceType])
        #expect(report.problems.map(\.action) == [.leftOut])
        #expect(report.problems.map(\.pointer) == ["/data/1"])
        #expect(report.problems.map(\.codingPath) == ["[1]"])
        #expect(report.problems.first?.line == 2 && report.problems.first?.column == 11)

        // The single primary resource has nowhere to recover: lenient decoding throws there too.
        let single = #"{"data": {"type": "robots", "id": "r1", "attributes": {"name": "T-1000"}}}"#
        let singleError = decodingError { try JSONAPIDecoder(options: Self.lenient).decode(Person.self, from: single) }
        #expect(singleError?.jsonapiError?.pointer == "/data")
    }
}
