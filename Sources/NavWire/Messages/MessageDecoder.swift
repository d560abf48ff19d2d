#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import NavKit

/// Turns one text frame into a `ClientMessage`, or into an error that says exactly what is wrong:
/// `bad_json`, `bad_message` naming the field, `unknown_op`, or `unsupported`
/// for operations whose containers this server does not have yet.
public enum MessageDecoder {
    /// The message types a client may send.
    public static let types = ["hello", "resize", "ping", "pointer", "scroll", "key", "command", "ack"]
    /// The event groups `subscribe` accepts.
    public static let eventGroups = ["lifecycle", "transition", "gesture", "page", "action"]

    public static func decode(_ text: String) -> Result<ClientMessage, DecodeFailure> {
        // Pointer moves spelled as viewers spell them are read by a scan of their bytes.
        if let (event, input) = MessageScanner.pointerEvent(in: text) {
            return .success(input.map { .numbered(input: $0, .pointer(event)) } ?? .pointer(event))
        }
        return decodeInFull(text)
    }

    /// `decode(_:)` without the pointer scan: what the scan must agree with.
    public static func decodeInFull(_ text: String) -> Result<ClientMessage, DecodeFailure> {
        do {
            return decode(try JSONValue.parse(text))
        } catch {
            return .failure(DecodeFailure(error))
        }
    }

    /// The `id` of `text` when it is a `command` with a string or number `id`, whether or not the
    /// rest of it would decode; nil otherwise. Reads only those two fields, so a message dropped
    /// unread (over a rate limit) costs a scan of its text, not a decode.
    public static func commandID(in text: String) -> JSONValue? {
        guard let header = try? JSONDecoder().decode(CommandHeader.self, from: Data(text.utf8)),
            header.type == "command"
        else { return nil }
        switch header.id {
        case .string?, .number?: return header.id
        default: return nil
        }
    }

    /// The seq of `text` when it is an ack spelled exactly `{"type":"ack","seq":N}` (what the
    /// viewer and the clients send, once per frame); nil for anything else, which `decode` reads.
    /// A scan of the bytes (`MessageScanner`): acks are the most frequent message a client sends.
    public static func ackSeq(in text: String) -> Int? {
        MessageScanner.ackSeq(in: text)
    }

    private struct CommandHeader: Decodable {
        let type: String?
        let id: JSONValue?
    }

    public static func decode(_ json: JSONValue) -> Result<ClientMessage, DecodeFailure> {
        var commandID: JSONValue?
        do throws(WireError) {
            let message = try FieldReader(json, path: "")
            let type = try message.string("type")
            switch type {
            case "hello": return .success(.hello(try hello(message)))
            case "resize": return .success(.resize(try viewport(message)))
            case "ping": return .success(.ping(id: message.object["id"] ?? .null, t: message.object["t"] ?? .null))
            case "pointer": return .success(try numbered(.pointer(try pointer(message)), message))
            case "scroll":
                let event = ScrollEvent(
                    position: Point(x: try message.number("x"), y: try message.number("y")),
                    delta: Point(x: try message.optionalNumber("dx") ?? 0, y: try message.optionalNumber("dy") ?? 0),
                    time: (try message.optionalNumber("t") ?? 0) / 1000
                )
                return .success(try numbered(.scroll(event), message))
            case "key": return .success(try numbered(.key(try keyName(message)), message))
            case "ack":
                let seq = try message.int("seq")
                guard seq >= 0 else { throw .badMessage("seq: expected the seq of a frame (0 or more), got \(seq)") }
                return .success(.ack(seq: seq))
            case "command":
                guard let id = message.value("id") else { throw message.missing("id", "a string or number naming the command") }
                switch id {
                case .string, .number: commandID = id
                default: throw message.wrong("id", "a string or a number", id)
                }
                return .success(.command(id: id, try sessionCommand(message)))
            default:
                throw .badMessage("type: unknown message type \"\(type)\"; expected one of \(types.joined(separator: ", "))")
            }
        } catch {
            return .failure(DecodeFailure(error, commandID: commandID))
        }
    }

    // MARK: Messages

