import NavApps
import NavKit

/// A scripted session's scene at its end, at rest, taken apart into a snapshot and restored into
/// a fresh scene of its app, as a session store's checkpoint is: the two must not differ in
/// anything `SnapshotCheck` compares, its probes included. A scene the snapshot does not describe
/// (a page stack off its first page, an updated screen) gives none, which is no finding.
enum SnapshotRoundTrip {
    /// What differs, or nil.
    static func check(_ script: SceneScript) -> String? {
        let scene = script.scene
        guard scene.isAtRest else { return nil }
        // Drawn first, as a server's last frame drew it.
        _ = scene.currentPicture(kinds: [.list, .tree])
        let sent = script.sent.commands
        let commands = SentCommands(sent)
        guard let snapshot = try? scene.snapshot(sent: commands) else { return nil }
        let kept = commands.kept.map { sent[$0] }
        let fresh = Scene(viewport: BuiltInApps.defaultViewport(for: script.app))
        fresh.layerPrecision = scene.layerPrecision
        fresh.setRoot(try! BuiltInApps.root(named: script.app)!.makeController(fresh))
        fresh.advance(to: 0)
        do {
            try fresh.restore(snapshot, sent: kept)
        } catch {
            return "the snapshot does not restore: \(error)"
        }
        return SnapshotCheck.difference(between: scene, and: fresh, kinds: [.list, .tree], sent: kept)
    }
}
