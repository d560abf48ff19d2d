import NavKit
import NavWire

/// A snapshot as a recording's `restore` line holds it (docs/recording.md): short keys and flat
/// number arrays, since a checkpoint is what a session's state shrinks to.
extension SceneSnapshot {
    var json: JSONValue {
        var object = JSONObject()
        object["time"] = .number(time)
        object["viewport"] = ServerMessage.viewportJSON(viewport)
        var settings = JSONObject()
        settings["busy"] = .string(self.settings.busyPolicy.rawValue)
        settings["slowMotion"] = .number(self.settings.slowMotion)
        settings["popGesture"] = .bool(self.settings.popGestureEnabled)
        if let range = self.settings.popGestureRange { settings["popRange"] = .number(range) }
        settings["transition"] = Self.json(self.settings.transition)
        object["settings"] = .object(settings)
        object["ids"] = .array([.number(Double(controllerIDs)), .number(Double(nodeIDs))])
        if let root { object["root"] = .number(Double(root.message)) }
        object["stacks"] = .array(stacks.map(Self.json))
        if let selectedTab { object["tab"] = .number(Double(selectedTab)) }
        if !badges.isEmpty { object["badges"] = Self.json(badges) }
        if !presentations.isEmpty { object["presented"] = .array(presentations.map(Self.json)) }
        object["nodes"] = .array(nodes.flatMap { [.number(Double($0.first)), .number(Double($0.count))] })
        object["placed"] = .array(placements.map { node in
            .array([Double(node.index), node.frame.x, node.frame.y, node.frame.width, node.frame.height, node.alpha, node.scale, node.cornerRadius]
                .map { .number($0) } + [.bool(node.clips), .bool(node.onStandby), .bool(node.takesTouches)])
        })
        return .object(object)
    }

    /// A built-in transition by name, a custom one as the protocol's `custom` object.
    private static func json(_ transition: ParametricTransition) -> JSONValue {
        guard transition.name == "custom" else { return .string(transition.name) }
        var from = JSONObject(), cover = JSONObject(), object = JSONObject()
        from["dx"] = .number(transition.from.dx)
        from["dy"] = .number(transition.from.dy)
        from["alpha"] = .number(transition.fromAlpha)
        cover["dx"] = .number(transition.cover.dx)
        cover["dy"] = .number(transition.cover.dy)
        cover["dim"] = .number(transition.dim)
        object["kind"] = "custom"
        object["duration"] = .number(transition.duration)
        object["curve"] = .string(transition.curve.name ?? "easeInOut")
        object["from"] = .object(from)
        object["cover"] = .object(cover)
        return .object(object)
    }

    private static func json(_ badges: [Badge]) -> JSONValue {
        .array(badges.map { badge in
            var entry = JSONObject()
            if let text = badge.text { entry["text"] = .string(text) }
            if let color = badge.color { entry["color"] = .string(color.hex) }
            return .object(entry)
        })
    }

    /// A presentation: the row (`[vc, section, row]`) or the command kept (`sent`) whose
    /// `present` made it, and its stacks as the app's are written.
    private static func json(_ presentation: Presentation) -> JSONValue {
        var object = JSONObject()
        switch presentation.source {
        case .row(let vc, let path): object["row"] = .array([.string(vc), .number(Double(path.section)), .number(Double(path.row))])
        case .sent(let place): object["sent"] = .number(Double(place))
        }
        object["stacks"] = .array(presentation.stacks.map(json))
        if let tab = presentation.selectedTab { object["tab"] = .number(Double(tab)) }
        if !presentation.badges.isEmpty { object["badges"] = json(presentation.badges) }
        if let detent = presentation.detent { object["detent"] = .number(Double(detent)) }
        return .object(object)
    }

