extension ResourceIdentifier: JSONWritable {
    /// Writes the resource identifier object: `type`, then `id` and/or `lid` (whichever are set).
    ///
    /// ```swift
    /// print(try ResourceIdentifier(type: "people", id: "9").jsonString())  // {"type":"people","id":"9"}
    /// ```
    public func write(to writer: inout JSONWriter, sortingKeys: Bool) {
        var members: [(String, (inout JSONWriter) -> Void)] = [("type", { $0.string(type) })]
        if let id { members.append(("id", { $0.string(id) })) }
        if let lid { members.append(("lid", { $0.string(lid) })) }
        writer.writeObject(members, sortingKeys: sortingKeys)
    }
}
