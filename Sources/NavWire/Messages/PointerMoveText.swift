import NavKit

/// A pointer move as a client sends it (docs/protocol.md §2): what the server records for moves
/// it merged, so that a recording replays exactly what the session applied.
public enum PointerMoveText {
    /// `event` (a move) as a `pointer` message, numbered `input` when the client numbered it;
    /// times in milliseconds, every sample as `[x, y, t]`.
    public static func text(_ event: PointerEvent, input: Int?) -> String {
        var message = JSONObject([
            "type": .string("pointer"), "phase": .string(event.phase.rawValue), "id": .number(Double(event.pointer)),
            "x": .number(event.position.x), "y": .number(event.position.y), "t": .number(event.time * 1000),
        ])
        if event.samples.count > 1 {
            message["samples"] = .array(event.samples.map {
                .array([.number($0.position.x), .number($0.position.y), .number($0.time * 1000)])
            })
        }
        if let input { message["input"] = .number(Double(input)) }
        return JSONWriter.write(.object(message))
    }
}
