import OpenAPIKit

extension JSONSchema {
    /// The schema as a required (or optional) property of an object: OpenAPIKit lists an
    /// object's `required` members from its properties' flags.
    func requiring(_ required: Bool) -> JSONSchema {
        required ? requiredSchemaObject() : optionalSchemaObject()
    }
}