    private static func hello(_ message: FieldReader) throws(WireError) -> Hello {
        let role = try message.optionalChoice("role", ["control", "view", "app"]).flatMap(Hello.Role.init(rawValue:)) ?? .control
        var viewport: Viewport?
        if let reader = try message.optionalReader("viewport") { viewport = try self.viewport(reader) }
        let session = try message.optionalString("session")
        if let session, session.isEmpty { throw .badMessage("session: expected a session token, got an empty string") }
        let lastSeq = try message.optionalInt("lastSeq")
        var features = Set<String>()
        for (index, element) in try (message.optionalArray("features") ?? []).enumerated() {
            guard case .string(let feature) = element else {
                throw .badMessage("features[\(index)]: expected a string, got \(FieldReader.describe(element))")
            }
            features.insert(feature)
        }
        let wire = try wireFormat(message)
        var accepted = features.intersection(Hello.supportedFeatures)
        // Templates are a part of binary frames: JSON and v1 frames have nothing to put them in.
        if wire != .v2Binary { accepted.remove(Hello.Feature.templates) }
        // Timelines are runs of layer-tree frames: v1's display lists have none.
        if !wire.usesLayerTree { accepted.remove(Hello.Feature.timelines) }
        return Hello(
            app: try message.optionalString("app"), viewport: viewport, session: session, role: role, lastSeq: lastSeq,
            features: accepted, wire: wire, window: try window(message)
        )
    }

    /// `window`: frames in flight before the client's `ack`, 1 … `Hello.maxWindow`.
    private static func window(_ message: FieldReader) throws(WireError) -> Int? {
        guard let window = try message.optionalInt("window") else { return nil }
        guard (1...Hello.maxWindow).contains(window) else {
            throw .badMessage("window: expected 1 to \(Hello.maxWindow) frames in flight before an ack, got \(window)")
        }
        return window
    }

    /// `protocol` (1 or 2) and `encoding` (`json` or `binary`, v2 only).
    private static func wireFormat(_ message: FieldReader) throws(WireError) -> WireFormat {
        let version = try message.optionalInt("protocol") ?? 1
        guard version == 1 || version == 2 else {
            throw .badMessage("protocol: this server speaks 1 or 2, got \(version)")
        }
        let encoding = try message.optionalChoice("encoding", ["json", "binary"]) ?? "json"
        switch (version, encoding) {
        case (1, "binary"): throw .badMessage("encoding: binary frames need protocol 2 (send \"protocol\":2)")
        case (1, _): return .v1
        case (_, "binary"): return .v2Binary
        default: return .v2JSON
        }
    }

    /// Width, height, scale and safe area, from `hello.viewport` or a `resize`.
    private static func viewport(_ reader: FieldReader) throws(WireError) -> Viewport {
        let width = try reader.optionalNumber("width", in: 1...10_000)
        let height = try reader.optionalNumber("height", in: 1...10_000)
        guard let width else { throw reader.missing("width", "a number of points") }
        guard let height else { throw reader.missing("height", "a number of points") }
        let scale = try reader.optionalNumber("scale", in: 0.1...10) ?? 1
        var safeArea = EdgeInsets.zero
        if let insets = try reader.optionalReader("safeArea") {
            safeArea = EdgeInsets(
                top: try insets.optionalNumber("top", in: 0...1000) ?? 0,
                left: try insets.optionalNumber("left", in: 0...1000) ?? 0,
                bottom: try insets.optionalNumber("bottom", in: 0...1000) ?? 0,
                right: try insets.optionalNumber("right", in: 0...1000) ?? 0
            )
        }
        return Viewport(width: width, height: height, safeArea: safeArea, scale: scale)
    }

    /// The largest input number: every integer up to it is exact in a JSON number.
    public static let maxInputNumber = 1 << 53

    /// `input` as the client numbered it (`"input": N`), or as it is.
    private static func numbered(_ input: ClientMessage, _ message: FieldReader) throws(WireError) -> ClientMessage {
        guard message.object["input"] != nil else { return input }
        let number = try message.int("input")
        guard (0...maxInputNumber).contains(number) else {
            throw .badMessage("input: expected a number from 0 to \(maxInputNumber) for this input message, got \(number)")
        }
        return .numbered(input: number, input)
    }

