import NavWire
import Testing

/// What a parse gave: the value, or the error it threw.
private func outcome(_ parse: (String) throws(WireError) -> JSONValue, _ text: String) -> Result<JSONValue, WireError> {
    do throws(WireError) { return .success(try parse(text)) } catch { return .failure(error) }
}

/// `JSONValue.parse` reads plain JSON (what clients send) by a scan of its bytes and leaves every
/// other spelling to JSONDecoder (`parseInFull`): the scan must read what it takes exactly as the
/// full reader does, and the two readers together as the full reader alone.
@Suite("JSONValue scan")
struct JSONValueScanTests {
    /// Messages as the viewer, the clients and drivers spell them, and plain JSON of every kind.
    @Test(arguments: [
        ##"{"type":"command","id":"c17","op":"push","transition":"slide","screen":{"name":"Detail","title":"Album","background":"#F2F2F7","rows":[{"title":"Back","action":{"op":"pop"}},{"title":"Track 1","detail":"3:12"}]}}"##,
        #"{"type":"hello","protocol":2,"encoding":"binary","viewport":{"width":390,"height":844},"features":["templates"]}"#,
        #"{"type":"pointer","phase":"move","id":1,"x":152.33,"y":401.67,"t":12345.68,"samples":[[150.5,401,12337.35]]}"#,
        #"{ "type" : "ping" , "id" : null , "t" : -0.5 }"#,
        "\t{\n\"a\" :\r\n[ 1 , 2 ,\n3 ] }\n",
        #"[]"#, #"{}"#, #"[[],{},[[]],{"a":{}}]"#, #"[true,false,null,0,-0,1.25,"",""]"#,
        #""say \"hi\" \\ back""#, #"{"é":"🎵","\\":"\""}"#,
        #"123456789012345678901234"#, #"0.000000000000000000001"#, #"-987654321.123456789"#,
        "[" + String(repeating: "[", count: 63) + String(repeating: "]", count: 63) + "]",
    ])
    func readsPlainJSONAsTheFullReaderDoes(_ text: String) throws {
        let value = try #require(JSONValue(scanning: text), "\(text)")
        #expect(value == (try JSONValue.parseInFull(text)))
        #expect(try JSONValue.parse(text) == value)
    }

    /// Spellings the scan leaves alone; `parse` gives what the full reader gives (a value or
    /// the same error), including its own readings (a repeated key keeps its first value, a
    /// trailing comma and a byte-order mark are accepted).
    @Test(arguments: [
        "1e3", "1E-2", #""tab\tin""#, #""\u00e9""#, #""\/""#, #"{"a":1,"a":2}"#, "[1,2,]", #"{"a":1,}"#,
        "\u{FEFF}{}", String(repeating: "[", count: 65) + String(repeating: "]", count: 65),
        "01", "1.", ".5", "+1", "-", "tru", "nul", "NaN", "Infinity", #""open"#, "\"a\u{1}b\"", "",
        " ", "1 2", "{}x", "[1 2]", #"{"a" 1}"#, #"{a:1}"#, "[,]", "1234567890123456789012345",
    ])
    func leavesOtherSpellingsToTheFullReader(_ text: String) {
        #expect(JSONValue(scanning: text) == nil, "\(text)")
        #expect(outcome(JSONValue.parse, text) == outcome(JSONValue.parseInFull, text), "\(text)")
    }

    /// Unlike JSONDecoder's, the scan's objects keep the text's key order.
    @Test func keepsTheTextsKeyOrder() throws {
        let object = try #require(JSONValue(scanning: #"{"z":1,"a":2,"m":{"y":0,"b":0}}"#)?.objectValue)
        #expect(object.keys == ["z", "a", "m"])
        #expect(object["m"]?.objectValue?.keys == ["y", "b"])
    }

    /// Values made at random (strings with quotes, backslashes, control characters and any
    /// Unicode; integers and decimals), written by `JSONWriter` as the server writes JSON: both
    /// readers give back what was written, and the scan reads every text without a control
    /// character (which the writer escapes as the scan does not read).
    @Test func agreesOnWrittenValues() throws {
        var state: UInt64 = 0x0DEC_0DE5
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 11) % UInt64(bound))
        }
        let pieces = ["\"", "\\", "\n", "\u{1}", "é", "🎵", "{", "}", ":", ",", "a", "0", " ", "[", "\u{7F}"]
        func string() -> String { (0..<next(6)).map { _ in pieces[next(pieces.count)] }.joined() }
        func value(depth: Int) -> JSONValue {
            switch next(depth > 3 ? 4 : 6) {
            case 0: return .null
            case 1: return .bool(next(2) == 0)
            case 2: return .number(Double(next(2_000_000) - 1_000_000) / Double([1, 4, 100, 1000][next(4)]))
            case 3: return .string(string())
            case 4: return .array((0..<next(5)).map { _ in value(depth: depth + 1) })
            default:
                var object = JSONObject()
                for _ in 0..<next(5) { object[string()] = value(depth: depth + 1) }
                return .object(object)
            }
        }
        var scannedCount = 0
        for _ in 0..<2_000 {
            let written = value(depth: 0)
            let text = JSONWriter.write(written)
            #expect(try JSONValue.parseInFull(text) == written, "\(text)")
            #expect(try JSONValue.parse(text) == written, "\(text)")
            if let value = JSONValue(scanning: text) {
                scannedCount += 1
                #expect(value == written, "\(text)")
            } else if !text.unicodeScalars.contains(where: { $0 == "\\" }) {
                Issue.record("not scanned: \(text)")
            }
        }
        #expect(scannedCount > 1_000)
    }
}
