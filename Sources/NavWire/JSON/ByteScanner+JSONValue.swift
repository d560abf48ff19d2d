extension ByteScanner {
    /// A JSON value spelled plainly, read as `JSONValue.parse`'s full reader reads it: objects,
    /// arrays, `true`, `false`, `null`, `plainString()`s and `number()`s, with whitespace between.
    /// Nil for anything else, which the full reader then decides on: an exponent, an escape but
    /// `\"` and `\\`, a repeated key, a trailing comma, nesting deeper than
    /// `JSONValue.maxDepth`. Objects keep the text's key order.
    ///
    /// Commands are the messages this takes: it reads a push several times faster than
    /// `JSONDecoder` (`stackcast bench --only decode` times both).
    public mutating func plainJSONValue() -> JSONValue? {
        value(depth: 0)
    }

    private mutating func value(depth: Int) -> JSONValue? {
        skipWhitespace()
        switch next {
        case UInt8(ascii: "{")?: return object(depth: depth + 1)
        case UInt8(ascii: "[")?: return array(depth: depth + 1)
        case UInt8(ascii: "\"")?: return plainString().map(JSONValue.string)
        case UInt8(ascii: "t")?: return skip("true") ? .bool(true) : nil
        case UInt8(ascii: "f")?: return skip("false") ? .bool(false) : nil
        case UInt8(ascii: "n")?: return skip("null") ? .null : nil
        case _?: return number().map(JSONValue.number)
        case nil: return nil
        }
    }

    private mutating func object(depth: Int) -> JSONValue? {
        guard depth <= JSONValue.maxDepth, skip("{") else { return nil }
        var object = JSONObject()
        skipWhitespace()
        if skip("}") { return .object(object) }
        repeat {
            skipWhitespace()
            guard let key = plainString() else { return nil }
            skipWhitespace()
            // The full reader keeps a repeated key's first value; it decides those.
            guard skip(":"), let value = value(depth: depth), object.addNew(key, value) else { return nil }
            skipWhitespace()
        } while skip(",")
        return skip("}") ? .object(object) : nil
    }

    private mutating func array(depth: Int) -> JSONValue? {
        guard depth <= JSONValue.maxDepth, skip("[") else { return nil }
        var elements: [JSONValue] = []
        skipWhitespace()
        if skip("]") { return .array(elements) }
        repeat {
            guard let element = value(depth: depth) else { return nil }
            elements.append(element)
            skipWhitespace()
        } while skip(",")
        return skip("]") ? .array(elements) : nil
    }
}
