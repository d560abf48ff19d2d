/// The commands clients sent, oldest first, that a snapshot may name its pages' screens and its
/// root by: a program builds its app with `setRoot` and pushes screens of its own, which no row
/// holds. A snapshot keeps the commands it names (`kept`), numbered in that order, and a restore
/// takes them back in the same order.
///
/// Not thread-safe: used by one snapshot on one thread.
public final class SentCommands {
    public let commands: [Command]
    /// The indices in `commands` of those the snapshot names, in the order it numbers them.
    public private(set) var kept: [Int] = []
    private var places: [Int: Int] = [:]

    public init(_ commands: [Command]) {
        self.commands = commands
    }

    /// The newest command that pushes `spec`, and which of its screens it is.
    func screen(_ spec: ScreenSpec) -> SentScreen? {
        for index in commands.indices.reversed() {
            // Names first: most candidates differ there, and a full comparison walks the rows.
            guard let screen = commands[index].pushedScreens?.firstIndex(where: { $0.name == spec.name && $0 == spec }) else { continue }
            return SentScreen(message: keep(index), index: screen)
        }
        return nil
    }

    /// The newest `setRoot` that sets `spec`.
    func root(_ spec: RootSpec) -> SentScreen? {
        for index in commands.indices.reversed() {
            guard case .setRoot(let sent) = commands[index], sent == spec else { continue }
            return SentScreen(message: keep(index), index: 0)
        }
        return nil
    }

    /// The newest command equal to `command` (a `present`), by its place among those kept.
    func place(of command: Command) -> Int? {
        commands.lastIndex(of: command).map(keep)
    }

    /// The newest `update` that made `update`, by its place among those kept.
    func place(ofUpdate update: ScreenUpdate) -> Int? {
        commands.lastIndex { if case .update(let sent, _, _) = $0 { sent == update } else { false } }.map(keep)
    }

    private func keep(_ index: Int) -> Int {
        if let place = places[index] { return place }
        places[index] = kept.count
        kept.append(index)
        return kept.count - 1
    }
}
