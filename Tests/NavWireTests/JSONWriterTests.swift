import NavKit
import NavWire
import Testing

/// `number` written by `appendNumber`.
private func written(_ number: Double) -> String {
    var bytes: [UInt8] = []
    JSONWriter.appendNumber(number, into: &bytes)
    return String(decoding: bytes, as: UTF8.self)
}

/// `text` written by `appendString`.
private func written(_ text: String) -> String {
    var bytes: [UInt8] = []
    JSONWriter.appendString(text, into: &bytes)
    return String(decoding: bytes, as: UTF8.self)
}

@Suite("JSONWriter")
struct JSONWriterTests {
    @Test func scalars() {
        #expect(JSONWriter.write(.null) == "null")
        #expect(JSONWriter.write(true) == "true")
        #expect(JSONWriter.write(false) == "false")
        #expect(JSONWriter.write("hi") == #""hi""#)
        #expect(JSONWriter.write(12) == "12")
    }

    @Test(arguments: [
        (0.0, "0"),
        (-0.0, "0"),
        (12.0, "12"),
        (-12.0, "-12"),
        (1234.5, "1234.5"),
        (0.1, "0.1"),
        (-0.25, "-0.25"),
        (0.30000000000000004, "0.30000000000000004"),
        (0.0001, "0.0001"),
        (1e-5, "1e-5"),
        (1e-7, "1e-7"),
        (-1.5e-10, "-1.5e-10"),
        (Double.leastNonzeroMagnitude, "5e-324"),
        (1e15, "1000000000000000"),
        (9_007_199_254_740_992.0, "9007199254740992"),
        (-9_007_199_254_740_992.0, "-9007199254740992"),
        (9_007_199_254_740_994.0, "9.007199254740994e+15"),
        (1e16, "1e+16"),
        (1e21, "1e+21"),
        (1e100, "1e+100"),
        (1.7976931348623157e308, "1.7976931348623157e+308"),
        (-2.2250738585072014e-308, "-2.2250738585072014e-308"),
        (Double.infinity, "null"),
        (-Double.infinity, "null"),
        (Double.nan, "null"),
    ])
    func numberFormatting(number: Double, expected: String) {
        #expect(written(number) == expected)
    }

    @Test func numbersReadBackExactly() throws {
        let numbers: [Double] = [
            0.1, 1.0 / 3, -2.0 / 3, 1234.5, 1e-7, 1e21, 123_456.789e10, .pi, -.ulpOfOne,
            .leastNonzeroMagnitude, .leastNormalMagnitude, .greatestFiniteMagnitude,
            9_007_199_254_740_994, 4_503_599_627_370_496.5, 1e23, 8.41e21, .leastNormalMagnitude / 3,
        ]
        for number in numbers {
            #expect(try JSONValue.parse(written(number)) == .number(number), "\(number)")
        }
    }

    @Test func stringEscapes() {
        #expect(written("") == #""""#)
        #expect(written("plain") == #""plain""#)
        #expect(written("say \"hi\"") == #""say \"hi\"""#)
        #expect(written(#"C:\dir"#) == #""C:\\dir""#)
        #expect(written("a/b") == #""a/b""#)
        #expect(written("\n\r\t\u{08}\u{0C}") == #""\u000a\u000d\u0009\u0008\u000c""#)
        #expect(written("\u{0}\u{1}\u{1F}") == #""\u0000\u0001\u001f""#)
        #expect(written("\u{7F}") == "\"\u{7F}\"")
        #expect(written("héllo 😀 日本") == "\"héllo 😀 日本\"")
        #expect(written("é\"😀\n") == #""é\"😀\u000a""#)
    }

    /// Escapes that fall inside a grapheme cluster must still come out byte-exact.
    @Test func escapesInsideGraphemeClusters() {
        #expect(written("line\r\nnext") == #""line\u000d\u000anext""#)
        #expect(written("\"\u{301}x") == "\"\\\"\u{301}x\"")
    }

