import NavKit
import NavWire
import Testing

/// The parse error for `text`, or nil if it parsed.
private func parseError(_ text: String, maxDepth: Int = JSONParser.defaultMaxDepth) -> JSONParseError? {
    do {
        _ = try JSONParser.parse(text, maxDepth: maxDepth)
        return nil
    } catch {
        return error
    }
}

private func parseError(bytes: [UInt8]) -> JSONParseError? {
    do {
        _ = try JSONParser.parse(bytes)
        return nil
    } catch {
        return error
    }
}

@Suite("JSONParser")
struct JSONParserTests {
    @Test func literalsAndWhitespace() throws {
        #expect(try JSONParser.parse("null") == .null)
        #expect(try JSONParser.parse("true") == .bool(true))
        #expect(try JSONParser.parse("false") == .bool(false))
        #expect(try JSONParser.parse(" \t\r\n true \n") == .bool(true))
        #expect(try JSONParser.parse(#""top-level string""#) == .string("top-level string"))
    }

    @Test func numbers() throws {
        let cases: [(String, Double)] = [
            ("0", 0), ("12", 12), ("-12", -12), ("1.5", 1.5), ("-0.25", -0.25),
            ("1e3", 1000), ("1E3", 1000), ("1e+3", 1000), ("1e-3", 0.001), ("2.5E-1", 0.25),
            ("123456789012345", 123_456_789_012_345),
            ("1234567890123456789", 1_234_567_890_123_456_768),  // nearest Double
            ("9007199254740993", 9_007_199_254_740_992),  // rounds to nearest, like Double("...")
            ("0.1", 0.1), ("1e-400", 0), ("1.7976931348623157e308", .greatestFiniteMagnitude),
        ]
        for (text, expected) in cases {
            #expect(try JSONParser.parse(text) == .number(expected), "\(text)")
        }
    }

    @Test func negativeZeroKeepsItsSign() throws {
        let value = try #require(try JSONParser.parse("-0").numberValue)
        #expect(value == 0 && value.sign == .minus)
        let fraction = try #require(try JSONParser.parse("-0.0").numberValue)
        #expect(fraction.sign == .minus)
    }

    @Test func shortIntegerFastPathAgreesWithDouble() throws {
        for text in ["7", "-7", "999999999999999", "-999999999999999", "100000000000000", "42"] {
            #expect(try JSONParser.parse(text) == .number(Double(text)!), "\(text)")
        }
    }

    @Test func everyEscape() throws {
        let text = #""\"\\\/\b\f\n\r\t""#
        #expect(try JSONParser.parse(text) == .string("\"\\/\u{08}\u{0C}\n\r\t"))
    }

    @Test func unicodeEscapes() throws {
        #expect(try JSONParser.parse(#""\u0041\u00e9\u20AC\u0000""#) == .string("Aé€\u{0}"))
        #expect(try JSONParser.parse(#""\uD83D\uDE00""#) == .string("😀"))
        #expect(try JSONParser.parse(#""\ud83d\ude00""#) == .string("😀"))
        #expect(try JSONParser.parse(#""\uDBFF\uDFFF""#) == .string("\u{10FFFF}"))
        #expect(try JSONParser.parse(#""a\uD834\uDD1Eb""#) == .string("a𝄞b"))
    }

    @Test func rawUTF8PassesThroughWithAndWithoutEscapes() throws {
        #expect(try JSONParser.parse(#""héllo wörld 😀 日本""#) == .string("héllo wörld 😀 日本"))
        #expect(try JSONParser.parse(#""é\n😀\t日""#) == .string("é\n😀\t日"))
    }

    @Test func arraysAndObjects() throws {
        let text = #"{"a":[1,true,null,"x",{"b":[]}],"c":{},"d":[[]]}"#
        let expected: JSONValue = [
            "a": [1, true, nil, "x", ["b": []]],
            "c": .object(JSONObject()),
            "d": [[]],
        ]
        #expect(try JSONParser.parse(text) == expected)
        #expect(try JSONParser.parse(" [ 1 , 2 ] ") == [1, 2])
        #expect(try JSONParser.parse(#" { "k" : "v" } "#) == ["k": "v"])
    }

