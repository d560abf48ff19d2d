import NavWire

/// A small strict JSON reader for the frames the encoders write, so the round-trip check does
/// not read them with the wire's own parser (whichever the product uses). Throws on anything
/// that is not exactly one JSON value.
struct FrameJSON {
    private let bytes: [UInt8]
    private var at = 0

    static func parse(_ bytes: [UInt8]) throws -> JSONValue {
        var reader = FrameJSON(bytes: bytes)
        let value = try reader.value(depth: 0)
        reader.skipSpace()
        guard reader.at == bytes.count else { throw reader.failure("bytes after the value") }
        return value
    }

    private init(bytes: [UInt8]) { self.bytes = bytes }

    private func failure(_ what: String) -> Mismatch { Mismatch("frame JSON at byte \(at): \(what)") }

    private mutating func skipSpace() {
        while at < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[at]) { at += 1 }
    }

    private mutating func expect(_ text: String) throws {
        for byte in text.utf8 {
            guard at < bytes.count, bytes[at] == byte else { throw failure("expected \(text)") }
            at += 1
        }
    }

    private mutating func value(depth: Int) throws -> JSONValue {
        guard depth < 100 else { throw failure("nested too deep") }
        skipSpace()
        guard at < bytes.count else { throw failure("ends early") }
        switch bytes[at] {
        case UInt8(ascii: "{"):
            at += 1
            var object = JSONObject()
            skipSpace()
            if at < bytes.count, bytes[at] == UInt8(ascii: "}") { at += 1; return .object(object) }
            while true {
                skipSpace()
                let key = try string()
                skipSpace()
                try expect(":")
                object[key] = try value(depth: depth + 1)
                skipSpace()
                guard at < bytes.count else { throw failure("object ends early") }
                at += 1
                if bytes[at - 1] == UInt8(ascii: "}") { return .object(object) }
                guard bytes[at - 1] == UInt8(ascii: ",") else { throw failure("expected , or }") }
            }
        case UInt8(ascii: "["):
            at += 1
            var array: [JSONValue] = []
            skipSpace()
            if at < bytes.count, bytes[at] == UInt8(ascii: "]") { at += 1; return .array(array) }
            while true {
                array.append(try value(depth: depth + 1))
                skipSpace()
                guard at < bytes.count else { throw failure("array ends early") }
                at += 1
                if bytes[at - 1] == UInt8(ascii: "]") { return .array(array) }
                guard bytes[at - 1] == UInt8(ascii: ",") else { throw failure("expected , or ]") }
            }
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): try expect("true"); return .bool(true)
        case UInt8(ascii: "f"): try expect("false"); return .bool(false)
        case UInt8(ascii: "n"): try expect("null"); return .null
        default:
            let start = at
            while at < bytes.count, "-+.eE0123456789".utf8.contains(bytes[at]) { at += 1 }
            guard let number = Double(String(decoding: bytes[start..<at], as: UTF8.self)), number.isFinite else {
                throw failure("not a value")
            }
            return .number(number)
        }
    }

    private mutating func string() throws -> String {
        try expect("\"")
        var out: [UInt8] = []
        while true {
            guard at < bytes.count else { throw failure("string ends early") }
            let byte = bytes[at]
            at += 1
            switch byte {
            case UInt8(ascii: "\""):
                guard let text = String(validating: out, as: UTF8.self) else { throw failure("string not UTF-8") }
                return text
            case UInt8(ascii: "\\"):
                guard at < bytes.count else { throw failure("escape ends early") }
                at += 1
                switch bytes[at - 1] {
                case UInt8(ascii: "\""): out.append(0x22)
                case UInt8(ascii: "\\"): out.append(0x5C)
                case UInt8(ascii: "/"): out.append(0x2F)
                case UInt8(ascii: "b"): out.append(0x08)
                case UInt8(ascii: "f"): out.append(0x0C)
                case UInt8(ascii: "n"): out.append(0x0A)
                case UInt8(ascii: "r"): out.append(0x0D)
                case UInt8(ascii: "t"): out.append(0x09)
                case UInt8(ascii: "u"):
                    var scalar = try hex4()
                    if (0xD800..<0xDC00).contains(scalar) {
                        try expect("\\u")
                        let low = try hex4()
                        guard (0xDC00..<0xE000).contains(low) else { throw failure("unpaired surrogate") }
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    }
                    guard let unicode = Unicode.Scalar(scalar) else { throw failure("bad \\u escape") }
                    out.append(contentsOf: Array(String(Character(unicode)).utf8))
                default: throw failure("bad escape")
                }
            default:
                guard byte >= 0x20 else { throw failure("control character in a string") }
                out.append(byte)
            }
        }
    }

    private mutating func hex4() throws -> UInt32 {
        guard at + 4 <= bytes.count, let value = UInt32(String(decoding: bytes[at..<(at + 4)], as: UTF8.self), radix: 16) else {
            throw failure("bad \\u escape")
        }
        at += 4
        return value
    }
}