    private static func pointer(_ message: FieldReader) throws(WireError) -> PointerEvent {
        guard let phaseName = try message.optionalChoice("phase", ["down", "move", "up", "cancel"]),
              let phase = PointerEvent.Phase(rawValue: phaseName)
        else { throw message.missing("phase", "down, move, up or cancel") }
        let pointer = try message.optionalInt("id") ?? 1
        var samples: [PointerEvent.Sample] = []
        for (index, element) in try (message.optionalArray("samples") ?? []).enumerated() {
            guard case .array(let triple) = element, triple.count == 3,
                  case .number(let x) = triple[0], case .number(let y) = triple[1], case .number(let t) = triple[2],
                  x.isFinite, y.isFinite, t.isFinite
            else { throw .badMessage("samples[\(index)]: expected [x, y, t] with three numbers") }
            samples.append(PointerEvent.Sample(position: Point(x: x, y: y), time: t / 1000))
        }
        let last = samples.last
        let x = try message.optionalNumber("x") ?? last?.position.x
        let y = try message.optionalNumber("y") ?? last?.position.y
        guard let x else { throw message.missing("x", "a number") }
        guard let y else { throw message.missing("y", "a number") }
        let time = try message.optionalNumber("t").map { $0 / 1000 } ?? last?.time
        guard let time else { throw message.missing("t", "the event's timestamp in milliseconds") }
        return PointerEvent(phase: phase, pointer: pointer, position: Point(x: x, y: y), time: time, samples: samples)
    }

    private static func sessionCommand(_ message: FieldReader) throws(WireError) -> SessionCommand {
        let op = try operation(message)
        switch op {
        case .subscribe:
            var groups = Set<String>()
            for (index, element) in try message.array("events").enumerated() {
                guard case .string(let group) = element, eventGroups.contains(group) else {
                    throw .badMessage("events[\(index)]: expected one of \(eventGroups.joined(separator: ", ")), got \(FieldReader.describe(element))")
                }
                groups.insert(group)
            }
            return .subscribe(groups)
        case .configure where message.object["record"] != nil:
            let others = ["busyPolicy", "slowMotion", "popGesture", "transition"].filter { message.object[$0] != nil }
            guard others.isEmpty else {
                throw .badMessage("configure: record goes in a configure of its own (this one also has \(others.joined(separator: ", ")))")
            }
            guard let record = try message.optionalBool("record") else { throw message.missing("record", "true or false") }
            return .record(record)
        default:
            return .navigation(try command(message, op: op))
        }
    }

    /// The `op` field: a known operation.
    static func operation(_ reader: FieldReader) throws(WireError) -> Operation {
        let name = try reader.string("op")
        guard let op = Operation(rawValue: name) else {
            throw WireError(.unknownOp, "unknown op \"\(name)\"; expected one of \(Operation.list)")
        }
        return op
    }

    /// A navigation command from an object with `op` (a `command` message or a row's `action`).
    static func command(_ reader: FieldReader, op: Operation) throws(WireError) -> Command {
        switch op {
        case .setRoot:
            return .setRoot(try SpecDecoder.root(try reader.reader("root")))
        case .push:
            return .push(try SpecDecoder.screen(try reader.reader("screen")), transition: try transition(reader), target: try target(reader))
        case .pop:
            return .pop(transition: try transition(reader), target: try target(reader))
        case .popToRoot:
            return .popToRoot(transition: try transition(reader), target: try target(reader))
        case .popTo:
            let destination: PopDestination
            switch (try reader.optionalString("name"), try reader.optionalString("vc")) {
            case (let name?, nil): destination = .name(name)
            case (nil, let vc?): destination = .controller(vc)
            case (nil, nil): throw .badMessage("\(reader.fieldPath("name")): missing; popTo needs a screen name or a vc id")
            case (_?, _?): throw .badMessage("\(reader.fieldPath("name")): give either name or vc, not both")
            }
            var then: ThenPush?
            if let next = try reader.optionalReader("then") {
                then = ThenPush(screen: try SpecDecoder.screen(try next.reader("screen")), transition: try transition(next))
            }
            return .popTo(destination, transition: try transition(reader), then: then, target: try target(reader))
        case .replaceTop:
            let direction = try reader.optionalChoice("direction", ["push", "pop"]).flatMap(Direction.init(rawValue:)) ?? .push
            return .replaceTop(try SpecDecoder.screen(try reader.reader("screen")), direction: direction, transition: try transition(reader), target: try target(reader))
        case .setStack:
            let screens = try reader.readers("screens")
            if screens.isEmpty { throw .badMessage("\(reader.fieldPath("screens")): expected at least one SCREEN") }
            var specs: [ScreenSpec] = []
            for screen in screens { specs.append(try SpecDecoder.screen(screen)) }
            return .setStack(specs, transition: try transition(reader), target: try target(reader))
        case .selectTab:
            return .selectTab(try tabSelector(reader, op: op))
        case .setBadge:
            let badge = try reader.optionalString("badge")
            return .setBadge(try tabSelector(reader, op: op), badge: badge, color: try reader.optionalColor("badgeColor"))
        case .page:
            return .page(try pageCommand(reader), vc: try reader.optionalString("vc"))
        case .scrollTo:
            let destination: ScrollDestination
            switch (try reader.optionalInt("index"), try reader.optionalNumber("offset")) {
            case (let index?, nil): destination = .index(index)
            case (nil, let offset?): destination = .offset(offset)
            case (nil, nil): throw .badMessage("\(reader.fieldPath("index")): missing; scrollTo needs a page index or an offset")
            case (_?, _?): throw .badMessage("\(reader.fieldPath("index")): give either index or offset, not both")
            }
            return .scrollTo(destination, animated: try reader.optionalBool("animated") ?? true, target: try target(reader))
        case .present:
            let style = try reader.optionalChoice("style", PresentationStyle.allCases.map(\.rawValue)).flatMap(PresentationStyle.init(rawValue:)) ?? .sheet
            return .present(
                try SpecDecoder.presented(try reader.reader("content")), style: style, animated: try reader.optionalBool("animated") ?? true,
                panel: try panelOptions(reader, style: style)
            )
        case .dismiss:
            return .dismiss(animated: try reader.optionalBool("animated") ?? true)
        case .update:
            let update = ScreenUpdate(
                title: try reader.optionalString("title"), rows: try SpecDecoder.rowEdits(reader), sections: try SpecDecoder.sectionEdits(reader)
            )
            if update.title == nil && update.changesTitleOnly {
                throw .badMessage("\(reader.fieldPath("rows")): missing; update needs a title, rows or sections to change")
            }
            return .update(update, vc: try reader.optionalString("vc"), animated: try reader.optionalBool("animated") ?? true)
        case .configure:
            return .configure(try configuration(reader))
        case .query:
            let what = try reader.optionalString("what") ?? "state"
            guard what == "state" else { throw .badMessage("\(reader.fieldPath("what")): expected \"state\", got \"\(what)\"") }
            return .query
        case .subscribe:
            throw .badMessage("\(reader.fieldPath("op")): subscribe is a session request and cannot be a row action")
        }
    }

