import Foundation
import JSONAPI
import JSONAPIOpenAPI
import OpenAPIKit
import Testing

/// The package root: this file is Tests/JSONAPIOpenAPITests/CorpusValidationTests.swift.
private let openAPIPackageRoot = URL(fileURLWithPath: #filePath).resolvingSymlinksInPath()
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

/// The shared corpus beside the package, when present.
private let sharedCorpus: URL? = {
    let corpus = openAPIPackageRoot.deletingLastPathComponent().appendingPathComponent("shared/corpus")
    return FileManager.default.fileExists(atPath: corpus.appendingPathComponent("README.md").path) ? corpus : nil
}()

/// The schemas generated for models of the specification's examples, checked by a JSON Schema
/// validator nobody here wrote (python-jsonschema, Draft 2020-12, through scripts/openapi-check)
/// against the shared corpus: every strict full document of the spec's INDEX.md files validates
/// against the schema of its kind (and against the official JSON:API 1.0 schema); the official
/// schema tests' invalid documents whose fault a schema can express are rejected at that fault;
/// and each valid document broken in one known way is rejected where it was broken.
@Suite(.enabled(if: sharedCorpus != nil, "needs ../shared/corpus"))
struct CorpusValidationTests {
    static let packageRoot = openAPIPackageRoot
    static let corpus = sharedCorpus

    /// A corpus document and the schema it is checked against.
    struct Case {
        var file: String
        var set: String
        var schema: String
        var valid: Bool
        var official: String? = nil
        var pointer: String? = nil

        var json: [String: Any] {
            var json: [String: Any] = [
                "file": file, "set": set, "schema": schema, "expect": valid ? "valid" : "invalid",
            ]
            if let official { json["official"] = official }
            if let pointer { json["pointer"] = pointer }
            return json
        }
    }

    /// The official 1.0 schema for each kind of document.
    enum Official {
        static let response = "schema.json"
        static let create = "schema_create_resource.json"
        static let update = "schema_update_resource.json"
        static let relationship = "schema_update_relationship.json"
    }

    /// The spec's strict full documents of one version folder, with their numbers in its
    /// INDEX.md: the top-level example, the compound document, then the rest in a row.
    static func specCases(folder: String, set: String, numbers: [Int]) -> [Case] {
        let rows: [(String, String, String)] = [
            ("document-top-level", "ArticleDocument", Official.response),
            ("document-compound-documents", "ArticleCollectionDocument", Official.response),
            ("fetching-resources-responses-200-resp-200", "ArticleCollectionDocument", Official.response),
            ("fetching-resources-responses-200-resp-200", "ArticleCollectionDocument", Official.response),
            ("fetching-resources-responses-200-resp-200", "ArticleDocument", Official.response),
            // GET /articles/1/author: the related resource, null when there is none.
            ("fetching-resources-responses-200-resp-200", "PersonDocument", Official.response),
            (
                "fetching-relationships-responses-200-resp-200", "ArticleAuthorRelationshipDocument",
                Official.response
            ),
            (
                "fetching-relationships-responses-200-resp-200", "ArticleAuthorRelationshipDocument",
                Official.response
            ),
            ("fetching-relationships-responses-200-resp-200", "ArticleTagsRelationshipDocument", Official.response),
            ("fetching-relationships-responses-200-resp-200", "ArticleTagsRelationshipDocument", Official.response),
            ("crud-creating-req-post", "PhotoCreateDocument", Official.create),
            ("crud-creating-client-ids-req-post", "PhotoCreateDocument", Official.create),
            ("crud-creating-responses-201-resp-201", "PhotoDocument", Official.response),
            ("crud-updating-req-patch", "ArticleUpdateDocument", Official.update),
            ("crud-updating-resource-attributes-req-patch", "ArticleUpdateDocument", Official.update),
            ("crud-updating-resource-relationships-req-patch", "ArticleUpdateDocument", Official.update),
            ("crud-updating-resource-relationships-req-patch", "ArticleUpdateDocument", Official.update),
            (
                "crud-updating-to-one-relationships-req-patch", "ArticleAuthorRelationshipDocument",
                Official.relationship
            ),
            (
                "crud-updating-to-one-relationships-req-patch", "ArticleAuthorRelationshipDocument",
                Official.relationship
            ),
            ("crud-updating-to-many-relationships-req-patch", "ArticleTagsRelationshipDocument", Official.relationship),
            ("crud-updating-to-many-relationships-req-patch", "ArticleTagsRelationshipDocument", Official.relationship),
            (
                "crud-updating-to-many-relationships-req-post", "ArticleCommentsRelationshipDocument",
                Official.relationship
            ),
            (
                "crud-updating-to-many-relationships-req-delete", "ArticleCommentsRelationshipDocument",
                Official.relationship
            ),
        ]
        return zip(numbers, rows).map { number, row in
            let name = String(number < 10 ? "0\(number)" : "\(number)") + "-" + row.0 + ".json"
            return Case(file: "jsonapi-spec/\(folder)/\(name)", set: set, schema: row.1, valid: true, official: row.2)
        }
    }

    /// The examples page: sparse fieldsets, pagination and error documents.
    static let siteCases: [Case] =
        [
            ("01-sparse-fieldsets-resp-200.json", "ArticleCollectionDocument"),
            ("02-sparse-fieldsets-resp-200.json", "ArticleCollectionDocument"),
            ("03-sparse-fieldsets-resp-200.json", "ArticleCollectionDocument"),
            ("04-pagination-resp-200.json", "ArticleCollectionDocument"),
            ("05-error-objects-basics-resp-422.json", JSONAPIComponents.errorDocumentName),
            ("06-error-objects-multiple-errors-resp-400.json", JSONAPIComponents.errorDocumentName),
            ("07-error-objects-multiple-errors-resp-422.json", JSONAPIComponents.errorDocumentName),
            ("08-error-objects-error-codes-resp-422.json", JSONAPIComponents.errorDocumentName),
            ("10-error-objects-source-usage-resp-422.json", JSONAPIComponents.errorDocumentName),
            ("11-error-objects-source-usage.json", JSONAPIComponents.errorDocumentName),
            ("12-error-objects-invalid-query-parameters-resp-400.json", JSONAPIComponents.errorDocumentName),
        ].map {
            Case(
                file: "jsonapi-spec/site-examples/" + $0.0, set: "camelCase", schema: $0.1, valid: true,
                official: Official.response)
        }

    /// The official schema tests' valid documents, with the schema of their kind.
    static let validTestCases: [Case] =
        [
            (
                "request-relationship-update--patch_relationship", "TestArticleToManyRelationshipDocument",
                Official.relationship
            ),
            ("request-resource-create--post_resource", "TestArticleCreateDocument", Official.create),
            (
                "request-resource-create--post_resource_with_client_generated_id", "TestArticleCreateDocument",
                Official.create
            ),
            ("request-resource-create--post_resource_with_relationships", "TestArticleCreateDocument", Official.create),
            ("request-resource-create--post_resource_without_attributes", "TestArticleCreateDocument", Official.create),
            ("request-resource-update--patch_resource", "TestArticleUpdateDocument", Official.update),
            (
                "request-resource-update--patch_resource_with_relationships", "TestArticleUpdateDocument",
                Official.update
            ),
            (
                "request-resource-update--patch_resource_without_attributes", "TestArticleUpdateDocument",
                Official.update
            ),
            ("response--with_failure-errors_and_meta", JSONAPIComponents.errorDocumentName, Official.response),
            ("response--with_failure-only_errors-one_error", JSONAPIComponents.errorDocumentName, Official.response),
            ("response--with_success-complete", "TestArticleCollectionDocument", Official.response),
            ("response--with_success-data_and_included-single_resource", "ArticleDocument", Official.response),
            ("response--with_success-data_and_meta", "TestArticleDocument", Official.response),
            ("response--with_success-data_is_null", "TestArticleDocument", Official.response),
            ("response--with_success-linkage-empty_to_many", "TestArticleDocument", Official.response),
            ("response--with_success-linkage-empty_to_one", "TestArticleDocument", Official.response),
            (
                "response--with_success-only_data-empty_resource_collection", "TestArticleCollectionDocument",
                Official.response
            ),
            ("response--with_success-only_data-no_resource_null", "TestArticleDocument", Official.response),
            (
                "response--with_success-only_data-resource_collection", "TestArticleCollectionDocument",
                Official.response
            ),
            (
                "response--with_success-only_data-resource_identifier_collection", "TestArticleCollectionDocument",
                Official.response
            ),
            ("response--with_success-only_data-single_resource", "TestArticleDocument", Official.response),
            ("response--with_success-only_data-single_resource_identifier", "TestArticleDocument", Official.response),
            (
                "response--with_success-only_data-single_resource_with_empty_attributes", "TestArticleDocument",
                Official.response
            ),
        ].map {
            Case(
                file: "jsonapi-tests/valid/jsonapi-schema-1.0--\($0.0).json", set: "camelCase", schema: $0.1,
                valid: true, official: $0.2)
        }

    /// The official schema tests' invalid documents whose fault a schema of ours can express,
    /// with the schema of their kind; the pointer of the fault comes from INDEX.tsv unless given.
    static let invalidTestCases: [Case] =
        [
            (
                "request-relationship-update--resource_identifier_must_have_id_member",
                "TestArticleToOneRelationshipDocument", nil
            ),
            ("request-resource-create--data_is_not_resource_object", "TestArticleCreateDocument", nil),
            ("request-resource-create--no_data_member", "TestArticleCreateDocument", nil),
            ("request-resource-create--relationship_with_bad_resource_identifier", "TestArticleCreateDocument", nil),
            ("request-resource-create--relationship_with_forbidden_name", "TestArticleCreateDocument", nil),
            ("request-resource-create--relationship_with_not_allowed_character", "TestArticleCreateDocument", nil),
            ("request-resource-create--relationship_without_data_member", "TestArticleCreateDocument", nil),
            ("request-resource-update--data_must_have_id_member", "TestArticleUpdateDocument", nil),
            ("response--attributes-attributes_member_not_valid", "TestArticleDocument", nil),
            ("response--attributes-attributes_must_not_have_id_member", "TestArticleDocument", nil),
            ("response--attributes-attributes_must_not_have_type_member", "TestArticleDocument", nil),
            ("response--data-data_can_not_be_a_string", "TestArticleDocument", nil),
            ("response--data-data_can_not_be_array_of_string", "TestArticleCollectionDocument", nil),
            ("response--errors-error_must_be_an_object", JSONAPIComponents.errorDocumentName, nil),
            ("response--errors-errors_must_be_an_array", JSONAPIComponents.errorDocumentName, nil),
            ("response--errors-invalid_error_objects", JSONAPIComponents.errorDocumentName, "/errors"),
            ("response--included-included_member_must_be_collection", "ArticleDocument", nil),
            ("response--included-included_resource_not_valid", "ArticleDocument", nil),
            ("response--invalid_multi", "TestArticleDocument", nil),
            ("response--jsonapi-jsonapi_with_not_allowed_members", "TestArticleDocument", nil),
            ("response--jsonapi-not_an_object", "TestArticleDocument", nil),
            ("response--jsonapi-version_is_not_a_string", "TestArticleDocument", nil),
            ("response--links-link_href_must_be_a_string", "TestArticleDocument", nil),
            ("response--links-link_must_be_string_or_object", "TestArticleDocument", nil),
            ("response--links-links_must_be_an_object", "TestArticleDocument", nil),
            ("response--relationships-link_name_not_allowed", "TestArticleDocument", nil),
            ("response--relationships-linkage_must_be_object", "TestArticleDocument", nil),
            ("response--relationships-links_not_valid", "TestArticleDocument", nil),
            ("response--relationships-relationship_must_not_be_empty", "TestArticleDocument", nil),
            ("response--relationships-relationship_must_not_be_named_id", "TestArticleDocument", nil),
            ("response--relationships-relationship_must_not_be_named_type", "TestArticleDocument", nil),
            ("response--relationships-relationship_must_not_have_additional_properties", "TestArticleDocument", nil),
            ("response--relationships-relationship_name_is_not_valid", "TestArticleDocument", nil),
            ("response--relationships-relationships_is_not_an_object", "TestArticleDocument", nil),
            ("response--relationships-meta_not_valid", "TestArticleDocument", nil),
            ("response--relationships-to_one_linkage_not_valid", "TestArticleDocument", nil),
            ("response--resource-id_must_be_string", "TestArticleDocument", nil),
            ("response--resource-relationship_named_id", "TestArticleDocument", nil),
            ("response--resource-relationship_named_type", "TestArticleDocument", nil),
            ("response--resource-resource_must_have_id_member", "TestArticleDocument", nil),
            ("response--resource-resource_must_have_type_member", "TestArticleDocument", nil),
            ("response--resource-type_must_be_string", "TestArticleDocument", nil),
            ("response--resource-type_must_not_be_empty", "TestArticleDocument", nil),
            ("response--resource-type_value_is_not_valid", "TestArticleDocument", nil),
            ("response--resource-with_additional_properties", "TestArticleDocument", nil),
            ("response--resource_identifier-id_must_be_string", "TestArticleDocument", nil),
            ("response--resource_identifier-resource_must_have_id_member", "TestArticleDocument", nil),
            ("response--resource_identifier-resource_must_have_type_member", "TestArticleDocument", nil),
            ("response--resource_identifier-type_must_be_string", "TestArticleDocument", nil),
            ("response--resource_identifier-type_must_not_be_empty", "TestArticleDocument", nil),
            ("response--resource_identifier-type_value_is_not_valid", "TestArticleDocument", nil),
            ("response--resource_identifier-with_additional_properties", "TestArticleDocument", nil),
            ("response--top-level-data_and_errors_must_not_coexist", "TestArticleDocument", nil),
            ("response--top-level-included_must_not_be_alone", "TestArticleDocument", nil),
            ("response--top-level-invalid_root", "TestArticleDocument", "/"),
            ("response--top-level-links_must_not_have_additional_properties", "TestArticleDocument", nil),
            ("response--top-level-no_mandatory_top_level_members", "TestArticleDocument", "/"),
            ("response--top-level-with_additional_properties", "TestArticleDocument", nil),
        ].map {
            Case(
                file: "jsonapi-tests/invalid/jsonapi-schema-1.0--\($0.0).json", set: "camelCase", schema: $0.1,
                valid: false, pointer: $0.2)
        }

    /// Corpus documents that are not a kind the components describe, or whose fault a JSON Schema
    /// cannot express, each with the reason.
    static let skipped: [(path: String, folder: Bool, reason: String)] = [
        (
            "jsonapi-spec/ext-atomic", true,
            "Atomic Operations documents (atomic:operations, atomic:results): an extension's documents, not a model's"
        ),
        (
            "jsonapi-tests/valid/jsonapi-schema-1.0--response--with_success-only_meta.json", false,
            "a meta-only document"
        ),
        (
            "jsonapi-tests/valid/jsonapi-schema-1.0--response--with_success-only_meta-empty_meta.json", false,
            "a meta-only document"
        ),
        (
            "jsonapi-tests/valid/jsonapi-schema-1.0--response--with_success-only_meta-meta_with_members.json", false,
            "a meta-only document"
        ),
        (
            "jsonapi-tests/valid/jsonapi-schema-1.0--response--with_success-linkage-to_one.json", false,
            "`comments` to one `people`: a model of its own, at odds with the other tests' to-many `comments`"
        ),
        (
            "jsonapi-tests/valid/jsonapi-schema-1.0--response--with_success-linkage-to_many.json", false,
            "`comments` of the singular type `comment`, at odds with the other tests' `comments`"
        ),
        (
            "jsonapi-tests/valid/jsonapi-schema-1.0--response--with_success-only_data-parallel_relationships.json",
            false, "`author` to many `people`, at odds with the other tests' to-one `author`"
        ),
        (
            "jsonapi-tests/invalid/jsonapi-schema-1.0--response--included-resource_included_twice.json", false,
            "(type, id) uniqueness: not expressible in JSON Schema"
        ),
        (
            "jsonapi-tests/invalid/jsonapi-schema-1.0--response--resource_collection-resource_included_twice.json",
            false, "(type, id) uniqueness: not expressible in JSON Schema"
        ),
        (
            "jsonapi-tests/invalid/jsonapi-schema-1.0--response--links-link_must_be_valid_uri.json", false,
            "URI syntax: `format` is an annotation in JSON Schema 2020-12, not asserted"
        ),
        (
            "jsonapi-tests/invalid/jsonapi-schema-1.0--response--jsonapi-meta_is_not_valid.json", false,
            "a meta-only document"
        ),
        (
            "jsonapi-tests/invalid/jsonapi-schema-1.0--response--meta-meta_must_be_an_object.json", false,
            "a meta-only document (a meta that is not an object is one of the mutants)"
        ),
        (
            "jsonapi-tests/invalid/jsonapi-schema-1.0--response--meta-meta_must_have_valid_members.json", false,
            "a meta-only document, and member names inside meta"
        ),
        (
            "jsonapi-tests/invalid/jsonapi-schema-1.0--response--relationships-to_many_linkage_not_valid.json", false,
            "`author` to many, at odds with the other tests' to-one `author`"
        ),
    ]

    /// The same models under the two member-name conventions of the examples: 1.0 writes
    /// `first-name`, 1.1 and the examples page `firstName`.
    static func componentSets() -> [String: OpenAPI.Components] {
        var kebab = JSONAPISchemaOptions()
        kebab.encoding.keyEncodingStrategy = .convertToKebabCase
        return [
            "kebabCase": JSONAPIComponents(models: specExampleModels, options: kebab).components,
            "camelCase": JSONAPIComponents(models: specExampleModels).components,
        ]
    }

    @Test func corpusDocumentsAgainstGeneratedSchemas() throws {
        let corpus = try #require(Self.corpus)
        let cases =
            Self.specCases(folder: "1.0", set: "kebabCase", numbers: [2, 6] + Array(11...31))
            + Self.specCases(folder: "1.1", set: "camelCase", numbers: [4, 8] + Array(12...32))
            + Self.siteCases + Self.validTestCases + Self.invalidTestCases

        var sets: [String: Any] = [:]
        for (name, components) in Self.componentSets() {
            sets[name] = try JSONSerialization.jsonObject(with: JSONEncoder().encode(components))
        }
        let manifest: [String: Any] = [
            "corpus": corpus.path,
            "componentSets": sets,
            "cases": cases.map(\.json),
            "skipped": Self.skipped.map { [$0.folder ? "folder" : "file": $0.path, "reason": $0.reason] },
        ]
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "jsonapi-openapi-check-\(ProcessInfo.processInfo.processIdentifier)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let manifestURL = directory.appendingPathComponent("manifest.json")
        let manifestData = try JSONSerialization.data(withJSONObject: manifest, options: [.sortedKeys])
        try manifestData.write(to: manifestURL)
        // JSONAPI_OPENAPI_MANIFEST=PATH keeps a copy, to run scripts/openapi-check by hand.
        if let keep = ProcessInfo.processInfo.environment["JSONAPI_OPENAPI_MANIFEST"] {
            try manifestData.write(to: URL(fileURLWithPath: keep))
        }

        let (status, output) = try Self.run(
            "python3", [Self.packageRoot.appendingPathComponent("scripts/openapi-check").path, manifestURL.path])
        print(output)
        for line in output.split(separator: "\n") where line.hasPrefix("FAIL ") {
            Issue.record(Testing.Comment(rawValue: String(line)))
        }
        #expect(status == 0, "scripts/openapi-check exited with \(status)")
        // Every case and every coverage check counted: nothing was silently left out.
        let summary = try #require(
            output.split(separator: "\n").last { $0.hasPrefix("openapi-check: ") && $0.hasSuffix(" failed") })
        #expect(summary.hasSuffix(", 0 failed"))
        let passed = summary.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
        #expect(passed >= cases.count + cases.filter(\.valid).count)
    }

    /// Runs `tool` found on PATH, returning its exit status and its output and error output.
    static func run(_ tool: String, _ arguments: [String]) throws -> (Int32, String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [tool] + arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }
}
