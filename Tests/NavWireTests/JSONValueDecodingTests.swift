#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import NavKit
import NavWire
import Testing

/// The error `JSONValue.parse` throws for `text`, or nil if it parsed.
private func parseError(_ text: String) -> WireError? {
    do {
        _ = try JSONValue.parse(text)
        return nil
    } catch {
        return error
    }
}

private let notJSON = WireError(.badJSON, "not valid JSON")
private let tooDeep = WireError(.badJSON, "not valid JSON: arrays and objects nested more than 64 deep")

/// `count` arrays nested in each other.
private func nested(_ count: Int) -> String {
    String(repeating: "[", count: count) + String(repeating: "]", count: count)
}

/// Messages are read into a `JSONValue`, plain JSON by a byte scan and anything else by
/// FoundationEssentials' `JSONDecoder` (`JSONValueScanTests` holds the two to each other): the
/// values they read, what they reject (always `bad_json`), and where they differ from the
/// hand-written parser JSONDecoder replaced.
@Suite("JSONValue decoding")
struct JSONValueDecodingTests {
    @Test func literalsAndWhitespace() throws {
        #expect(try JSONValue.parse("null") == .null)
        #expect(try JSONValue.parse("true") == .bool(true))
        #expect(try JSONValue.parse("false") == .bool(false))
        #expect(try JSONValue.parse(" \t\r\n true \n") == .bool(true))
        #expect(try JSONValue.parse(#""top-level string""#) == .string("top-level string"))
        #expect(try JSONValue.parse("-2.5") == .number(-2.5))
    }

    @Test func numbers() throws {
        let cases: [(String, Double)] = [
            ("0", 0), ("12", 12), ("-12", -12), ("1.5", 1.5), ("-0.25", -0.25), ("1.0", 1),
            ("1e3", 1000), ("1E3", 1000), ("1e+3", 1000), ("1e-3", 0.001), ("2.5E-1", 0.25),
            ("123456789012345", 123_456_789_012_345),
            ("1234567890123456789", 1_234_567_890_123_456_768),  // nearest Double
            ("9007199254740993", 9_007_199_254_740_992),  // 2^53 + 1 rounds to nearest, like Double("...")
            ("0.1", 0.1), ("5e-324", .leastNonzeroMagnitude), ("1.7976931348623157e308", .greatestFiniteMagnitude),
        ]
        for (text, expected) in cases {
            #expect(try JSONValue.parse(text) == .number(expected), "\(text)")
        }
    }

    @Test func negativeZeroKeepsItsSign() throws {
        let value = try #require(try JSONValue.parse("-0").numberValue)
        #expect(value == 0 && value.sign == .minus)
        let fraction = try #require(try JSONValue.parse("[-0.0]").arrayValue?.first?.numberValue)
        #expect(fraction.sign == .minus)
    }