    /// `index` or `name` of a tab.
    /// A panel's `detents` (default medium and large), the `detent` it rises to (default the
    /// first) and `dismissOnMaskTap` (default true); refused on any other style.
    private static func panelOptions(_ reader: FieldReader, style: PresentationStyle) throws(WireError) -> PanelOptions {
        let fields = ["detents", "detent", "dismissOnMaskTap"].filter(reader.has)
        guard style == .panel else {
            if let field = fields.first { throw .badMessage("\(reader.fieldPath(field)): only a panel has detents; give \"style\":\"panel\"") }
            return PanelOptions()
        }
        var detents: [PanelDetent] = [.medium, .large]
        if let values = try reader.optionalArray("detents") {
            guard !values.isEmpty else { throw .badMessage("\(reader.fieldPath("detents")): a panel needs at least one detent") }
            detents = []
            for (index, value) in values.enumerated() {
                detents.append(try PanelDetent.decode(value, path: "\(reader.fieldPath("detents"))[\(index)]"))
            }
        }
        let detent = try reader.value("detent").map { value throws(WireError) in try PanelDetent.decode(value, path: reader.fieldPath("detent")) }
        if let detent, !detents.contains(detent) {
            throw .badMessage("\(reader.fieldPath("detent")): not one of the panel's detents (\(detents.map(\.description).joined(separator: ", ")))")
        }
        return PanelOptions(detents: detents, detent: detent, dismissOnMaskTap: try reader.optionalBool("dismissOnMaskTap") ?? true)
    }

    private static func tabSelector(_ reader: FieldReader, op: Operation) throws(WireError) -> TabSelector {
        if let index = try reader.optionalInt("index") { return .index(index) }
        if let name = try reader.optionalString("name") { return .name(name) }
        throw .badMessage("\(reader.fieldPath("index")): missing; \(op.rawValue) needs a tab index or a name")
    }

    /// The `page` op's action and its fields.
    private static func pageCommand(_ reader: FieldReader) throws(WireError) -> PageCommand {
        guard let action = try reader.optionalChoice("action", PageCommand.actionNames) else {
            throw reader.missing("action", PageCommand.actionNames.joined(separator: ", "))
        }
        let animated = try reader.optionalBool("animated") ?? true
        func page() throws(WireError) -> SubpageSpec { try SpecDecoder.page(try reader.reader("page")) }
        switch action {
        case "push": return PageCommand(.push(try page()), animated: animated)
        case "pop": return PageCommand(.pop, animated: animated)
        case "popTo": return PageCommand(.popTo(try reader.name("name")), animated: animated)
        case "popToRoot": return PageCommand(.popToRoot, animated: animated)
        case "switch":
            let direction = try reader.optionalChoice("direction", ["push", "pop"]).flatMap(Direction.init(rawValue:)) ?? .push
            return PageCommand(.switch(try page(), direction: direction), animated: animated)
        default: return PageCommand(.newRoot(try page()), animated: animated)
        }
    }

