import NavKit

/// The tablet demo. Until side tabs and the stacked split land it is a single stack laid out for
/// a 1024 × 768 viewport.
enum TabletApp {
    static let root = RootSpec.stack(
        id: "main",
        root: ScreenSpec(
            name: "Library", title: "Your Library",
            rows: [
                RowSpec(title: "Playlists", action: .push(ScreenSpec(name: "Playlists", rows: [RowSpec(title: "Discover Weekly")]))),
                RowSpec(title: "Artists", action: .push(ScreenSpec(name: "Artists", rows: [RowSpec(title: "Röyksopp")]))),
            ]
        )
    )
}
