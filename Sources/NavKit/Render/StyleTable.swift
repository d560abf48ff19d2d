/// Display styles shared by the scenes of one thread (a server's service thread): nodes whose
/// styles are equal, in any of those scenes, hold one storage. A thousand sessions of one app then
/// keep one copy of its rows', bars' and titles' styles instead of a thousand, and a style is
/// the biggest part of a node. Sharing is invisible: a node changing a shared style copies it
/// first (`Node.restyle`). Styles that no node holds any more are swept as the table grows.
///
/// A scene uses it for the pages it loads when `Scene.styles` is set. Not thread-safe: one table
/// per thread, used only by the scenes of that thread.
public final class StyleTable {
    private var storages: [DisplayStyle: DisplayStyle.Storage] = [:]
    /// The size at which the next sweep runs: twice what the last one kept.
    private var sweepAt = StyleTable.minimumSweep

    private static let minimumSweep = 1024

    public init() {}

    /// Styles held now (some may be held by the table alone, until the next sweep).
    public var count: Int { storages.count }

    /// The table's storage equal to `storage`, or `storage` itself, which the table now holds.
    func shared(_ storage: DisplayStyle.Storage) -> DisplayStyle.Storage {
        if let existing = storages[storage.style] { return existing }
        storages[storage.style] = storage
        if storages.count >= sweepAt { sweep() }
        return storage
    }

    /// Drops the styles that only the table holds.
    public func sweep() {
        for key in Array(storages.keys) {
            var storage = storages.removeValue(forKey: key)!
            if !isKnownUniquelyReferenced(&storage) { storages[key] = storage }
        }
        sweepAt = max(StyleTable.minimumSweep, 2 * storages.count)
    }
}