    @Test func objectKeysKeepTheirOrder() throws {
        let object = try #require(try JSONParser.parse(#"{"zeta":1,"alpha":2,"mid":3}"#).objectValue)
        #expect(object.keys == ["zeta", "alpha", "mid"])
    }

    @Test func duplicateKeysLastValueWinsFirstPositionKept() throws {
        let object = try #require(try JSONParser.parse(#"{"a":1,"b":2,"a":3}"#).objectValue)
        #expect(object.keys == ["a", "b"])
        #expect(object["a"] == 3)
        #expect(object["b"] == 2)
    }

    @Test func byteInputsMatchStringInput() throws {
        let text = #"{"name":"stäck","n":[1.5,-2,"\u00e9"]}"#
        let fromString = try JSONParser.parse(text)
        let bytes = Array(text.utf8)
        #expect(try JSONParser.parse(bytes) == fromString)
        let fromRaw = try bytes.withUnsafeBytes { raw throws(JSONParseError) in try JSONParser.parse(raw) }
        #expect(fromRaw == fromString)
        let empty = Result { () throws(JSONParseError) in
            try JSONParser.parse(UnsafeRawBufferPointer(start: nil, count: 0))
        }
        #expect(empty == .failure(JSONParseError(reason: "unexpected end of input, expected a value", offset: 0)))
    }

