import NavApps
import NavKit
import NavWire

/// Reads a flow from its JSON value (a flow file parsed by `FlowFile`), checking every field.
/// Commands, viewports and resizes are read by the protocol's own `MessageDecoder`, so a flow
/// accepts exactly what a `command` message does and its errors name the same fields.
///
/// Stateless; any thread.
public enum FlowDecoder {
    /// The keys a step may have: exactly one of them.
    public static let stepKinds = ["command", "tap", "drag", "fling", "edgeSwipe", "settle", "wait", "key", "scroll", "resize", "expect"]
    static let topKeys = ["app", "viewport", "steps", "description"]
    static let expectKeys = ["stack", "events", "error", "node"]
    /// The longest `wait` and a gesture's longest `duration`, in seconds.
    static let maxWait = 600.0

    /// The flow that `json` describes; `name` is the file's path, `stepLines` the line of each step.
    public static func decode(_ json: JSONValue, name: String, stepLines: [Int] = []) throws(FlowFileError) -> Flow {
        var index: Int?
        do throws(WireError) {
            let top = try FieldReader(json, path: "")
            try checkKeys(top, allowed: topKeys)
            _ = try top.optionalString("description")
            let app = try top.optionalString("app") ?? BuiltInApps.defaultName
            guard BuiltInApps.root(named: app) != nil else {
                throw .badMessage("app: no app named \(app); available: \(BuiltInApps.names.joined(separator: ", "))")
            }
            var viewport = BuiltInApps.defaultViewport(for: app)
            if let value = top.value("viewport") {
                guard case .hello(let hello) = try message(["type": "hello", "viewport": value], at: ""), let given = hello.viewport else {
                    throw .badMessage("viewport: expected an object")
                }
                viewport = given
            }
            let stepValues = try top.array("steps")
            if stepValues.isEmpty { throw .badMessage("steps: expected at least one step") }
            var steps: [FlowStep] = []
            for (position, value) in stepValues.enumerated() {
                index = position
                let line = stepLines.indices.contains(position) ? stepLines[position] : nil
                steps.append(FlowStep(try step(try FieldReader(value, path: "steps[\(position)]"), viewport: viewport), line: line))
            }
            return Flow(name: name, app: app, viewport: viewport, steps: steps)
        } catch {
            let line = index.flatMap { stepLines.indices.contains($0) ? stepLines[$0] : nil }
            throw FlowFileError(file: name, line: line, error.message)
        }
    }

    // MARK: Steps

    private static func step(_ reader: FieldReader, viewport: Viewport) throws(WireError) -> FlowStep.Action {
        let kinds = stepKinds.filter { reader.object[$0] != nil }
        let unknown = reader.object.keys.filter { !stepKinds.contains($0) }
        if let key = unknown.first {
            throw .badMessage("\(reader.fieldPath(key)): not a step; a step is one of \(stepKinds.joined(separator: ", "))")
        }
        guard kinds.count == 1, let kind = kinds.first else {
            throw .badMessage(kinds.isEmpty
                ? "\(reader.path): expected one of \(stepKinds.joined(separator: ", "))"
                : "\(reader.path): one step at a time, got \(kinds.joined(separator: " and ")); make them separate steps")
        }
        switch kind {
        case "command":
            return .command(try command(try reader.reader(kind)))
        case "settle":
            guard reader.object[kind] == .bool(true) else { throw reader.wrong(kind, "true", reader.object[kind] ?? .null) }
            return .settle
        case "wait":
            guard let seconds = try reader.optionalNumber(kind, in: 0...maxWait) else { throw reader.missing(kind, "a number of seconds") }
            return .wait(seconds)
        case "key":
            return .key(try reader.name(kind))
        case "resize":
            guard case .resize(let size) = try message(merging: try reader.reader(kind), type: "resize") else { throw reader.missing(kind, "a viewport") }
            return .resize(size)
        case "scroll":
            let scroll = try reader.reader(kind)
            try checkKeys(scroll, allowed: ["x", "y", "dx", "dy"])
            return .scroll(
                position: Point(x: try scroll.number("x"), y: try scroll.number("y")),
                delta: Point(x: try scroll.optionalNumber("dx") ?? 0, y: try scroll.optionalNumber("dy") ?? 0))
        case "tap":
            return .tap(try tap(try reader.reader(kind)))
        case "expect":
            return .expect(try expectation(try reader.reader(kind)))
        default:
            return .gesture(try gesture(try reader.reader(kind), kind: FlowGesture.Kind(rawValue: kind)!, viewport: viewport))
        }
    }

