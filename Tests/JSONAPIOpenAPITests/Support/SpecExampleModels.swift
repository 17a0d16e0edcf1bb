import Foundation
import JSONAPI

// Models of the resources in the JSON:API specification's examples (jsonapi.org, 1.0 and 1.1,
// and its examples page), declared as a user of the library would: the schemas generated from
// them must accept every example of its kind.

/// `people`: the 1.0 examples name the attributes in kebab case (`first-name`), 1.1 in camel case,
/// the examples page uses `name`, `age` and `gender`.
struct Person: Decodable, JSONAPIResource {
    static let resourceType = "people"
    var id: String
    var firstName: String?
    var lastName: String?
    var twitter: String?
    var name: String?
    var age: Int?
    var gender: String?
}

/// `comments`.
struct Comment: Decodable, JSONAPIResource {
    static let resourceType = "comments"
    var id: String
    var body: String
    var author: Identifier<Person>?
}

/// `tags`: only ever linked to.
struct Tag: Decodable, JSONAPIResource {
    static let resourceType = "tags"
    var id: String
    var name: String?
}

/// `articles`.
struct Article: Decodable, JSONAPIResource {
    static let resourceType = "articles"
    var id: String
    var title: String
    var body: String?
    var text: String?
    var created: Date?
    var updated: Date?
    var author: Identifier<Person>?
    var comments: [Identifier<Comment>]
    var tags: [Identifier<Tag>]
}

/// `photos`, created with a client-generated UUID in one example.
struct Photo: Decodable, JSONAPIResource {
    static let resourceType = "photos"
    var id: UUID
    var title: String
    var src: URL
    var photographer: Identifier<Person>?
}

// The official schema tests (jsonapi-tests) use a singular `article` with relationships to
// `status` and `tag` resources.

/// `article`, as the official schema tests write it.
struct TestArticle: Decodable, JSONAPIResource {
    static let resourceType = "article"
    var id: String
    var title: String?
    var something: Bool?
    var toOne: Identifier<TestStatus>?
    var toMany: [Identifier<TestTag>]
    var author: Identifier<Person>?
    var comments: [Identifier<Comment>]
}

/// `status`.
struct TestStatus: Decodable, JSONAPIResource {
    static let resourceType = "status"
    var id: String
}

/// `tag`.
struct TestTag: Decodable, JSONAPIResource {
    static let resourceType = "tag"
    var id: String
}

/// Every model above (computed: an array of metatypes is not `Sendable`, so it cannot be a global).
var specExampleModels: [any (JSONAPIResource & Decodable).Type] {
    [Article.self, Person.self, Comment.self, Tag.self, Photo.self, TestArticle.self, TestStatus.self, TestTag.self]
}
