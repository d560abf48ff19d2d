/// What a tap on a row tells the program that drives the session (an `action` event), so that the
/// program, not the engine, decides what the tap means: add to a cart, open a file.
public struct RowEmit: Equatable, Sendable {
    /// The event's name (`buy`).
    public var name: String
    /// A JSON value the program gave the row, as JSON text, handed back as it came; nil for none.
    public var value: String?

    public init(name: String, value: String? = nil) {
        self.name = name
        self.value = value
    }
}