    /// A command object as `command` messages carry it, without `type` and `id`.
    private static func command(_ reader: FieldReader) throws(WireError) -> Command {
        var object = JSONObject()
        object["type"] = "command"
        object["id"] = 0
        for (key, value) in reader.object.members where key != "type" && key != "id" { object[key] = value }
        switch try message(.object(object), at: reader.path) {
        case .command(_, .navigation(let command)): return command
        default:
            throw .badMessage("\(reader.fieldPath("op")): a flow needs no subscribe: it records every event, and expect.events compares them")
        }
    }

    private static func gesture(_ reader: FieldReader, kind: FlowGesture.Kind, viewport: Viewport) throws(WireError) -> FlowGesture {
        let release = try reader.optionalChoice("release", ["hold", "fling"]).flatMap(FlowGesture.Release.init(rawValue:))
        let defaultDuration = kind == .fling ? 0.1 : 0.3
        let duration = try reader.optionalNumber("duration", in: 0.01...maxWait) ?? defaultDuration
        switch kind {
        case .drag, .fling:
            try checkKeys(reader, allowed: ["x", "y", "dx", "dy", "duration", "release"])
            return FlowGesture(
                kind: kind, start: Point(x: try reader.number("x"), y: try reader.number("y")),
                translation: Point(x: try reader.optionalNumber("dx") ?? 0, y: try reader.optionalNumber("dy") ?? 0),
                duration: duration, release: release ?? (kind == .fling ? .fling : .hold))
        case .edgeSwipe:
            try checkKeys(reader, allowed: ["edge", "y", "distance", "duration", "release"])
            let width = viewport.size.width
            let fromLeft = try reader.optionalChoice("edge", ["left", "right"]) ?? "left" == "left"
            let distance = try reader.optionalNumber("distance", in: 0...10_000) ?? (0.6 * width).rounded()
            // One point inside the edge: the pop range starts at the stack's left edge.
            let start = Point(x: fromLeft ? 1 : width - 1, y: try reader.optionalNumber("y") ?? viewport.size.height / 2)
            return FlowGesture(
                kind: kind, start: start, translation: Point(x: fromLeft ? distance : -distance, y: 0),
                duration: duration, release: release ?? .hold)
        }
    }

    private static func tap(_ reader: FieldReader) throws(WireError) -> FlowTapTarget {
        if reader.has("role") {
            try checkKeys(reader, allowed: ["role", "name"])
            return .node(try selector(reader))
        }
        try checkKeys(reader, allowed: ["x", "y"])
        return .point(Point(x: try reader.number("x"), y: try reader.number("y")))
    }

    private static func selector(_ reader: FieldReader) throws(WireError) -> FlowNodeSelector {
        FlowNodeSelector(role: NodeRole(rawValue: try reader.name("role")), name: try reader.optionalString("name"))
    }

    // MARK: Expectations

    private static func expectation(_ reader: FieldReader) throws(WireError) -> FlowExpectation {
        try checkKeys(reader, allowed: expectKeys)
        if reader.object.isEmpty { throw .badMessage("\(reader.path): expected at least one of \(expectKeys.joined(separator: ", "))") }
        var expectation = FlowExpectation()
        if let value = reader.value("stack") { expectation.stack = try stack(value, path: reader.fieldPath("stack")) }
        if let values = try reader.optionalArray("events") {
            var events: [ExpectedEvent] = []
            for (index, value) in values.enumerated() { events.append(try event(value, path: "\(reader.fieldPath("events"))[\(index)]")) }
            expectation.events = events
        }
        if let code = try reader.optionalChoice("error", ErrorCode.allCases.map(\.rawValue)) { expectation.error = ErrorCode(rawValue: code) }
        if let value = reader.value("node") {
            let path = reader.fieldPath("node")
            if case .array(let values) = value {
                for (index, element) in values.enumerated() { expectation.nodes.append(try node(try FieldReader(element, path: "\(path)[\(index)]"))) }
            } else {
                expectation.nodes.append(try node(try FieldReader(value, path: path)))
            }
        }
        return expectation
    }

    /// `["Home", "A"]`, or `{"target": {"tab": 1}, "stack": ["Search"]}`.
    private static func stack(_ value: JSONValue, path: String) throws(WireError) -> StackExpectation {
        if case .array = value { return StackExpectation(screens: try names(value, path: path)) }
        let reader = try FieldReader(value, path: path)
        try checkKeys(reader, allowed: ["target", "stack"])
        let target = try reader.reader("target")
        let location: StackTarget.Location
        if let tab = try target.optionalInt("tab") {
            location = .tab(tab)
        } else if let identifier = try target.optionalString("stack") {
            location = .stack(identifier)
        } else {
            throw .badMessage("\(target.path): expected {\"tab\": index} or {\"stack\": identifier}")
        }
        guard let screens = reader.value("stack") else { throw reader.missing("stack", "an array of screen names") }
        return StackExpectation(target: location, screens: try names(screens, path: reader.fieldPath("stack")))
    }

