/// Writing the fields of frame patches, shared by the v1 and v2 frame encoders.
extension JSONWriter {
    /// Writes `,"key":value` for an optional field when it changed: its value, or `null` when it
    /// went away (patches only; a new node simply leaves it out).
    static func appendField<T: Equatable>(
        _ key: String, _ value: T?, _ old: T?, _ isPatch: Bool, _ out: inout [UInt8], _ write: (T, inout [UInt8]) -> Void
    ) {
        guard value != old else { return }
        if let value {
            appendKey(key, &out)
            write(value, &out)
        } else if isPatch {
            appendKey(key, &out)
            out.append(contentsOf: "null".utf8)
        }
    }

    /// Writes `,"key":`.
    static func appendKey(_ key: String, _ out: inout [UInt8]) {
        out.append(UInt8(ascii: ","))
        out.append(UInt8(ascii: "\""))
        out.append(contentsOf: key.utf8)
        out.append(contentsOf: "\":".utf8)
    }
}
