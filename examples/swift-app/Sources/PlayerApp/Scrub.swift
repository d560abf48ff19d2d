import NavKit

/// A horizontal drag on the player's bar: the track follows the finger, paused while it is held,
/// and plays on from there if it was playing. Decided on the server like every other gesture.
final class Scrub: PanHandler {
    private weak var page: PlayerPage?
    /// Where the track was when the drag began.
    private let from: Double
    private let resumes: Bool

    init(_ page: PlayerPage) {
        self.page = page
        from = page.position
        resumes = page.isPlaying
    }

    var gestureName: String? { "scrub" }
    var holdsCommands: Bool { false }

    func panBegan(_ pan: PanTracker) {
        page?.pause()
        panMoved(pan)
    }

    func panMoved(_ pan: PanTracker) {
        guard let page, page.barWidth > 0 else { return }
        page.seek(to: from + pan.translation.x / page.barWidth)
    }

    func panEnded(_ pan: PanTracker, done: @escaping (Bool) -> Void) {
        if resumes { page?.play() }
        done(true)
    }

    func panCancelled(done: @escaping (Bool) -> Void) {
        page?.seek(to: from)
        if resumes { page?.play() }
        done(false)
    }
}
