import JSONAPI

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

// Hand-written models for the `typed` target, covering what the decoder handles: string and
// integer ids, optional and `Field` attributes, dates, free-form `JSON`, nested structs, to-one
// and to-many relationships resolved eagerly, lazily or as linkage only, a cycle, and a union.
// The type names are in the fuzz dictionary, so mutated inputs reach these decoders.

struct FuzzArticle: Decodable, JSONAPIResource {
    static let resourceType = "articles"
    var id: String
    var title: String
    var rating: Double?
    var published: Bool?
    var createdAt: Date?
    var subtitle: Field<String>
    var extra: JSON?
    var tags: [String]?
    var dimensions: FuzzDimensions?
    var author: Lazy<FuzzPerson>?
    var comments: [FuzzComment]?
    var labels: [Identifier<FuzzTag>]?
    var contributor: FuzzContributor?
}

struct FuzzDimensions: Decodable {
    var width: Int
    var height: Int?
}

struct FuzzPerson: Decodable, JSONAPIResource {
    static let resourceType = "people"
    var id: String
    var name: String?
    var age: UInt8?
    // A cycle resolved eagerly: the decoder's relationship depth limit ends it.
    var friends: [FuzzPerson]?
    var articles: [Identifier<FuzzArticle>]?
}

struct FuzzComment: Decodable, JSONAPIResource {
    static let resourceType = "comments"
    var id: Int
    var body: String
    var author: FuzzPerson?
}

struct FuzzTag: Decodable, JSONAPIResource {
    static let resourceType = "tags"
    var id: String
    var label: String?
}

enum FuzzContributor: ResourceUnion {
    case person(FuzzPerson)
    case tag(FuzzTag)
    static let members: [ResourceUnionMember<FuzzContributor>] = [
        .member(FuzzPerson.self, FuzzContributor.person), .member(FuzzTag.self, FuzzContributor.tag),
    ]
}