    private static func json(_ stack: Stack) -> JSONValue {
        var object = JSONObject()
        object["pages"] = .array(stack.pages.map { page in
            var entry = JSONObject()
            entry["id"] = .string(page.id)
            switch page.spec {
            case .path(let spec)?:
                entry["from"] = .string(spec.vc)
                entry["steps"] = .array(spec.steps.map { step in
                    switch step {
                    case .swipe: "swipe"
                    case .row(let path, let index): .array([.number(Double(path.section)), .number(Double(path.row)), .number(Double(index))])
                    }
                })
            case .sent(let sent)?:
                entry["sent"] = .array([.number(Double(sent.message)), .number(Double(sent.index))])
            case nil:
                break
            }
            entry["arrival"] = json(page.arrival)
            if page.loaded { entry["loaded"] = true }
            if page.scrollOffset != 0 { entry["scroll"] = .number(page.scrollOffset) }
            if let row = page.selectedRow { entry["selected"] = .array([.number(Double(row.section)), .number(Double(row.row))]) }
            if page.madeDeleteButton { entry["deleteButton"] = true }
            if !page.edits.isEmpty {
                entry["edits"] = .array(page.edits.map { edit in
                    switch edit {
                    case .update(let place): .object(JSONObject(["update": .number(Double(place))]))
                    case .delete(let path): .object(JSONObject(["delete": .array([.number(Double(path.section)), .number(Double(path.row))])]))
                    case .toggle(let path, let on): .object(JSONObject(["toggle": .array([.number(Double(path.section)), .number(Double(path.row)), .bool(on)])]))
                    }
                })
            }
            if let subpages = page.subpages {
                entry["subpages"] = .array(subpages.map { page in
                    var subpage = JSONObject()
                    subpage["name"] = .string(page.spec.name)
                    subpage["fill"] = .string(page.spec.fill.hex)
                    if let title = page.spec.title { subpage["title"] = .string(title) }
                    if page.loaded { subpage["loaded"] = true }
                    return .object(subpage)
                })
            }
            return .object(entry)
        })
        object["attached"] = .array(stack.attached.map { .number(Double($0)) })
        if let split = stack.split {
            // Which pages are visible, and which the split has ever shown, as lists of page indices.
            let indices = { (test: (StackedSplitScrollMath.PageVisibility) -> Bool) -> JSONValue in
                .array(split.visibility.indices.filter { test(split.visibility[$0]) }.map { .number(Double($0)) })
            }
            var entry = JSONObject()
            entry["offset"] = .number(split.offset)
            entry["active"] = .number(Double(split.active))
            entry["position"] = .string(split.position == .left ? "left" : "right")
            entry["visible"] = indices(\.isVisible)
            entry["seen"] = indices { !$0.needsInitialPresentation }
            object["split"] = .object(entry)
        }
        return .object(object)
    }

    /// Reads what `json` wrote; `line` is the line's number, for errors.
    init(_ value: JSONValue, line: Int) throws(RecordingError) {
        let reader = SnapshotReader(line: line)
        guard let object = value.objectValue else { throw reader.error("restore", "expected an object") }
        let time = try reader.number(object["time"], "time")
        var resize = object["viewport"]?.objectValue ?? JSONObject()
        resize["type"] = "resize"
        guard case .success(.resize(let viewport)) = MessageDecoder.decode(.object(resize)) else {
            throw reader.error("viewport", "expected width, height, scale and safeArea as a resize message has them")
        }
        guard let settings = object["settings"]?.objectValue, let busy = settings["busy"]?.stringValue.flatMap(BusyPolicy.init(rawValue:)),
              let popGesture = settings["popGesture"]?.boolValue, let transition = settings["transition"].flatMap(SnapshotReader.transition)
        else { throw reader.error("settings", "expected busy, slowMotion, popGesture and transition") }
        let ids = try reader.integers(object["ids"], "ids")
        guard ids.count == 2 else { throw reader.error("ids", "expected the last page id and the last node id") }
        let stacks = try reader.stacks(object["stacks"])
        let badges = try reader.badges(object["badges"])
        var presentations: [Presentation] = []
        for presentation in object["presented"]?.arrayValue ?? [] { presentations.append(try reader.presentation(presentation)) }
        let flat = try reader.integers(object["nodes"], "nodes")
        guard flat.count.isMultiple(of: 2) else { throw reader.error("nodes", "expected pairs of a first id and a count") }
        var placements: [NodePlacement] = []
        for node in object["placed"]?.arrayValue ?? [] {
            guard let fields = node.arrayValue, fields.count == 11, case let numbers = fields.prefix(8).compactMap(\.numberValue), numbers.count == 8,
                  numbers.allSatisfy(\.isFinite), let index = Int(exactly: numbers[0]), let clips = fields[8].boolValue,
                  let standby = fields[9].boolValue, let touches = fields[10].boolValue
            else { throw reader.error("placed", "expected [index, x, y, width, height, alpha, scale, radius, clips, standby, touches]") }
            placements.append(NodePlacement(
                index: index, frame: Rect(x: numbers[1], y: numbers[2], width: numbers[3], height: numbers[4]), alpha: numbers[5], scale: numbers[6],
                cornerRadius: numbers[7], clips: clips, onStandby: standby, takesTouches: touches))
        }
        self.init(
            time: time, viewport: viewport,
            settings: Settings(
                busyPolicy: busy, slowMotion: try reader.number(settings["slowMotion"], "settings.slowMotion"), popGestureEnabled: popGesture,
                popGestureRange: settings["popRange"]?.numberValue, transition: transition),
            controllerIDs: ids[0], nodeIDs: ids[1],
            root: try object["root"].map { value throws(RecordingError) in SentScreen(message: try reader.integer(value, "root"), index: 0) }, stacks: stacks, selectedTab: try object["tab"].map { value throws(RecordingError) in try reader.integer(value, "tab") },
            badges: badges, presentations: presentations, nodes: stride(from: 0, to: flat.count, by: 2).map { NodeIDRun(first: flat[$0], count: flat[$0 + 1]) },
            placements: placements)
    }
}

