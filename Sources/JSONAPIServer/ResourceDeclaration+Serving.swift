import JSONAPI

/// A declared resource as the service uses it: records in, records out, whatever the model.
protocol ServedResource: Sendable {
    var type: String { get }
    var shape: ResourceShape { get }
    var fields: ResourceFields { get }
    var operations: ResourceOperations { get }
    var clientIDs: ClientIDPolicy { get }
    var pagination: QueryRules.Pagination { get }
    var streamsCollections: Bool { get }
    var requiresIfMatch: Bool { get }
    /// The limits its validation states (``ResourceValidation/bounds``), by member name.
    var bounds: [String: ValueBounds] { get }
    /// Whether the data source refuses U+0000 in text (``ResourceDataSource/refusesNullCharacterInText``).
    var refusesNullCharacterInText: Bool { get }
    /// The declaration's data source.
    var dataSource: any ResourceDataSource { get }

    func decide(_ action: ResourceAction, _ request: ResourceRequest) async throws -> AccessDecision
    /// Whether the declaration has an authorization rule (without one, everything is allowed).
    var isAuthorized: Bool { get }
    /// The data source's version as it is now (``ResourceDataSource/currentVersion()``).
    func currentVersion() async throws -> UInt64?
    /// Runs `body` as one unit of the data source (``ResourceDataSource/transaction(_:)``).
    func transaction<Result: Sendable>(_ body: @escaping @Sendable () async throws -> Result) async throws -> Result
    func list(_ query: ResourceListQuery) async throws -> ResourceList<JSONAPIResourceObject>
    /// Every record `query` matches, as the source delivers them.
    func streamRecords(_ query: ResourceListQuery) -> any AsyncSequence<JSONAPIResourceObject, any Error>
    func records(ids: [String]) async throws -> [JSONAPIResourceObject]
    func record(id: String) async throws -> JSONAPIResourceObject?
    /// The record of `id` that a write is about to replace, held against other writers until the
    /// transaction ends (``ResourceRecordSource/recordForUpdate(id:)``).
    func recordForUpdate(id: String) async throws -> JSONAPIResourceObject?
    func makeID() async throws -> String
    /// Decodes, validates, runs the hooks and stores; `problems` are the request's own problems
    /// found before decoding, answered in the same 422 as the model's.
    func write(
        _ record: JSONAPIResourceObject, as write: ResourceWrite, problems: [JSONAPIErrorObject],
        request: ResourceRequest
    ) async throws -> JSONAPIResourceObject
    func delete(id: String, request: ResourceRequest) async throws -> Bool
    /// Stores `record` as it is, without hooks or checks: undoing a write.
    func restore(_ record: JSONAPIResourceObject) async throws
    /// Removes `id` without hooks: undoing a create.
    func remove(id: String) async throws -> Bool
}

extension ResourceDeclaration: ServedResource {
    var type: String { Model.resourceType }
    var bounds: [String: ValueBounds] { validation.bounds }
    var refusesNullCharacterInText: Bool { source.refusesNullCharacterInText }
    var dataSource: any ResourceDataSource { source }

    var isAuthorized: Bool { authorize != nil }

    func currentVersion() async throws -> UInt64? { try await source.currentVersion() }

    func transaction<Result: Sendable>(_ body: @escaping @Sendable () async throws -> Result) async throws -> Result {
        try await source.transaction(body)
    }

    /// The source's own resource objects, when it reads them without models.
    private var recordSource: (any ResourceRecordSource)? { source as? any ResourceRecordSource }

    func decide(_ action: ResourceAction, _ request: ResourceRequest) async throws -> AccessDecision {
        guard let authorize else { return .allow }
        return try await authorize(action, request)
    }

    func list(_ query: ResourceListQuery) async throws -> ResourceList<JSONAPIResourceObject> {
        if let recordSource { return try await recordSource.listRecords(query) }
        let page = try await source.list(query)
        return ResourceList(
            models: try ResourceRecords.records(of: page.models), total: page.total, hasNextPage: page.hasNextPage,
            hasPreviousPage: page.hasPreviousPage)
    }

    func streamRecords(_ query: ResourceListQuery) -> any AsyncSequence<JSONAPIResourceObject, any Error> {
        if let recordSource { return recordSource.streamRecords(query) }
        return source.stream(query).map { model in try ResourceRecords.record(of: model) }
    }

    func records(ids: [String]) async throws -> [JSONAPIResourceObject] {
        guard !ids.isEmpty else { return [] }
        if let recordSource { return try await recordSource.records(ids: ids) }
        return try ResourceRecords.records(of: try await source.fetch(ids: ids))
    }

    func recordForUpdate(id: String) async throws -> JSONAPIResourceObject? {
        if let recordSource { return try await recordSource.recordForUpdate(id: id) }
        return try await record(id: id)
    }

    func record(id: String) async throws -> JSONAPIResourceObject? {
        if let recordSource { return try await recordSource.records(ids: [id]).first }
        guard let model = try await source.fetch(id: id) else { return nil }
        return try ResourceRecords.record(of: model)
    }

    func makeID() async throws -> String { try await source.makeID() }

    func write(
        _ record: JSONAPIResourceObject, as write: ResourceWrite, problems: [JSONAPIErrorObject],
        request: ResourceRequest
    ) async throws -> JSONAPIResourceObject {
        var model: Model
        do {
            model = try ResourceRecords.model(Model.self, from: record)
        } catch let failure as any JSONAPIErrorConvertible {
            throw JSONAPIHTTPError(problems + failure.jsonapiErrors)
        }
        let all = problems + validation.problems(of: model)
        guard all.isEmpty else { throw JSONAPIHTTPError(all) }
        if let beforeWrite { try await beforeWrite(&model, write, request) }
        let stored = write == .create ? try await source.create(model) : try await source.update(model)
        if let afterWrite { try await afterWrite(stored, write, request) }
        return try ResourceRecords.record(of: stored)
    }

    func delete(id: String, request: ResourceRequest) async throws -> Bool {
        guard var model = try await source.fetch(id: id) else { return false }
        if let beforeWrite { try await beforeWrite(&model, .delete, request) }
        guard try await source.delete(id: id) else { return false }
        if let afterWrite { try await afterWrite(model, .delete, request) }
        return true
    }

    func restore(_ record: JSONAPIResourceObject) async throws {
        let model = try ResourceRecords.model(Model.self, from: record)
        if try await source.fetch(id: record.id ?? "") != nil {
            _ = try await source.update(model)
        } else {
            _ = try await source.create(model)
        }
    }

    func remove(id: String) async throws -> Bool { try await source.delete(id: id) }
}