    private static func configuration(_ reader: FieldReader) throws(WireError) -> Configuration {
        var configuration = Configuration()
        configuration.busyPolicy = try reader.optionalChoice("busyPolicy", ["queue", "reject"]).flatMap(BusyPolicy.init(rawValue:))
        configuration.slowMotion = try reader.optionalNumber("slowMotion", in: 0.01...100)
        if let pop = try reader.optionalReader("popGesture") {
            configuration.popGestureEnabled = try pop.optionalBool("enabled")
            if pop.object["range"] == .null {
                configuration.popGestureRange = .some(nil)
            } else if let range = try pop.optionalNumber("range", in: 0...10_000) {
                configuration.popGestureRange = .some(range)
            }
        }
        configuration.transition = try transition(reader)
        if configuration == Configuration() {
            throw .badMessage("configure: nothing to change; expected busyPolicy, slowMotion, popGesture, transition or record")
        }
        return configuration
    }

    /// The optional `transition` field: a built-in name or a custom object.
    static func transition(_ reader: FieldReader) throws(WireError) -> ParametricTransition? {
        guard let value = reader.value("transition") else { return nil }
        let path = reader.fieldPath("transition")
        if case .string(let name) = value {
            guard let builtIn = ParametricTransition.named(name) else {
                throw .badMessage("\(path): unknown transition \"\(name)\"; expected slide, modal, fade, none or a custom object")
            }
            return builtIn
        }
        let custom = try FieldReader(value, path: path)
        let kind = try custom.string("kind")
        if kind != "custom" {
            guard let builtIn = ParametricTransition.named(kind) else {
                throw .badMessage("\(custom.fieldPath("kind")): expected custom, slide, modal, fade or none, got \"\(kind)\"")
            }
            return builtIn
        }
        let curveName = try custom.optionalChoice("curve", ["linear", "easeIn", "easeOut", "easeInOut"]) ?? "easeInOut"
        let from = try custom.optionalReader("from")
        let cover = try custom.optionalReader("cover")
        return ParametricTransition(
            name: "custom",
            duration: try custom.optionalNumber("duration", in: 0...10) ?? 0.34,
            curve: Curve(name: curveName) ?? .easeInOut,
            from: .init(dx: try from?.optionalNumber("dx") ?? 0, dy: try from?.optionalNumber("dy") ?? 0),
            fromAlpha: try from?.optionalNumber("alpha", in: 0...1) ?? 1,
            cover: .init(dx: try cover?.optionalNumber("dx") ?? 0, dy: try cover?.optionalNumber("dy") ?? 0),
            dim: try cover?.optionalNumber("dim", in: 0...1) ?? 0
        )
    }

    /// The optional `target` field, `{"tab": N}` or `{"stack": "id"}`, and the command's `select`.
    private static func target(_ reader: FieldReader) throws(WireError) -> StackTarget? {
        let select = try reader.optionalBool("select") ?? false
        guard let target = try reader.optionalReader("target") else {
            if select { throw .badMessage("\(reader.fieldPath("select")): select needs a target naming the tab or stack to select") }
            return nil
        }
        if let tab = try target.optionalInt("tab") { return .tab(tab, select: select) }
        if let stack = try target.optionalString("stack") { return .stack(stack, select: select) }
        throw .badMessage("\(target.path): expected {\"tab\": index} or {\"stack\": identifier}")
    }

    /// The longest key name a `key` message may carry: the names browsers give
    /// (`KeyboardEvent.key`, such as "Escape" or "MediaTrackPrevious") are far shorter, and the
    /// name is recorded with the session.
    public static let maxKeyNameBytes = 64

    private static func keyName(_ message: FieldReader) throws(WireError) -> String {
        let name = try message.name("key")
        guard name.utf8.count <= maxKeyNameBytes else {
            throw .badMessage("key: at most \(maxKeyNameBytes) bytes (a key's name, such as \"Escape\"), got \(name.utf8.count)")
        }
        return name
    }
}
