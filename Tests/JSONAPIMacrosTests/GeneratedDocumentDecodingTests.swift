import Foundation
import JSONAPI
import JSONAPIGenerator
import JSONAPIGeneratorModels
import Testing

/// The benchmark models decode generated documents, value for value what `JSONSerialization`
/// sees in the same bytes (so the timing comparison compares equal work on correct results).
@Suite("Decoding generated documents")
struct GeneratedDocumentDecodingTests {
    @Test func modelsMatchTheBytes() throws {
        let bytes = CompoundDocumentGenerator(resources: 400, seed: 5).generate()
        let oracle = try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])
        let document = try Document(parsing: bytes)
        let articles = try document.primary(as: GeneratedModels.Article.self).decodeAll()
        let data = try #require(oracle["data"] as? [[String: Any]])
        #expect(articles.count == data.count)
        #expect(articles.count > 10)
        for (article, expected) in zip(articles, data) {
            let attributes = try #require(expected["attributes"] as? [String: Any])
            let relationships = try #require(expected["relationships"] as? [String: Any])
            #expect(article.id == expected["id"] as? String)
            #expect(article.title == attributes["title"] as? String)
            #expect(article.body == attributes["body"] as? String)
            #expect(article.slug == attributes["slug"] as? String)
            #expect(article.wordCount == attributes["wordCount"] as? Int)
            #expect(article.rating == (attributes["rating"] as? NSNumber)?.doubleValue)
            #expect(article.published == attributes["published"] as? Bool)
            #expect(article.subtitle == attributes["subtitle"] as? String)
            #expect(article.keywords == attributes["keywords"] as? [String])
            let metrics = try #require(attributes["metrics"] as? [String: Any])
            #expect(article.metrics.views == metrics["views"] as? Int)
            #expect(article.metrics.ratio == (metrics["ratio"] as? NSNumber)?.doubleValue)
            #expect(article.createdAt == attributes["createdAt"] as? String)
            let author = try #require(relationships["author"] as? [String: Any])
            #expect(article.author.id == (author["data"] as? [String: Any])?["id"] as? String)
            #expect(article.authorLinks?.related == (author["links"] as? [String: Any])?["related"] as? String)
            #expect(article.authorLinks?.selfLink == (author["links"] as? [String: Any])?["self"] as? String)
            let comments = try #require(relationships["comments"] as? [String: Any])
            #expect(
                article.comments.map(\.id) == (comments["data"] as? [[String: Any]])?.map { $0["id"] as? String ?? "" })
            #expect(article.commentsMeta?.count == (comments["meta"] as? [String: Any])?["count"] as? Int)
            #expect(article.commentsLinks?.related == (comments["links"] as? [String: Any])?["related"] as? String)
            let tags = try #require(relationships["tags"] as? [String: Any])
            #expect(article.tags.map(\.id) == (tags["data"] as? [[String: Any]])?.map { $0["id"] as? String ?? "" })
            #expect(article.links?.selfLink == (expected["links"] as? [String: Any])?["self"] as? String)
            let meta = expected["meta"] as? [String: Any]
            #expect(article.meta?.revision == meta?["revision"] as? Int)
        }

        let included = try #require(oracle["included"] as? [[String: Any]])
        let people = try document.included(of: GeneratedModels.Person.self).decodeAll()
        let expectedPeople = included.filter { $0["type"] as? String == "people" }
        #expect(people.count == expectedPeople.count)
        for (person, expected) in zip(people, expectedPeople) {
            let attributes = try #require(expected["attributes"] as? [String: Any])
            #expect(person.id == expected["id"] as? String)
            #expect(person.firstName == attributes["firstName"] as? String)
            #expect(person.bio == attributes["bio"] as? String)
            #expect(person.twitter == attributes["twitter"] as? String)
            #expect(person.age == attributes["age"] as? Int)
            let articles = ((expected["relationships"] as? [String: Any])?["articles"] as? [String: Any])?["data"]
            #expect(person.articles?.map(\.id) == (articles as? [[String: Any]])?.map { $0["id"] as? String ?? "" })
        }
        let comments = try document.included(of: GeneratedModels.Comment.self).decodeAll()
        let expectedComments = included.filter { $0["type"] as? String == "comments" }
        #expect(
            comments.map(\.body)
                == expectedComments.map { ($0["attributes"] as? [String: Any])?["body"] as? String ?? "" })
        #expect(
            comments.map(\.likes)
                == expectedComments.map { ($0["attributes"] as? [String: Any])?["likes"] as? Int ?? -1 })
        let tags = try document.included(of: GeneratedModels.Tag.self).decodeAll()
        #expect(
            tags.map(\.color)
                == included.filter { $0["type"] as? String == "tags" }.map {
                    ($0["attributes"] as? [String: Any])?["color"] as? String ?? ""
                })

        // The same through one union over `included`.
        struct Whole: Decodable {
            var included: [GeneratedModels.Included]
        }
        let whole = try JSONAPIDecoder().decode(Whole.self, from: document)
        #expect(whole.included.count == included.count)
    }

    @Test func resolvedGraphWithCycles() throws {
        let bytes = CompoundDocumentGenerator(resources: 300, seed: 8).generate()
        let document = try Document(parsing: bytes)
        let articles = try document.primary(as: GeneratedGraph.Article.self).decodeAll()
        #expect(!articles.isEmpty)
        for article in articles {
            #expect(article.comments.allSatisfy { $0.likes >= 0 })
            #expect(article.author.email.contains("@example.com"))
        }
        // People link back to their articles; Lazy makes the cycle walkable.
        let person = try #require(articles.map(\.author).first { $0.articles?.isEmpty == false })
        let back = try #require(try person.articles?.first?.resolve())
        #expect(back.author.id == person.id)
    }
}