    /// Infinity has no JSON spelling and could not be written back. JSONDecoder refuses an
    /// underflow too, rather than reading 0.
    @Test(arguments: ["1e400", "[-1e400]", #"{"x":1.8e308}"#, "1e-400"])
    func numbersBeyondADoubleAreBadJSON(text: String) {
        #expect(parseError(text) == notJSON)
    }

    @Test func everyEscape() throws {
        let text = #""\"\\\/\b\f\n\r\t""#
        #expect(try JSONValue.parse(text) == .string("\"\\/\u{08}\u{0C}\n\r\t"))
    }

    @Test func unicodeEscapes() throws {
        #expect(try JSONValue.parse(#""\u0041\u00e9\u20AC\u0000""#) == .string("Aé€\u{0}"))
        #expect(try JSONValue.parse(#""\uD83D\uDE00""#) == .string("😀"))
        #expect(try JSONValue.parse(#""\ud83d\ude00""#) == .string("😀"))
        #expect(try JSONValue.parse(#""\uDBFF\uDFFF""#) == .string("\u{10FFFF}"))
        #expect(try JSONValue.parse(#"{"k":"a\uD834\uDD1Eb"}"#) == ["k": "a𝄞b"])
    }

    /// A surrogate escape on its own is not a character: refused, in a key or a value, at any depth.
    @Test(arguments: [
        #""\uD83D""#, #""\uD83Dx""#, #""\uD83D\u0041""#, #""\uD83D\uD83D""#, #""ok \uDE00""#,
        #"{"a":["\uDE00"]}"#, #"{"\uD800":1}"#,
    ])
    func loneSurrogatesAreBadJSON(text: String) {
        #expect(parseError(text) == notJSON)
    }

    @Test func rawUTF8PassesThroughWithAndWithoutEscapes() throws {
        #expect(try JSONValue.parse(#""héllo wörld 😀 日本""#) == .string("héllo wörld 😀 日本"))
        #expect(try JSONValue.parse(#""é\n😀\t日""#) == .string("é\n😀\t日"))
    }

    @Test func arraysAndObjects() throws {
        let text = #"{"a":[1,true,null,"x",{"b":[]}],"c":{},"d":[[]],"e":[{"f":false},2,"g",null,[3]]}"#
        let expected: JSONValue = [
            "a": [1, true, nil, "x", ["b": []]],
            "c": .object(JSONObject()),
            "d": [[]],
            "e": [["f": false], 2, "g", nil, [3]],
        ]
        #expect(try JSONValue.parse(text) == expected)
        #expect(try JSONValue.parse(" [ 1 , 2 ] ") == [1, 2])
        #expect(try JSONValue.parse(#" { "k" : "v" , "" : null } "#) == ["k": "v", "": nil])
        #expect(try JSONValue.parse("[]") == [])
    }

    /// Every key arrives, though not always in the text's order (JSONDecoder hands them out
    /// from a dictionary): objects compare by content.
    @Test func objectsKeepEveryKey() throws {
        let object = try #require(try JSONValue.parse(#"{"zeta":1,"alpha":2,"mid":3}"#).objectValue)
        #expect(Set(object.keys) == ["zeta", "alpha", "mid"])
        #expect(object == JSONObject(["alpha": 2, "mid": 3, "zeta": 1]))
    }

    /// JSONDecoder keeps the first value of a repeated key.
    @Test func duplicateKeysFirstValueWins() throws {
        let object = try #require(try JSONValue.parse(#"{"a":1,"b":2,"a":3}"#).objectValue)
        #expect(object.count == 2)
        #expect(object["a"] == 1)
        #expect(object["b"] == 2)
    }

    @Test func depthLimit() throws {
        #expect(JSONValue.maxDepth == 64)
        #expect(try JSONValue.parse(nested(64)) != .null)
        #expect(parseError(nested(65)) == tooDeep)
        #expect(parseError("[" + nested(64) + ",1]") == tooDeep)
        let objects = String(repeating: #"{"a":"#, count: 65) + "1" + String(repeating: "}", count: 65)
        #expect(parseError(objects) == tooDeep)
        let deepest = String(repeating: #"{"a":"#, count: 64) + "1" + String(repeating: "}", count: 64)
        #expect(try JSONValue.parse(deepest) != .null)
        // Up to its own limit of 512 JSONDecoder reads the text, then we refuse it at 65; past
        // 512 the decoder refuses it itself, without saying why. A hostile frame far beyond
        // either fails fast instead of overflowing the stack.
        #expect(parseError(nested(512)) == tooDeep)
        #expect(parseError(nested(513)) == notJSON)
        #expect(parseError(String(repeating: "[", count: 65_536)) == notJSON)
    }

    @Test(arguments: [
        "", "   ", #"{"kind":"frames" 1}"#, #"{"a":1"#, #"{"a" 1}"#, "{,}", "{a:1}", #"{"a":}"#,
        "[1,2", "[1 2]", "[1,,2]", "[,]", "[", "01", "[-012]", "+1", ".5", "-", "-x", "1.", "1.e5", "1e",
        "1e+", "NaN", "Infinity", "-Infinity", "tru", "[nul]", "fals e", "True", "'a'", "/*c*/1",
        #"{"a":1} x"#, "[1] [2]", "truex", #""abc"#, #""abc\n"#, #""a\"#, #""a\x""#, #""\'""#,
        #""\u12G4""#, #""\u12"#, "\"a\nb\"", "\"\\n\u{1F}\"", "\u{0C}1", "\u{A0}1",
    ])
    func malformedInputIsBadJSON(text: String) {
        #expect(parseError(text) == notJSON)
    }

    /// Where JSONDecoder is more lenient than RFC 8259: one trailing comma in an array or object,
    /// and a leading byte-order mark.
    @Test func whatJSONDecoderAlsoAccepts() throws {
        #expect(try JSONValue.parse("[1,]") == [1])
        #expect(try JSONValue.parse(#"{"type":"hello",}"#) == ["type": "hello"])
        #expect(try JSONValue.parse("\u{FEFF}1") == 1)
    }

    /// Whichever kind comes first in an array, and whatever follows it, each element keeps its
    /// own kind (the decoder guesses each element's kind from the one before it).
    @Test func mixedArraysDecodeEveryKind() throws {
        let kinds: [(String, JSONValue)] = [
            ("null", nil), ("true", true), ("2", 2), (#""s""#, "s"), ("[3]", [3]), (#"{"k":4}"#, ["k": 4]),
        ]
        for (firstText, first) in kinds {
            for (secondText, second) in kinds {
                let text = "[\(firstText),\(secondText),\(secondText),\(firstText)]"
                #expect(try JSONValue.parse(text) == [first, second, second, first], "\(text)")
            }
        }
    }

    /// Each value of another kind than guessed costs the decoder an error, so a message may have
    /// 2,048 of them: `[[],true,[],true,…]` misses four times an element (as the element before,
    /// then number, string, object) and is refused past about 500 elements; a message whose members
    /// keep their kinds misses once per member name and element kind, whatever its size. Such a
    /// text spelled plainly is read by the scan (`JSONValueScanTests`), which does not guess.
    @Test func valuesOfChangingKindsAreBounded() throws {
        #expect(JSONValue.maxMisses == 2048)
        let irregular = WireError(.badJSON, "not valid JSON for this server: more than 2048 values of a kind other than the one before them")
        func alternating(_ pairs: Int) -> String { "[" + Array(repeating: "[],true", count: pairs).joined(separator: ",") + "]" }
        func fullError(_ text: String) -> WireError? {
            do { _ = try JSONValue.parseInFull(text); return nil } catch { return error }
        }
        #expect(try JSONValue.parseInFull(alternating(250)).arrayValue?.count == 500)
        #expect(fullError(alternating(300)) == irregular)
        #expect(fullError(alternating(10_000)) == irregular)
        #expect(try JSONValue.parse(alternating(10_000)).arrayValue?.count == 20_000)
        // With an exponent in it, the text goes to the full reader and meets the bound.
        #expect(parseError(alternating(300) + "1e0") == notJSON)
        #expect(parseError(String(alternating(300).dropLast()) + ",1e0]") == irregular)
        let row = #"{"title":"Row","detail":"d","badge":null,"action":{"op":"push","screen":{"name":"S","rows":[]}}}"#
        let screen = #"{"type":"command","id":"c","op":"push","screen":{"name":"Big","rows":["# + Array(repeating: row, count: 600).joined(separator: ",") + "]}}"
        #expect(screen.utf8.count > 55_000)
        #expect(try JSONValue.parse(screen).objectValue?["screen"] != nil)
    }

    @Test func jsonDecoderDecodesJSONValueInsideOtherTypes() throws {
        struct Envelope: Decodable { let payload: JSONValue }
        let decoded = try JSONDecoder().decode(Envelope.self, from: Data(#"{"payload":{"a":[1,"x",null]}}"#.utf8))
        #expect(decoded.payload == ["a": [1, "x", nil]])
    }
}
