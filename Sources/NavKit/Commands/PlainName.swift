/// Names that go anywhere unescaped (a URL, a file name, a log line): ASCII letters, digits, `-`
/// and `_`. App names and node ids are such names.
public enum PlainName {
    /// True when `text` is 1 to `maxBytes` letters, digits, `-` and `_`.
    public static func isValid(_ text: String, maxBytes: Int) -> Bool {
        (1...maxBytes).contains(text.utf8.count) && text.utf8.allSatisfy { byte in
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_")
        }
    }
}
