import NavKit

/// A music player: a library of tracks (a list of rows, as a spec) whose rows push the player, a
/// page of this app's own kind.
struct PlayerApp: StackcastApp {
    let name = "player"
    let viewport = Viewport.phone

    static let tracks = [("Intro", 42.0), ("Northern Lights", 214.0), ("Slow Tide", 187.0), ("Outro", 65.0)]

    func makeRoot(in scene: Scene) throws(NavError) -> Controller {
        scene.register(pageKind: PlayerPage.kind) { PlayerPage(spec: $0) }
        let rows = Self.tracks.map { title, seconds in
            RowSpec(
                title: title, detail: PlayerPage.clock(seconds),
                action: .push(ScreenSpec(name: title, title: "Now Playing", kind: PlayerPage.kind)))
        }
        return NavigationController(identifier: "library", root: scene.makeController(ScreenSpec(name: "Library", rows: rows)))
    }
}