    private static func names(_ value: JSONValue, path: String) throws(WireError) -> [String] {
        guard case .array(let elements) = value else { throw .badMessage("\(path): expected an array of screen names, got \(FieldReader.describe(value))") }
        var names: [String] = []
        for (index, element) in elements.enumerated() {
            guard case .string(let name) = element else { throw .badMessage("\(path)[\(index)]: expected a screen name, got \(FieldReader.describe(element))") }
            names.append(name)
        }
        return names
    }

    /// `"Detail.viewWillAppear"`, `"transitionStart"` or `["viewWillAppear", "Detail"]`.
    private static func event(_ value: JSONValue, path: String) throws(WireError) -> ExpectedEvent {
        let expected = "an event like \"Detail.viewWillAppear\", \"transitionStart\" or [\"viewWillAppear\", \"Detail\"]"
        switch value {
        case .string(let text):
            if let name = SceneEvent.Name(rawValue: text) { return ExpectedEvent(name) }
            if let dot = text.lastIndex(of: "."), let name = SceneEvent.Name(rawValue: String(text[text.index(after: dot)...])) {
                return ExpectedEvent(name, screen: String(text[..<dot]))
            }
            throw .badMessage("\(path): expected \(expected), got \(FieldReader.describe(value)); events are \(eventNames)")
        case .array(let pair) where (1...2).contains(pair.count):
            guard case .string(let nameText) = pair[0], let name = SceneEvent.Name(rawValue: nameText) else {
                throw .badMessage("\(path)[0]: expected an event name (\(eventNames)), got \(FieldReader.describe(pair[0]))")
            }
            guard pair.count == 2 else { return ExpectedEvent(name) }
            guard case .string(let screen) = pair[1] else { throw .badMessage("\(path)[1]: expected a screen name, got \(FieldReader.describe(pair[1]))") }
            return ExpectedEvent(name, screen: screen)
        default:
            throw .badMessage("\(path): expected \(expected), got \(FieldReader.describe(value))")
        }
    }

    private static let eventNames = SceneEvent.Name.allCases.map(\.rawValue).joined(separator: ", ")

    private static func node(_ reader: FieldReader) throws(WireError) -> NodeExpectation {
        try checkKeys(reader, allowed: ["role", "name", "visible", "frame", "tolerance", "alpha", "fill", "text"])
        var expectation = NodeExpectation(node: try selector(reader), visible: try reader.optionalBool("visible") ?? true)
        if let value = reader.value("frame") {
            guard case .array(let numbers) = value, numbers.count == 4 else {
                throw reader.wrong("frame", "[x, y, width, height]", value)
            }
            var parts: [Double] = []
            for (index, number) in numbers.enumerated() {
                guard case .number(let part) = number, part.isFinite else {
                    throw .badMessage("\(reader.fieldPath("frame"))[\(index)]: expected a number, got \(FieldReader.describe(number))")
                }
                parts.append(part)
            }
            expectation.frame = Rect(x: parts[0], y: parts[1], width: parts[2], height: parts[3])
        }
        expectation.tolerance = try reader.optionalNumber("tolerance", in: 0...10_000) ?? NodeExpectation.defaultTolerance
        expectation.alpha = try reader.optionalNumber("alpha", in: 0...1)
        expectation.fill = try reader.optionalColor("fill")
        expectation.text = try reader.optionalString("text")
        if !expectation.visible, expectation.checksDrawnNode {
            throw .badMessage("\(reader.fieldPath("visible")): a node expected not to be drawn has no frame, alpha, fill or text to check")
        }
        return expectation
    }

    // MARK: Helpers

    /// Refuses keys the flow format does not have (a misspelt key would otherwise be ignored).
    private static func checkKeys(_ reader: FieldReader, allowed: [String]) throws(WireError) {
        if let key = reader.object.keys.first(where: { !allowed.contains($0) }) {
            throw .badMessage("\(reader.fieldPath(key)): unknown field; expected \(allowed.joined(separator: ", "))")
        }
    }

    /// Decodes a protocol message made of `reader`'s fields and `type`.
    private static func message(merging reader: FieldReader, type: String) throws(WireError) -> ClientMessage {
        var object = reader.object
        object["type"] = .string(type)
        return try message(.object(object), at: reader.path)
    }

    /// Decodes `json` as a protocol message; its errors' field paths are put under `path`.
    private static func message(_ json: JSONValue, at path: String) throws(WireError) -> ClientMessage {
        switch MessageDecoder.decode(json) {
        case .success(let message):
            return message
        case .failure(let failure):
            let error = failure.error
            guard !path.isEmpty else { throw error }
            // bad_message texts start with the field's path; the others are sentences.
            throw .badMessage(error.code == .badMessage ? "\(path).\(error.message)" : "\(path).op: \(error.message)")
        }
    }
}
