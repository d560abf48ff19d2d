import NavKit

/// Decodes the protocol's SCREEN, BAR, ROW, PAGE and ROOT objects.
enum SpecDecoder {
    static func screen(_ reader: FieldReader) throws(WireError) -> ScreenSpec {
        let name = try reader.name("name")
        var rows: [RowSpec] = []
        for row in try reader.readers("rows") { rows.append(try self.row(row)) }
        var link: LinkSpec?
        if let linkReader = try reader.optionalReader("link") {
            link = LinkSpec(
                height: try linkReader.optionalNumber("height", in: 1...1000) ?? 49,
                fill: try linkReader.optionalColor("fill") ?? Color.barBackground,
                text: try linkReader.optionalString("text")
            )
        }
        var pages: SubpagesSpec?
        if let pagesReader = try reader.optionalReader("pages") {
            pages = SubpagesSpec(
                root: try page(try pagesReader.reader("root")),
                top: try pagesReader.optionalNumber("top", in: 0...10_000) ?? 64,
                bottom: try pagesReader.optionalNumber("bottom", in: 0...10_000) ?? 0
            )
        }
        let options = PageOptions(
            hidesBottomBar: try reader.optionalBool("hidesBottomBar") ?? false,
            interactivePop: try reader.optionalBool("interactivePop") ?? true,
            popRange: try reader.optionalNumber("popRange", in: 0...10_000),
            width: try reader.optionalChoice("width", ["full", "half"]).flatMap(PageOptions.Width.init(rawValue:)) ?? .full
        )
        var swipePush: ScreenSpec?
        if let next = try reader.optionalReader("swipePush") { swipePush = try screen(next) }
        return ScreenSpec(
            name: name,
            title: try reader.optionalString("title"),
            background: try reader.optionalColor("background") ?? .groupedBackground,
            bar: try bar(try reader.optionalReader("bar")),
            rows: rows,
            options: options,
            link: link,
            pages: pages,
            swipePush: swipePush,
            kind: try reader.optionalString("kind").map { kind throws(WireError) in
                guard !kind.isEmpty else { throw .badMessage("\(reader.fieldPath("kind")): expected a non-empty string") }
                return kind
            }
        )
    }

    /// A ROW: its title and detail, the action a tap runs or emits, and the action deleting it emits.
    static func row(_ row: FieldReader) throws(WireError) -> RowSpec {
        var spec = RowSpec(title: try row.string("title"), detail: try row.optionalString("detail"))
        spec.subtitle = try row.optionalString("subtitle")
        spec.isOn = try row.optionalBool("switch")
        spec.style = try row.optionalChoice("style", ["default", "destructive"]).flatMap(RowSpec.Style.init(rawValue:)) ?? .default
        spec.isEnabled = !(try row.optionalBool("disabled") ?? false)
        if let actionReader = try row.optionalReader("action") {
            if let emit = try self.emit(actionReader) {
                spec.emit = emit
            } else {
                spec.action = try MessageDecoder.command(actionReader, op: try MessageDecoder.operation(actionReader))
            }
        }
        if let deleteReader = try row.optionalReader("delete") {
            guard let emit = try self.emit(deleteReader) else {
                throw .badMessage("\(deleteReader.path): expected an action that emits, like {\"emit\":\"remove\"}")
            }
            spec.delete = emit
        }
        return spec
    }

    /// An `update`'s row edits: each has exactly one of `insert` (a ROW, with `at`), `delete` (an
    /// index), `reload` (a ROW, with `at`) and `move` (an index, with `to`).
    static func rowEdits(_ reader: FieldReader) throws(WireError) -> [ScreenUpdate.RowEdit] {
        var edits: [ScreenUpdate.RowEdit] = []
        for edit in try reader.readers("rows") {
            let kinds = ["insert", "delete", "reload", "move"].filter(edit.has)
            guard kinds.count == 1 else {
                throw .badMessage("\(edit.path): expected exactly one of insert, delete, reload and move, got \(kinds.isEmpty ? "none" : kinds.joined(separator: ", "))")
            }
            switch kinds[0] {
            case "insert": edits.append(.insert(try row(try edit.reader("insert")), at: try edit.int("at")))
            case "delete": edits.append(.delete(try edit.int("delete")))
            case "reload": edits.append(.reload(try row(try edit.reader("reload")), at: try edit.int("at")))
            default: edits.append(.move(from: try edit.int("move"), to: try edit.int("to")))
            }
        }
        return edits
    }

    /// An action that tells the driving program (`{"emit":"buy","value":{…}}`), or nil for one
    /// that runs a command (`op`); one may not be both.
    static func emit(_ reader: FieldReader) throws(WireError) -> RowEmit? {
        guard reader.has("emit") else { return nil }
        if reader.has("op") {
            throw .badMessage("\(reader.path): an action either emits (emit) or runs a command (op), not both")
        }
        let name = try reader.name("emit")
        guard name.utf8.count <= 128 else {
            throw .badMessage("\(reader.fieldPath("emit")): expected at most 128 bytes, got \(name.utf8.count)")
        }
        return RowEmit(name: name, value: reader.value("value").map { JSONWriter.write($0) })
    }

    static func bar(_ reader: FieldReader?) throws(WireError) -> BarSpec {
        guard let reader else { return BarSpec() }
        return BarSpec(
            style: try reader.optionalChoice("style", ["default", "transparent", "hidden"]).flatMap(BarSpec.Style.init(rawValue:)) ?? .default,
            fill: try reader.optionalColor("fill"),
            alpha: try reader.optionalNumber("alpha", in: 0...1) ?? 1,
            tint: try reader.optionalColor("tint"),
            titleColor: try reader.optionalColor("titleColor")
        )
    }

    static func page(_ reader: FieldReader) throws(WireError) -> SubpageSpec {
        SubpageSpec(name: try reader.name("name"), fill: try reader.optionalColor("fill") ?? .white, title: try reader.optionalString("title"))
    }

    /// What `present` shows: a container (it has a `kind` and no `name`), or a SCREEN, which
    /// comes in a navigation stack of its own (id `presented`) so that it can push.
    static func presented(_ reader: FieldReader) throws(WireError) -> RootSpec {
        if isScreen(reader) { return .stack(id: "presented", root: try screen(reader)) }
        return try root(reader)
    }

    /// Where a SCREEN or a container may stand (a TAB's `root`, `present`'s `content`): a SCREEN
    /// has a `name`; a container has a `kind` and no name.
    static func isScreen(_ reader: FieldReader) -> Bool {
        reader.has("name") || !reader.has("kind")
    }

    static func root(_ reader: FieldReader) throws(WireError) -> RootSpec {
        RootSpec(try ContainerKinds.builtIn.container(reader))
    }
}