/// Reads a `restore` line's fields, with errors that name the field.
private struct SnapshotReader {
    let line: Int

    /// A transition as `SceneSnapshot.json` writes it, read as the protocol reads one.
    static func transition(_ value: JSONValue) -> ParametricTransition? {
        if let name = value.stringValue { return ParametricTransition.named(name) }
        let configure: JSONValue = .object(JSONObject(["type": "command", "id": "restore", "op": "configure", "transition": value]))
        guard case .success(.command(_, .navigation(.configure(let configuration)))) = MessageDecoder.decode(configure) else { return nil }
        return configuration.transition
    }

    func error(_ field: String, _ message: String) -> RecordingError {
        .badLine(line, "restore.\(field): \(message)")
    }

    func number(_ value: JSONValue?, _ field: String) throws(RecordingError) -> Double {
        guard let number = value?.numberValue, number.isFinite else { throw error(field, "expected a number") }
        return number
    }

    func integer(_ value: JSONValue?, _ field: String) throws(RecordingError) -> Int {
        guard let number = value?.numberValue, let integer = Int(exactly: number), integer >= 0 else { throw error(field, "expected a whole number ≥ 0") }
        return integer
    }

    func integers(_ value: JSONValue?, _ field: String) throws(RecordingError) -> [Int] {
        guard let array = value?.arrayValue else { throw error(field, "expected an array of whole numbers") }
        var integers: [Int] = []
        for element in array { integers.append(try integer(element, field)) }
        return integers
    }

    func stacks(_ value: JSONValue?) throws(RecordingError) -> [SceneSnapshot.Stack] {
        var stacks: [SceneSnapshot.Stack] = []
        for stack in value?.arrayValue ?? [] { stacks.append(try self.stack(stack)) }
        return stacks
    }

    func badges(_ value: JSONValue?) throws(RecordingError) -> [SceneSnapshot.Badge] {
        var badges: [SceneSnapshot.Badge] = []
        for badge in value?.arrayValue ?? [] {
            let entry = badge.objectValue ?? JSONObject()
            let color = try entry["color"].map { value throws(RecordingError) in
                guard let color = value.stringValue.flatMap(Color.init(hex:)) else { throw error("badges", "color: expected #RRGGBB") }
                return color
            }
            badges.append(SceneSnapshot.Badge(text: entry["text"]?.stringValue, color: color))
        }
        return badges
    }

    func presentation(_ value: JSONValue) throws(RecordingError) -> SceneSnapshot.Presentation {
        guard let object = value.objectValue else { throw error("presented", "expected an object") }
        let source: PresentationSource
        if let sent = object["sent"] {
            source = .sent(try integer(sent, "presented.sent"))
        } else if let row = object["row"]?.arrayValue, row.count == 3, let vc = row[0].stringValue {
            let numbers = try integers(.array(Array(row.dropFirst())), "presented.row")
            source = .row(vc: vc, path: RowPath(row: numbers[1], section: numbers[0]))
        } else {
            throw error("presented", "expected row ([vc, section, row]) or sent (a command's number)")
        }
        return SceneSnapshot.Presentation(
            source: source, stacks: try stacks(object["stacks"]),
            selectedTab: try object["tab"].map { value throws(RecordingError) in try integer(value, "presented.tab") }, badges: try badges(object["badges"]),
            detent: try object["detent"].map { value throws(RecordingError) in try integer(value, "presented.detent") })
    }

