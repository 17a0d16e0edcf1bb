extension String {
    /// `bytes` as a string when they are valid UTF-8, else nil.
    ///
    /// What `String(validating:as:)` does, which Apple platforms have only from macOS 15, iOS 18,
    /// tvOS 18, watchOS 11 and visionOS 2. Decoding repairs each invalid sequence with U+FFFD,
    /// so the text reads back as the same bytes exactly when they were valid.
    package init?(validatingUTF8Bytes bytes: some Collection<UInt8>) {
        let text = String(decoding: bytes, as: UTF8.self)
        guard text.utf8.elementsEqual(bytes) else { return nil }
        self = text
    }
}
