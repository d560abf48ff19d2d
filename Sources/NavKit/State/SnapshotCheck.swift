/// Whether a scene restored from a snapshot is the scene the snapshot was taken of, before
/// anyone relies on it: a snapshot describes what it knows, and anything it misses (a node kept
/// out of sight, a changed spec) shows up here instead of in a person's frames later.
///
/// Not thread-safe: both scenes are used on the calling thread, and both are driven by the
/// probes (drop them afterwards).
public enum SnapshotCheck {
    /// What differs between `original` and `restored` (nil: nothing found), comparing:
    /// - their state replies, their snapshots, every page's spec;
    /// - every node they keep, property by property, in `snapshotNodes()` order;
    /// - their pictures in `kinds` now, and after each frame of the probes: everything presented
    ///   dismissed, every tab selected in turn and its stack popped, animated, to its root; the
    ///   pictures at 60 frames a second.
    ///
    /// `sent` are the commands clients sent, as for `Scene.snapshot(sent:)`.
    public static func difference(
        between original: Scene, and restored: Scene, kinds: ScenePicture.Kinds, sent: [Command] = []
    ) -> String? {
        if let difference = differenceAtRest(original, restored, kinds: kinds, sent: sent) { return difference }
        return differenceInProbes(original, restored, kinds: kinds)
    }

    private static func differenceAtRest(_ original: Scene, _ restored: Scene, kinds: ScenePicture.Kinds, sent: [Command]) -> String? {
        // Pictures first: a restored scene is marked changed until it draws.
        let pictures = (original.currentPicture(kinds: kinds), restored.currentPicture(kinds: kinds))
        if pictures.0 != pictures.1 { return "the pictures differ" + firstDifference(pictures.0, pictures.1) }
        if original.state != restored.state { return "the state replies differ: " + stateDifference(original.state, restored.state) }
        let snapshots = (
            Result { () throws(SceneSnapshotError) in try original.snapshot(sent: SentCommands(sent)) },
            Result { () throws(SceneSnapshotError) in try restored.snapshot(sent: SentCommands(sent)) }
        )
        guard case .success(let before) = snapshots.0, case .success(let after) = snapshots.1 else { return "a scene gives no snapshot" }
        if before != after { return "the snapshots differ: " + snapshotDifference(before, after) }
        let pages = (allPages(original), allPages(restored))
        if pages.0.map(\.spec) != pages.1.map(\.spec) { return "the pages' specs differ" }
        let nodes = (original.snapshotNodes(), restored.snapshotNodes())
        guard nodes.0.count == nodes.1.count else { return "the scenes keep \(nodes.0.count) and \(nodes.1.count) nodes" }
        for (a, b) in zip(nodes.0, nodes.1) {
            // Out of the scene's tree, a page's insides keep the layout they last had (the viewport
            // since changed, say: frames, texts cut to a width) until it is shown again, which
            // lays it out first; the snapshot lays them out now. There only what the nodes are is
            // compared; the probes show every page again and compare what it then draws.
            let laidOutWhenShown = a.parent != nil && a.topmostAncestor !== original.rootNode
            if let property = a.difference(from: b, identityOnly: laidOutWhenShown) {
                return "node \(a.id) (\(a.name ?? "unnamed")) differs in its \(property)"
            }
        }
        return nil
    }

    private static func differenceInProbes(_ original: Scene, _ restored: Scene, kinds: ScenePicture.Kinds) -> String? {
        let tabCount = (original.root as? TabController)?.tabs.count ?? 1
        var commands = Array(repeating: Command.dismiss(), count: original.presentationController?.presented.count ?? 0)
        for tab in 0..<tabCount {
            if original.root is TabController { commands.append(.selectTab(.index(tab))) }
            let depth = original.state.map(Self.stackDepths)?[tab] ?? 1
            commands += Array(repeating: .pop(), count: max(depth - 1, 0))
        }
        for (index, command) in commands.enumerated() {
            var results: [String] = []
            for scene in [original, restored] { scene.handle(command) { results.append("\($0)") } }
            var frames = 0
            while original.needsTick || restored.needsTick || results.count < 2 {
                frames += 1
                guard frames < 600 else { return "probe \(index + 1) (\(command.op)) does not settle" }
                let time = original.now + 1.0 / 60
                let pictures = (original.picture(now: time, kinds: kinds), restored.picture(now: time, kinds: kinds))
                if pictures.0 != pictures.1 { return "probe \(index + 1) (\(command.op)) draws another frame \(frames)" }
            }
            if results[0] != results[1] { return "probe \(index + 1) (\(command.op)) answers otherwise" }
        }
        return nil
    }

