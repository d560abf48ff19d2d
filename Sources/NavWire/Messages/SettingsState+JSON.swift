import NavKit

extension SettingsState {
    /// The settings as `configure`'s result, `welcome.settings` and the `settings` message carry
    /// them.
    public var json: JSONValue {
        [
            "busyPolicy": .string(busyPolicy.rawValue),
            "slowMotion": .number(slowMotion),
            "popGesture": ["enabled": .bool(popGestureEnabled), "range": popGestureRange.map(JSONValue.number) ?? .null],
            "transition": .string(transition),
        ]
    }
}
