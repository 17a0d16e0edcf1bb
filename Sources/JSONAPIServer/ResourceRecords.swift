import JSONAPI

/// Models as resource objects and back: the one place the service turns a typed model into the
/// members JSON:API writes (through `JSONAPIEncoder`, so attributes and relationships are
/// exactly what the encoder writes for the model), and a resource object into a model (through
/// `JSONAPIDecoder`, with every problem listed at its pointer).
enum ResourceRecords {
    /// The resource objects of `models`, in order: attributes and linkage, no `included`.
    static func records<Model: Encodable & JSONAPIResource>(of models: [Model]) throws -> [JSONAPIResourceObject] {
        guard !models.isEmpty else { return [] }
        var options = EncodingOptions()
        options.includePaths = []
        let bytes = try JSONAPIEncoder(options: options).encode(models)
        let document = try Document(parsing: bytes)
        return document.primaryResources.map(JSONAPIResourceObject.init)
    }

    /// The resource object of `model`.
    static func record<Model: Encodable & JSONAPIResource>(of model: Model) throws -> JSONAPIResourceObject {
        guard let record = try records(of: [model]).first else {
            throw JSONAPIHTTPError([
                JSONAPIErrorObject(status: 500, title: "Internal Server Error", detail: "a model encoded no resource")
            ])
        }
        return record
    }

    /// The model `record` describes, decoded as if it were the primary data of a request body,
    /// so that every problem is reported at the pointer the request used (`/data/attributes/x`).
    static func model<Model: Decodable & JSONAPIResource>(
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
