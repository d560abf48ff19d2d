/// The JSON text messages a load session sends (docs/protocol.md §2, §4, §5), built as strings
/// without a JSON library: their shapes are fixed and only numbers vary.
enum ClientMessages {
    /// The phone viewport the sessions ask for; the drag path (`DragPath`) is laid out for it.
    static let viewportWidth = 390.0

    /// `hello` for a new controlling session of `app`, asking for `wire`'s frame format, flow
    /// control with `window` (0: none) and, with `timelines`, the feature `timelines`.
    static func hello(app: String, wire: LoadWire, window: Int, timelines: Bool) -> String {
        let features = wire.features + (timelines ? ["timelines"] : [])
        return #"{"type":"hello","app":""# + app
            + #"","viewport":{"width":390,"height":844,"scale":3,"safeArea":{"top":47,"bottom":34}}"#
            + wire.helloFields
            + (features.isEmpty ? "" : #","features":["# + features.map { "\"\($0)\"" }.joined(separator: ",") + "]")
            + (window > 0 ? #","window":\#(window)"# : "") + "}"
    }

    /// The acknowledgement of frames up to `seq`, spelled as the server scans for it (§2 `ack`).
    static func ack(seq: Int) -> String {
        #"{"type":"ack","seq":\#(seq)}"#
    }

    /// A slide push of a page with a navigation bar and three rows (the page the drag pops).
    static func push(id: Int) -> String {
        #"{"type":"command","id":\#(id),"op":"push","screen":{"name":"Load","title":"Load","rows":["#
            + #"{"title":"One","detail":"1"},{"title":"Two","detail":"2"},{"title":"Three","detail":"3"}]}}"#
    }

    /// A pop of the top page.
    static func pop(id: Int) -> String {
        #"{"type":"command","id":\#(id),"op":"pop"}"#
    }

    /// One pointer event of pointer 1; `t` is the client's clock in ms.
    static func pointer(_ phase: String, x: Double, y: Double, t: Double) -> String {
        #"{"type":"pointer","phase":""# + phase + #"","id":1,"x":"# + number(x) + #","y":"# + number(y)
            + #","t":"# + number(t) + "}"
    }

    /// A number with at most three decimals, without a trailing ".0".
    private static func number(_ value: Double) -> String {
        let thousandths = (value * 1000).rounded()
        if thousandths.truncatingRemainder(dividingBy: 1000) == 0 { return String(Int(thousandths / 1000)) }
        return String(thousandths / 1000)
    }
}