    /// The writer scans eight bytes at a time; an escape must be found at any position within
    /// or across those words, and bytes next to the special ones must not be mistaken for them.
    @Test func escapesAreFoundAtEveryPosition() {
        let neighbours = " !#$[]{}~\u{7F}é😀\u{21}\u{23}\u{5B}\u{5D}"
        #expect(written(neighbours + neighbours) == "\"\(neighbours)\(neighbours)\"")
        let specials: [(Character, String)] = [
            ("\"", #"\""#), ("\\", #"\\"#), ("\n", #"\u000a"#), ("\u{0}", #"\u0000"#), ("\u{1F}", #"\u001f"#),
        ]
        for (special, escaped) in specials {
            for position in 0..<20 {
                let prefix = String(repeating: "a", count: position)
                let text = prefix + String(special) + "bcdefghijklé" + String(special)
                #expect(written(text) == "\"\(prefix)\(escaped)bcdefghijklé\(escaped)\"", "\(position)")
            }
        }
    }

    @Test func everyASCIICharacterRoundTrips() throws {
        let all = String(decoding: (0..<0x80).map { UInt8($0) }, as: UTF8.self) + "é€😀\u{10FFFF}"
        #expect(try JSONValue.parse(JSONWriter.write(.string(all))) == .string(all))
    }

    @Test func objectsKeepKeyOrderAndAreCompact() {
        var object = JSONObject()
        object["zeta"] = 1
        object["alpha"] = [true, nil, "x"]
        object["mid"] = ["inner": 2.5, "empty": []]
        object["zeta"] = 3
        #expect(JSONWriter.write(.object(object)) == #"{"zeta":3,"alpha":[true,null,"x"],"mid":{"inner":2.5,"empty":[]}}"#)
        #expect(JSONWriter.write(.object(JSONObject())) == "{}")
        #expect(JSONWriter.write([]) == "[]")
        #expect(JSONWriter.write(["key \"q\"": "v\n"]) == #"{"key \"q\"":"v\u000a"}"#)
    }

    @Test func buildingAFrameByHand() {
        var frame: [UInt8] = []
        frame.append(contentsOf: #"{"type":"#.utf8)
        JSONWriter.appendString("frame", into: &frame)
        frame.append(contentsOf: #","seq":"#.utf8)
        JSONWriter.appendNumber(42, into: &frame)
        frame.append(contentsOf: #","x":"#.utf8)
        JSONWriter.appendNumber(-0.5, into: &frame)
        frame.append(contentsOf: #","title":"#.utf8)
        JSONWriter.appendString("Tab \"1\"", into: &frame)
        frame.append(UInt8(ascii: "}"))
        #expect(String(decoding: frame, as: UTF8.self) == #"{"type":"frame","seq":42,"x":-0.5,"title":"Tab \"1\""}"#)
    }

    /// Decoded objects do not keep the text's key order, so every object here has one key.
    @Test func canonicalTextRoundTripsByteForByte() throws {
        let texts = [
            #"[{"type":"frame"},{"seq":7},{"items":[{"id":"a"},{"rect":[0,0,390.5,44]},{"opacity":0.25},{"text":"Back \u000a \"x\" é😀"},null,true,false,[]]},{"z":{}},{"big":1e+21},{"tiny":1e-7}]"#,
            #"[1,-2,3.5,"\\",{"b":1},{"a":2}]"#,
        ]
        for text in texts {
            #expect(JSONWriter.write(try JSONValue.parse(text)) == text)
        }
    }

    @Test func valuesRoundTrip() throws {
        let values: [JSONValue] = [
            nil, true, 0, -1.5, "", "\u{0}\"\\/😀",
            [[], [:], [[["deep"]]]],
            ["b": 1, "a": ["c": [1, 2, ["d": nil]]]],
        ]
        for value in values {
            #expect(try JSONValue.parse(JSONWriter.write(value)) == value)
        }
    }
}