    func stack(_ value: JSONValue) throws(RecordingError) -> SceneSnapshot.Stack {
        guard let object = value.objectValue, let pages = object["pages"]?.arrayValue, !pages.isEmpty else {
            throw error("stacks", "expected each stack's pages")
        }
        var saved: [SceneSnapshot.Page] = []
        for page in pages {
            let entry = page.objectValue ?? JSONObject()
            guard let id = entry["id"]?.stringValue, let arrival = entry["arrival"].flatMap(Self.transition) else {
                throw error("stacks", "expected each page's id and arrival (a built-in transition's name or a custom transition)")
            }
            var spec: PageSource?
            if let sent = entry["sent"] {
                let numbers = try integers(sent, "sent")
                guard numbers.count == 2 else { throw error("sent", "expected [command, screen]") }
                spec = .sent(SentScreen(message: numbers[0], index: numbers[1]))
            } else if let from = entry["from"]?.stringValue {
                var steps: [SpecPath.Step] = []
                for step in entry["steps"]?.arrayValue ?? [] {
                    if step.stringValue == "swipe" {
                        steps.append(.swipe)
                    } else {
                        let numbers = try integers(step, "steps")
                        guard numbers.count == 3 else { throw error("steps", "expected [section, row, screen] or \"swipe\"") }
                        steps.append(.row(RowPath(row: numbers[1], section: numbers[0]), index: numbers[2]))
                    }
                }
                spec = .path(SpecPath(vc: from, steps: steps))
            }
            var selected: RowPath?
            if let row = entry["selected"] {
                let numbers = try integers(row, "selected")
                guard numbers.count == 2 else { throw error("selected", "expected [section, row]") }
                selected = RowPath(row: numbers[1], section: numbers[0])
            }
            var subpages: [SceneSnapshot.Subpage]?
            if let list = entry["subpages"] {
                subpages = []
                for subpage in list.arrayValue ?? [] {
                    guard let object = subpage.objectValue, let name = object["name"]?.stringValue, let fill = object["fill"]?.stringValue.flatMap(Color.init(hex:)) else {
                        throw error("subpages", "expected each page's name and fill (#RRGGBB or #RRGGBBAA)")
                    }
                    subpages?.append(SceneSnapshot.Subpage(
                        spec: SubpageSpec(name: name, fill: fill, title: object["title"]?.stringValue), loaded: object["loaded"]?.boolValue ?? false))
                }
            }
            var edits: [PageEdit] = []
            for edit in entry["edits"]?.arrayValue ?? [] {
                let object = edit.objectValue ?? JSONObject()
                if let update = object["update"] {
                    edits.append(.update(try integer(update, "edits.update")))
                } else if let delete = object["delete"] {
                    let numbers = try integers(delete, "edits.delete")
                    guard numbers.count == 2 else { throw error("edits", "delete: expected [section, row]") }
                    edits.append(.delete(RowPath(row: numbers[1], section: numbers[0])))
                } else if let toggle = object["toggle"]?.arrayValue, toggle.count == 3, let on = toggle[2].boolValue {
                    let numbers = try integers(.array(Array(toggle.prefix(2))), "edits.toggle")
                    edits.append(.toggle(RowPath(row: numbers[1], section: numbers[0]), on: on))
                } else {
                    throw error("edits", "expected update (a command's number), delete ([section, row]) or toggle ([section, row, on])")
                }
            }
            saved.append(SceneSnapshot.Page(
                id: id, spec: spec, arrival: arrival, loaded: entry["loaded"]?.boolValue ?? false,
                scrollOffset: try entry["scroll"].map { value throws(RecordingError) in try number(value, "scroll") } ?? 0, selectedRow: selected,
                subpages: subpages, edits: edits, madeDeleteButton: entry["deleteButton"]?.boolValue ?? false))
        }
        return SceneSnapshot.Stack(pages: saved, attached: try integers(object["attached"], "attached"), split: try object["split"].map { value throws(RecordingError) in try split(value, pages: saved.count) })
    }

    func split(_ value: JSONValue, pages: Int) throws(RecordingError) -> SceneSnapshot.Split {
        guard let object = value.objectValue, let position = object["position"]?.stringValue, position == "left" || position == "right" else {
            throw error("split", "expected offset, active, position (left or right), visible and seen")
        }
        let visible = Set(try integers(object["visible"], "split.visible")), seen = Set(try integers(object["seen"], "split.seen"))
        guard visible.union(seen).allSatisfy({ $0 < pages }) else { throw error("split", "a page index past the stack's \(pages) pages") }
        return SceneSnapshot.Split(
            offset: try number(object["offset"], "split.offset"), active: try integer(object["active"], "split.active"), position: position == "left" ? .left : .right,
            visibility: (0..<pages).map { StackedSplitScrollMath.PageVisibility(isVisible: visible.contains($0), needsInitialPresentation: !seen.contains($0)) })
    }
}
