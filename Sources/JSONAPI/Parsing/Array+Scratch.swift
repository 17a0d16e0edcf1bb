extension Array {
    /// Empties a scratch list the builder refills for every resource, keeping its storage.
    ///
    /// `removeAll(keepingCapacity: true)` goes through the general range replacement even for
    /// one element, once per resource and list; these lists usually hold a handful of plain
    /// values, which `removeLast()` drops one by one for less.
    @inline(__always)
    mutating func clearScratch() {
        guard count <= 8 else {
            removeAll(keepingCapacity: true)
            return
        }
        while !isEmpty { removeLast() }
    }
}
