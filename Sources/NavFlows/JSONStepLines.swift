/// Finds where each step of a JSON flow file starts: JSON decoders give no positions, and a
/// failure report that says `flow.json:42` saves the reader a search.
///
/// Stateless; any thread.
enum JSONStepLines {
    /// The line (from 1) of each element of the top-level object's `steps` array, in order; empty
    /// when the text has no such array. Only called on text that parsed as JSON.
    static func lines(in text: String) -> [Int] {
        var lines: [Int] = []
        var line = 1
        var depth = 0
        var inString = false
        var escaped = false
        var string: [UInt8] = []
        var lastKey: [UInt8]?
        var stepsDepth: Int?
        var expectingElement = false
        let stepsKey = Array("steps".utf8)
        for byte in text.utf8 {
            if byte == UInt8(ascii: "\n") { line += 1 }
            if inString {
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                    // A string directly inside the top-level object is one of its keys or values;
                    // the one before a `[` is the key whose array this is.
                    if depth == 1 { lastKey = string }
                } else if depth == 1 {
                    string.append(byte)
                }
                continue
            }
            switch byte {
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"), UInt8(ascii: "\n"), UInt8(ascii: ":"):
                continue
            case UInt8(ascii: ","):
                if depth == stepsDepth { expectingElement = true }
                continue
            default:
                break
            }
            if expectingElement, depth == stepsDepth, byte != UInt8(ascii: "]") {
                lines.append(line)
                expectingElement = false
            }
            switch byte {
            case UInt8(ascii: "\""):
                inString = true
                string.removeAll(keepingCapacity: true)
            case UInt8(ascii: "{"):
                depth += 1
            case UInt8(ascii: "["):
                depth += 1
                if depth == 2, stepsDepth == nil, lastKey == stepsKey {
                    stepsDepth = depth
                    expectingElement = true
                }
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                if depth == stepsDepth { return lines }
                depth -= 1
            default:
                break
            }
        }
        return lines
    }
}
