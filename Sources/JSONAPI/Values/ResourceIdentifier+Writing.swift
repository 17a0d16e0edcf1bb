extension ResourceIdentifier: JSONWritable {
    /// Writes the resource identifier object: `type`, then `id` and/or `lid` (whichever are set).
    ///
    /// ```swift
    /// print(try ResourceIdentifier(type: "people", id: "9").jsonString())  // {"type":"people","id":"9"}
    /// ```
    public func write(to writer: inout JSONWriter, sortingKeys: Bool) {
        // Written directly, no list of members: sorted, the keys come as `id`, `lid`, `type`.
        writer.beginObject()
        if !sortingKeys {
            writer.key("type")
            writer.string(type)
        }
        if let id {
            writer.key("id")
            writer.string(id)
        }
        if let lid {
            writer.key("lid")
            writer.string(lid)
        }
        if sortingKeys {
            writer.key("type")
            writer.string(type)
        }
        writer.endObject()
    }
}
