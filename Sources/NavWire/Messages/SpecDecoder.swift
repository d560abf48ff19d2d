import NavKit

/// Decodes the protocol's SCREEN, BAR, ROW, PAGE and ROOT objects.
enum SpecDecoder {
    static func screen(_ reader: FieldReader) throws(WireError) -> ScreenSpec {
        let name = try reader.name("name")
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
            sections: try sections(reader),
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

    /// A SCREEN's list: its `sections` (SECTION objects), or its `rows` as one section without
    /// texts; a screen may not have both.
    static func sections(_ reader: FieldReader) throws(WireError) -> [SectionSpec] {
        guard reader.has("sections") else { return [SectionSpec(rows: try rows(reader))] }
        if reader.has("rows") {
            throw .badMessage("\(reader.fieldPath("rows")): a screen has rows or sections, not both (put the rows in a section)")
        }
        var sections: [SectionSpec] = []
        for section in try reader.readers("sections") {
            sections.append(SectionSpec(header: try section.optionalString("header"), footer: try section.optionalString("footer"), rows: try rows(section)))
        }
        return sections
    }

    private static func rows(_ reader: FieldReader) throws(WireError) -> [RowSpec] {
        var rows: [RowSpec] = []
        for row in try reader.readers("rows") { rows.append(try self.row(row)) }
        return rows
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
    /// index), `reload` (a ROW, with `at`) and `move` (an index, with `to`), in the section
    /// `section` (0 when left out); a move goes to `toSection` (its own section when left out).
    static func rowEdits(_ reader: FieldReader) throws(WireError) -> [ScreenUpdate.RowEdit] {
        var edits: [ScreenUpdate.RowEdit] = []
        for edit in try reader.readers("rows") {
            let kinds = ["insert", "delete", "reload", "move"].filter(edit.has)
            guard kinds.count == 1 else {
                throw .badMessage("\(edit.path): expected exactly one of insert, delete, reload and move, got \(kinds.isEmpty ? "none" : kinds.joined(separator: ", "))")
            }
            let section = try edit.optionalInt("section") ?? 0
            func path(_ key: String, section: Int = section) throws(WireError) -> RowPath { RowPath(row: try edit.int(key), section: section) }
            switch kinds[0] {
            case "insert": edits.append(.insert(try row(try edit.reader("insert")), at: try path("at")))
            case "delete": edits.append(.delete(try path("delete")))
            case "reload": edits.append(.reload(try row(try edit.reader("reload")), at: try path("at")))
            default: edits.append(.move(from: try path("move"), to: try path("to", section: try edit.optionalInt("toSection") ?? section)))
            }
        }
        return edits
    }

    /// An `update`'s section edits: each names its `section` and a new `header` or `footer` (an
    /// empty string removes it).
    static func sectionEdits(_ reader: FieldReader) throws(WireError) -> [ScreenUpdate.SectionEdit] {
        var edits: [ScreenUpdate.SectionEdit] = []
        for edit in try reader.readers("sections") {
            let header = try edit.optionalString("header"), footer = try edit.optionalString("footer")
            guard header != nil || footer != nil else {
                throw .badMessage("\(edit.path): missing; expected a header or a footer to change")
            }
            edits.append(ScreenUpdate.SectionEdit(section: try edit.int("section"), header: header, footer: footer))
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
            titleColor: try reader.optionalColor("titleColor"),
            largeTitle: try reader.optionalBool("largeTitle") ?? false
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
