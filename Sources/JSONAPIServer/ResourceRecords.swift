import JSONAPI

/// Models as resource objects and back: the one place the service turns a typed model into the
/// members JSON:API writes (through `JSONAPIEncoder`'s resource objects, so attributes and
/// relationships are exactly what the encoder writes for the model, without JSON in between),
/// and a resource object into a model (through `JSONAPIDecoder`, with every problem listed at its
/// pointer).
package enum ResourceRecords {
    /// The resource objects of `models`, in order: attributes and linkage, no `included`.
    ///
    /// Every optional attribute is there, `null` when the model has none: synthesized `Encodable`
    /// leaves a nil out, and a client merging the resource into what it holds would read the
    /// absent member as unchanged, not as cleared.
    package static func records<Model: Codable & JSONAPIResource>(of models: [Model]) throws -> [JSONAPIResourceObject]
    {
        guard !models.isEmpty else { return [] }
        var options = EncodingOptions()
        options.includePaths = []
        let encoder = JSONAPIEncoder(options: options)
        var records: [JSONAPIResourceObject]
        if let objects = try encoder.resourceObjects(of: models) {
            records = objects
        } else {
            // What only the written form says (a model's own `links`): written and read back.
            records = try Document(parsing: try encoder.encode(models)).primaryResources.map(JSONAPIResourceObject.init)
        }
        let optional = optionalAttributes(of: Model.self)
        guard !optional.isEmpty else { return records }
        for index in records.indices {
            for name in optional where records[index].attributes[name] == nil {
                records[index].attributes[name] = .null
            }
        }
        return records
    }

    /// The optional attributes of each model type, from its shape, found once per type.
    private static let optionalAttributeNames = Locked<[ObjectIdentifier: [String]]>([:])

    static func optionalAttributes<Model: Decodable & JSONAPIResource>(of model: Model.Type) -> [String] {
        let key = ObjectIdentifier(model)
        if let names = optionalAttributeNames.withLock({ $0[key] }) { return names }
        let names = ResourceShape(of: model).attributes.filter(\.value.isOptional).map(\.name)
        optionalAttributeNames.withLock { $0[key] = names }
        return names
    }

    /// The resource object of `model`.
    package static func record<Model: Codable & JSONAPIResource>(of model: Model) throws -> JSONAPIResourceObject {
        guard let record = try records(of: [model]).first else {
            throw JSONAPIHTTPError([
                JSONAPIErrorObject(status: 500, title: "Internal Server Error", detail: "a model encoded no resource")
            ])
        }
        return record
    }

    /// The model `record` describes, decoded as if it were the primary data of a request body,
    /// so that every problem is reported at the pointer the request used (`/data/attributes/x`).
    package static func model<Model: Decodable & JSONAPIResource>(
        _ type: Model.Type, from record: JSONAPIResourceObject
    ) throws -> Model {
        var writer = JSONWriter()
        writer.beginObject()
        writer.key("data")
        record.write(to: &writer)
        writer.endObject()
        return try JSONAPIDecoder().decodeListingProblems(Model.self, from: try writer.finish())
    }
}
