import Testing
import NavKit
@testable import NavWire

/// The byte scan of acks and pointer messages (`MessageScanner`): it reads the spellings viewers
/// and clients send exactly as the full decoder does, and leaves everything else to it.
@Suite struct MessageScannerTests {
    /// Messages the scan must read, each compared with the full decoder's reading.
    static let scanned = [
        #"{"type":"pointer","phase":"move","id":1,"x":120.5,"y":400,"t":1234.56}"#,
        #"{"type":"pointer","phase":"down","x":0,"y":-0,"t":0}"#,
        #"{"type":"pointer","phase":"up","id":0,"x":-12.125,"y":0.1,"t":16.7}"#,
        #"{"type":"pointer","phase":"cancel","id":123456789,"x":389.99999999999994,"y":843.9,"t":86400000.123}"#,
        #"{"type":"pointer","phase":"move","id":7,"x":3,"y":4,"t":1016,"samples":[[1,2,1000],[3,4,1016]]}"#,
        #"{"type":"pointer","phase":"move","id":7,"x":0.30000000000000004,"y":0.1,"t":1}"#,
        #"{"type":"pointer","phase":"move","id":1,"x":3,"y":4,"t":5,"samples":[[3,4,5]],"input":17}"#,
    ]

    @Test(arguments: scanned)
    func readsWhatTheFullDecoderReads(_ text: String) throws {
        let (event, input) = try #require(MessageScanner.pointerEvent(in: text))
        let message: ClientMessage = input.map { .numbered(input: $0, .pointer(event)) } ?? .pointer(event)
        #expect(MessageDecoder.decodeInFull(text) == .success(message))
        #expect(MessageDecoder.decode(text) == .success(message))
    }

    @Test func anInputNumberOutOfRangeIsABadMessage() {
        let text = #"{"type":"key","key":"Escape","input":-1}"#
        guard case .failure(let failure) = MessageDecoder.decode(text) else {
            Issue.record("decoded \(text)")
            return
        }
        #expect(failure.error.message == "input: expected a number from 0 to 9007199254740992 for this input message, got -1")
    }

    /// Anything but the plain spellings is left to the full decoder, which answers as before
    /// (a message, or the error that names the field).
    @Test(arguments: [
        #"{"type":"pointer","phase":"move","id":7,"x":0.3,"y":1e0,"t":1}"#,
        #"{"type":"pointer","phase":"move","id":1,"x":1e400,"y":0,"t":0}"#,
        #"{"type":"pointer","phase":"move","id":1,"x":1e-400,"y":0,"t":0}"#,
        #"{"type":"pointer","phase":"move","id":1,"x":01,"y":0,"t":0}"#,
        #"{"type":"pointer","phase":"move","id":1,"x":1.,"y":0,"t":0}"#,
        #"{"type":"pointer","phase":"move","id":-1,"x":1,"y":0,"t":0}"#,
        #"{"type":"pointer","phase":"move","id":1.0,"x":1,"y":0,"t":0}"#,
        #"{"type":"pointer","phase":"move","id":1234567890,"x":1,"y":0,"t":0}"#,
        #"{"type":"pointer", "phase":"move","x":1,"y":0,"t":0}"#,
        #"{"type":"pointer","phase":"hover","x":1,"y":0,"t":0}"#,
        #"{"type":"pointer","phase":"move","x":1,"y":0}"#,
        #"{"type":"pointer","phase":"move","x":1,"y":0,"t":0,"extra":1}"#,
        #"{"type":"pointer","phase":"move","x":1,"y":0,"t":0}x"#,
        #"{"type":"pointer","phase":"move","x":1,"y":0,"t":0,"samples":[]}"#,
        #"{"type":"pointer","phase":"move","x":1,"y":0,"t":0,"samples":[[1,2]]}"#,
        #"{"type":"pointer","phase":"move","y":0,"x":1,"t":0}"#,
        #"{"phase":"move","type":"pointer","x":1,"y":0,"t":0}"#,
    ])
    func leavesOtherSpellingsToTheFullDecoder(_ text: String) {
        #expect(MessageScanner.pointerEvent(in: text) == nil)
        #expect(MessageDecoder.decode(text) == MessageDecoder.decodeInFull(text))
    }

    /// Numbers as a viewer's pointer events make them (hundredths of a CSS pixel, timestamps in
    /// milliseconds), printed as JavaScript prints them: the scan and the full decoder agree on
    /// every one.
    @Test func agreesOnGeneratedMoves() {
        var state: UInt64 = 0x5EED
        func next() -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return state >> 11
        }
        for _ in 0..<2_000 {
            let x = Double(Int(next() % 200_000) - 50_000) / 100
            let y = Double(next() % 100_000) / 7
            let t = Double(next() % 1_000_000_000) / 1000
            let text = #"{"type":"pointer","phase":"move","id":1,"x":\#(plain(x)),"y":\#(plain(y)),"t":\#(plain(t))}"#
            guard let (event, _) = MessageScanner.pointerEvent(in: text) else {
                Issue.record("not scanned: \(text)")
                return
            }
            #expect(MessageDecoder.decodeInFull(text) == .success(.pointer(event)), "\(text)")
        }
    }

    /// `value` as a plain decimal (Swift prints 1e-05 and 1e+16 with exponents, JavaScript only
    /// below 1e-6 and from 1e21).
    private func plain(_ value: Double) -> String {
        let text = "\(value)"
        return text.hasSuffix(".0") ? String(text.dropLast(2)) : text
    }
}