    /// Where two pictures first differ, for the message: ` at item 12 (row Rock): …`.
    private static func firstDifference(_ a: ScenePicture, _ b: ScenePicture) -> String {
        let items = (a.list?.items ?? [], b.list?.items ?? [])
        if items.0.count != items.1.count { return " in their lists: \(items.0.count) and \(items.1.count) items" }
        for (index, (x, y)) in zip(items.0, items.1).enumerated() where x != y {
            return " at item \(index) (\(x.role?.rawValue ?? "") \(x.name ?? "")): \(x) and \(y)"
        }
        return " in their layer trees"
    }

    /// Which parts of two snapshots differ, for the message.
    private static func snapshotDifference(_ a: SceneSnapshot, _ b: SceneSnapshot) -> String {
        var parts: [String] = []
        if a.time != b.time || a.viewport != b.viewport || a.settings != b.settings { parts.append("clock, viewport or settings") }
        if a.controllerIDs != b.controllerIDs || a.nodeIDs != b.nodeIDs { parts.append("id counters \(a.controllerIDs)/\(a.nodeIDs) and \(b.controllerIDs)/\(b.nodeIDs)") }
        for (index, (x, y)) in zip(a.stacks, b.stacks).enumerated() where x != y { parts.append("stack \(index): \(x) and \(y)") }
        if a.root != b.root || a.selectedTab != b.selectedTab || a.badges != b.badges { parts.append("root, tab or badges") }
        if a.nodes != b.nodes { parts.append("node ids") }
        for (x, y) in zip(a.placements, b.placements) where x != y {
            parts.append("placement \(x) and \(y)")
            break
        }
        if a.placements.count != b.placements.count { parts.append("\(a.placements.count) and \(b.placements.count) placements") }
        return parts.joined(separator: "; ")
    }

    /// Where two states first differ, for the message.
    private static func stateDifference(_ a: NavigationState?, _ b: NavigationState?) -> String {
        func stacks(_ state: NavigationState?) -> [StackState] {
            switch state {
            case .stack(let stack)?: [stack]
            case .tabs(let tabs)?: tabs.tabs.map(\.stack)
            default: []
            }
        }
        for (index, (x, y)) in zip(stacks(a), stacks(b)).enumerated() where x != y {
            if x.pages.count != y.pages.count { return "stack \(index) has \(x.pages.count) and \(y.pages.count) pages" }
            for (page, (p, q)) in zip(x.pages, y.pages).enumerated() where p != q { return "stack \(index), page \(page): \(p) and \(q)" }
            return "stack \(index): \(x) and \(y)"
        }
        return "\(String(describing: a)) and \(String(describing: b))"
    }

    /// The number of pages in each stack, in tab order.
    private static func stackDepths(_ state: NavigationState) -> [Int] {
        switch state {
        case .stack(let stack): [stack.pages.count]
        case .tabs(let tabs): tabs.tabs.map(\.stack.pages.count)
        case .page: [1]
        }
    }

    private static func allPages(_ scene: Scene) -> [ScreenController] {
        guard let containers = try? scene.snapshotContainers() else { return [] }
        return containers.flatMap(\.stacks).flatMap(\.viewControllers).compactMap { $0 as? ScreenController }
    }
}

extension Node {
    /// The first property in which `other` draws or behaves otherwise than this node (every
    /// property a picture or a hit test reads, its id, and how many children it has), or nil;
    /// with `identityOnly`, only what the node is: its id, role, name, page and children.
    func difference(from other: Node, identityOnly: Bool = false) -> String? {
        if identityOnly {
            let identity: [(String, Bool)] = [
                ("id", id == other.id), ("role", role == other.role), ("name", name == other.name), ("vc", controllerID == other.controllerID),
                ("children", children.count == other.children.count),
            ]
            return identity.first { !$0.1 }?.0
        }
        let properties: [(String, Bool)] = [
            ("id", id == other.id), ("frame", frame == other.frame), ("alpha", alpha == other.alpha), ("scale", scale == other.scale),
            ("hidden", isHidden == other.isHidden), ("standby", isOnStandby == other.isOnStandby), ("clips", clipsToBounds == other.clipsToBounds),
            ("drawsChildren", drawsChildren == other.drawsChildren), ("interaction", isUserInteractionEnabled == other.isUserInteractionEnabled),
            ("selected", isSelected == other.isSelected), ("children", children.count == other.children.count),
            ("attached", (parent == nil) == (other.parent == nil)), ("fill", fill == other.fill), ("radius", cornerRadius == other.cornerRadius),
            ("shadow", shadow == other.shadow), ("border", border == other.border), ("text", text == other.text),
            ("textColor", textColor == other.textColor), ("font", font == other.font), ("alignment", alignment == other.alignment),
            ("icon", icon == other.icon), ("role", role == other.role), ("name", name == other.name), ("vc", controllerID == other.controllerID),
        ]
        return properties.first { !$0.1 }?.0
    }
}

extension Node {
    /// The node at the top of this one's tree: itself when it has no parent.
    var topmostAncestor: Node {
        var node = self
        while let parent = node.parent { node = parent }
        return node
    }
}
