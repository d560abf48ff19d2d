import NavKit

extension TabsSpec {
    /// `{"kind":"tabs","tabs":[TAB, ...],"selected":0}` (or `sideTabs`): 1 to 5 tabs with unique
    /// ids. A TAB's `root` is a SCREEN (it has a `name`), hosted by the bar's own kind of stack, or
    /// a stack container of any kind (it has a `kind` and no `name`), whose `id` defaults to the tab's.
    static func decode(_ reader: FieldReader, style: TabBarStyle, kinds: ContainerKinds) throws(WireError) -> any ContainerSpec {
        let tabReaders = try reader.readers("tabs")
        if tabReaders.isEmpty { throw .badMessage("\(reader.fieldPath("tabs")): expected at least one tab") }
        if tabReaders.count > TabController.maxTabs {
            throw .badMessage("\(reader.fieldPath("tabs"))[\(TabController.maxTabs)]: a tab bar has at most \(TabController.maxTabs) tabs, got \(tabReaders.count)")
        }
        var tabs: [TabSpec] = []
        var ids = Set<String>()
        for tab in tabReaders {
            let id = try tab.name("id")
            if !ids.insert(id).inserted {
                throw .badMessage("\(tab.fieldPath("id")): another tab already has id \(id); tab ids name their stacks and must be unique")
            }
            tabs.append(TabSpec(
                id: id, title: try tab.string("title"), icon: try tab.optionalString("icon"),
                badge: try tab.optionalString("badge"), badgeColor: try tab.optionalColor("badgeColor"),
                content: try content(of: tab, id: id, kinds: kinds)
            ))
        }
        let selected = try reader.optionalInt("selected") ?? 0
        guard tabs.indices.contains(selected) else {
            throw .badMessage("\(reader.fieldPath("selected")): expected a tab index from 0 to \(tabs.count - 1), got \(selected)")
        }
        return TabsSpec(tabs: tabs, selected: selected, style: style)
    }

    /// A TAB's `root`: a SCREEN, or a stack container that takes the tab's id unless it names its own.
    private static func content(of tab: FieldReader, id: String, kinds: ContainerKinds) throws(WireError) -> TabSpec.Content {
        let root = try tab.reader("root")
        if SpecDecoder.isScreen(root) { return .screen(try SpecDecoder.screen(root)) }
        var object = root.object
        if !root.has("id") { object["id"] = .string(id) }
        let container = try kinds.container(try FieldReader(.object(object), path: root.path))
        guard container.isStack else {
            throw .badMessage("\(root.fieldPath("kind")): a tab holds a stack of pages, not \(container.kind)")
        }
        return .container(container)
    }
}
