extension JSONValue {
    /// The value of `text` when the whole text is plain JSON, read by a scan of its bytes
    /// (`ByteScanner.plainJSONValue()`, with whitespace around it); nil for any other text, which
    /// `parse(_:)` leaves to the full reader.
    public init?(scanning text: String) {
        guard let value = ByteScanner.scan(text, { scanner in
            let value = scanner.plainJSONValue()
            scanner.skipWhitespace()
            return value
        }) else { return nil }
        self = value
    }
}