    @Test func depthLimit() throws {
        let limit = JSONParser.defaultMaxDepth
        #expect(limit == 64)
        let deepest = String(repeating: "[", count: 64) + String(repeating: "]", count: 64)
        #expect(throws: Never.self) { try JSONParser.parse(deepest) }
        let tooDeep = String(repeating: "[", count: 65) + String(repeating: "]", count: 65)
        #expect(parseError(tooDeep)?.message == "arrays and objects nested more than 64 deep at offset 64")
        let objects = String(repeating: #"{"a":"#, count: 65) + "1" + String(repeating: "}", count: 65)
        #expect(parseError(objects)?.message == "arrays and objects nested more than 64 deep at offset 320")
        // A hostile frame far beyond the limit fails fast instead of overflowing the stack.
        #expect(parseError(String(repeating: "[", count: 1_000_000))?.offset == 64)
        #expect(parseError("[[1]]", maxDepth: 1)?.message == "arrays and objects nested more than 1 deep at offset 1")
        #expect(parseError("[{}]", maxDepth: 2) == nil)
    }

    @Test(arguments: [
        ("", "unexpected end of input, expected a value at offset 0"),
        ("   ", "unexpected end of input, expected a value at offset 3"),
        (#"{"kind":"frames" 1}"#, "expected ',' or '}' after object member at offset 17"),
        (#"{"a":1"#, "unexpected end of input, expected ',' or '}' after object member at offset 6"),
        (#"{"a" 1}"#, "expected ':' after object key at offset 5"),
        ("{,}", #"expected '"' to begin an object key or '}' at offset 1"#),
        ("{a:1}", #"expected '"' to begin an object key or '}' at offset 1"#),
        (#"{"a":1,}"#, #"expected '"' to begin an object key after ',' at offset 7"#),
        (#"{"a":}"#, "expected a value at offset 5"),
        ("[1,2", "unexpected end of input, expected ',' or ']' after array element at offset 4"),
        ("[1 2]", "expected ',' or ']' after array element at offset 3"),
        ("[1,]", "expected a value at offset 3"),
        ("[", "unexpected end of input, expected a value at offset 1"),
        ("01", "leading zeros are not allowed in numbers at offset 0"),
        ("[-012]", "leading zeros are not allowed in numbers at offset 2"),
        ("+1", "expected a value at offset 0"),
        (".5", "expected a value at offset 0"),
        ("-", "unexpected end of input, expected a digit after '-' at offset 1"),
        ("-x", "expected a digit after '-' at offset 1"),
        ("1.", "unexpected end of input, expected a digit after '.' in number at offset 2"),
        ("1.e5", "expected a digit after '.' in number at offset 2"),
        ("1e", "unexpected end of input, expected a digit in number exponent at offset 2"),
        ("1e+", "unexpected end of input, expected a digit in number exponent at offset 3"),
        ("1e400", "number is too large to represent at offset 0"),
        ("[-1e400]", "number is too large to represent at offset 1"),
        ("NaN", "expected a value at offset 0"),
        ("Infinity", "expected a value at offset 0"),
        ("-Infinity", "expected a digit after '-' at offset 1"),
        ("tru", "expected 'true' at offset 0"),
        ("[nul]", "expected 'null' at offset 1"),
        ("fals e", "expected 'false' at offset 0"),
        ("True", "expected a value at offset 0"),
        ("'a'", "expected a value at offset 0"),
        ("\u{FEFF}1", "expected a value at offset 0"),
        (#"{"a":1} x"#, "expected end of input after the JSON value at offset 8"),
        ("[1] [2]", "expected end of input after the JSON value at offset 4"),
        ("truex", "expected end of input after the JSON value at offset 4"),
        (#""abc"#, #"unexpected end of input, expected '"' to end the string at offset 4"#),
        (#""abc\n"#, #"unexpected end of input, expected '"' to end the string at offset 6"#),
        (#""a\"#, #"unexpected end of input, expected an escape character after '\' at offset 3"#),
        (#""a\x""#, #"expected one of '"', '\', '/', 'b', 'f', 'n', 'r', 't' or 'u' after '\' at offset 3"#),
        (#""\'""#, #"expected one of '"', '\', '/', 'b', 'f', 'n', 'r', 't' or 'u' after '\' at offset 2"#),
        (#""\u12G4""#, #"expected 4 hex digits after '\u' at offset 5"#),
        (#""\u12"#, #"unexpected end of input, expected 4 hex digits after '\u' at offset 5"#),
        (#""\uD83D""#, #"expected a low surrogate escape (\uDC00-\uDFFF) after high surrogate \uD83D at offset 7"#),
        (#""\uD83Dx""#, #"expected a low surrogate escape (\uDC00-\uDFFF) after high surrogate \uD83D at offset 7"#),
        (#""\uD83D\u0041""#, #"expected a low surrogate escape (\uDC00-\uDFFF) after high surrogate \uD83D at offset 7"#),
        (#""\uD83D\uD83D""#, #"expected a low surrogate escape (\uDC00-\uDFFF) after high surrogate \uD83D at offset 7"#),
        (#""ok \uDE00""#, #"unpaired low surrogate \uDE00, expected it after a high surrogate at offset 4"#),
        ("\"a\nb\"", "expected control character U+000A to be escaped in string at offset 2"),
        ("\"\\n\u{1F}\"", "expected control character U+001F to be escaped in string at offset 3"),
    ])
    func malformedInput(text: String, message: String) {
        #expect(parseError(text)?.message == message)
    }

    @Test func invalidUTF8InStrings() throws {
        let quote = UInt8(ascii: "\"")
        let cases: [[UInt8]] = [
            [quote, 0xFF, quote],  // never valid
            [quote, 0x80, quote],  // continuation byte without a lead
            [quote, 0xC0, 0x80, quote],  // overlong encoding of U+0000
            [quote, 0xE0, 0x80, 0x80, quote],  // overlong three-byte form
            [quote, 0xED, 0xA0, 0x80, quote],  // UTF-8 encoded surrogate U+D800
            [quote, 0xF4, 0x90, 0x80, 0x80, quote],  // above U+10FFFF
            [quote, 0xE2, 0x82, quote],  // truncated sequence
            [quote, 0xE2, 0x82],  // truncated by end of input
        ]
        for bytes in cases {
            #expect(parseError(bytes: bytes) == JSONParseError(reason: "invalid UTF-8 in string", offset: 1), "\(bytes)")
        }
        // Same check after an escape, where the slow path copies bytes itself.
        #expect(parseError(bytes: [quote, 0x5C, 0x6E, 0xC3, quote])?.message == "invalid UTF-8 in string at offset 3")
        #expect(try JSONParser.parse([quote, 0xC3, 0xA9, 0xF0, 0x9F, 0x98, 0x80, quote]) == .string("é😀"))
    }

    @Test func errorDescriptionIsTheMessage() {
        let error = JSONParseError(reason: "expected ':' after object key", offset: 9)
        #expect(error.message == "expected ':' after object key at offset 9")
        #expect("\(error)" == error.message)
    }
}
