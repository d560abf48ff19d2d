import NavKit

/// The control messages a server sends (everything but frames), as JSON text in both protocol
/// versions.
public enum ServerMessage {
    /// `watchToken`: the session's read-only token, the one to hand out to watchers (a `hello`
    /// with it always watches). `settings`: the session's settings, as `configure` reports them;
    /// `apps`: the apps a `hello` may start, for a viewer's picker. `migrated`: the resumed
    /// session was rebuilt here from the session store after its own server went away.
    public static func welcome(
        session: String, app: String, role: Hello.Role, viewport: Viewport, fps: Int, resumed: Bool, migrated: Bool = false,
        features: Set<String>, wire: WireFormat,
        watchToken: String? = nil, window: Int? = nil, recording: String? = nil, settings: SettingsState? = nil, apps: [String] = []
    ) -> String {
        var object = JSONObject()
        object["type"] = "welcome"
        object["protocol"] = .number(Double(wire.protocolVersion))
        object["encoding"] = .string(wire.encoding)
        object["session"] = .string(session)
        object["app"] = .string(app)
        object["role"] = .string(role.rawValue)
        object["viewport"] = viewportJSON(viewport)
        object["fps"] = .number(Double(fps))
        object["resumed"] = .bool(resumed)
        // Only when true: the session was rebuilt on this server from the session store.
        if migrated { object["migrated"] = true }
        object["features"] = .array(features.sorted().map(JSONValue.string))
        if let watchToken { object["watchToken"] = .string(watchToken) }
        if let window { object["window"] = .number(Double(window)) }
        if let settings { object["settings"] = settings.json }
        if !apps.isEmpty { object["apps"] = .array(apps.map(JSONValue.string)) }
        if let recording { object["recording"] = .string(recording) }
        return JSONWriter.write(.object(object))
    }

    /// The session's viewport changed (feature `sessionUpdates`): every viewer shows the new one.
    public static func viewport(_ viewport: Viewport) -> String {
        JSONWriter.write(["type": "viewport", "viewport": viewportJSON(viewport)])
    }

    /// The session's settings changed (feature `sessionUpdates`), as `configure` reports them.
    public static func settings(_ settings: SettingsState) -> String {
        JSONWriter.write(["type": "settings", "settings": settings.json])
    }

    public static func pong(id: JSONValue, t: JSONValue) -> String {
        JSONWriter.write(["type": "pong", "id": id, "t": t])
    }

    public static func result(id: JSONValue, value: JSONValue) -> String {
        JSONWriter.write(["type": "result", "id": id, "ok": true, "value": value])
    }

    /// An error; `id` is the command's when the error answers a command. The error's `details`
    /// follow its message.
    public static func error(_ error: WireError, id: JSONValue? = nil) -> String {
        var object = JSONObject()
        object["type"] = "error"
        if let id { object["id"] = id }
        object["code"] = .string(error.code.rawValue)
        object["message"] = .string(error.message)
        for (key, value) in error.details.members { object[key] = value }
        return JSONWriter.write(.object(object))
    }

    /// A scene event; times go out in milliseconds.
    public static func event(_ event: SceneEvent) -> String {
        var object = JSONObject()
        object["type"] = "event"
        if let emit = event.emit {
            // An action is named by what the row emits; its group says it is one.
            object["group"] = "action"
            object["name"] = .string(emit.name)
            if let value = emit.value { object["value"] = (try? JSONValue.parse(value)) ?? .string(value) }
        } else {
            object["name"] = .string(event.name.rawValue)
        }
        if let vc = event.vc { object["vc"] = .string(vc) }
        if let screen = event.screen { object["screen"] = .string(screen) }
        if let animated = event.animated { object["animated"] = .bool(animated) }
        if let op = event.op { object["op"] = .string(op) }
        if let interactive = event.interactive { object["interactive"] = .bool(interactive) }
        if let cancelled = event.cancelled { object["cancelled"] = .bool(cancelled) }
        if let gesture = event.gesture { object["gesture"] = .string(gesture) }
        if let on = event.on { object["on"] = .bool(on) }
        if let detent = event.detent { object["detent"] = detent.json }
        object["time"] = .number((event.time * 1000 * 1000).rounded() / 1000)
        return JSONWriter.write(.object(object))
    }

    /// A viewport as `welcome` reports it and a `resize` message carries it.
    public static func viewportJSON(_ viewport: Viewport) -> JSONValue {
        let insets = viewport.safeArea
        return [
            "width": .number(viewport.size.width), "height": .number(viewport.size.height), "scale": .number(viewport.scale),
            "safeArea": ["top": .number(insets.top), "left": .number(insets.left), "bottom": .number(insets.bottom), "right": .number(insets.right)],
        ]
    }
}
