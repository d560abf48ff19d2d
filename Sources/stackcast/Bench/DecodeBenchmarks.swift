import NavWire

/// Inbound message decoding, text to `ClientMessage` (JSON and fields): a viewer's pointer move,
/// the hot inbound path (60 a second per dragging user), a push command with a screen spec, and
/// the scan of an ack (one per frame per viewer with flow control).
struct DecodeBenchmarks {
    let rounds: Int

    /// What the viewer sends once per animation frame while dragging: the last sample and every
    /// sample since the previous message.
    static let pointerMove =
        #"{"type":"pointer","phase":"move","id":1,"x":152.33,"y":401.67,"t":12345.68,"samples":[[150.5,401,12337.35],[152.33,401.67,12345.68]]}"#

    /// A driver's push of a page with a bar, a transition, and rows with details and actions.
    static let pushCommand =
        ##"{"type":"command","id":"c17","op":"push","transition":"slide","screen":{"name":"Detail","title":"Album","background":"#F2F2F7","bar":{"style":"default","tint":"#007AFF"},"rows":[{"title":"Back","action":{"op":"pop"}},{"title":"Track 1","detail":"3:12","action":{"op":"push","screen":{"name":"Track 1"}}},{"title":"Track 2","detail":"4:05"},{"title":"Track 3","detail":"2:58"},{"title":"Player","action":{"op":"push","transition":"modal","screen":{"name":"Player","hidesBottomBar":true}}}]}}"##

    static let ack = #"{"type":"ack","seq":123456}"#

    func run(into report: inout BenchReport) {
        report.add("wire.decode_pointer_move_median_ns", median { try? MessageDecoder.decode(Self.pointerMove).get() }, "ns/message")
        report.add("wire.decode_push_command_median_ns", median { try? MessageDecoder.decode(Self.pushCommand).get() }, "ns/message")
        report.add("wire.scan_ack_median_ns", median { MessageDecoder.ackSeq(in: Self.ack) }, "ns/message")
    }

    /// The median over `rounds` batches of the time per `decode`, each batch 100 of them (one is
    /// too short for the clock alone).
    private func median<Value>(_ decode: () -> Value?) -> Double {
        precondition(decode() != nil, "the benchmark message must decode")
        let batch = 100
        var times: [Double] = []
        for _ in 0..<rounds {
            times.append(measureNanoseconds {
                for _ in 0..<batch { _ = decode() }
            } / Double(batch))
        }
        return Stats(times).median
    }
}
