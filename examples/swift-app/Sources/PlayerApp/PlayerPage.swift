import NavKit

/// The player: artwork, the track's title, a progress bar and a play/pause button, drawn as nodes
/// rather than rows. Playing is an animation of the bar on the scene's clock, so a viewer with
/// timelines gets the bar's motion ahead, and a pause stops it where it is. A horizontal drag on
/// the bar scrubs (`Scrub`), as in the Music app.
final class PlayerPage: ViewController {
    static let kind = "player"

    private let track: String
    private let seconds: Double
    /// Where the track is, 0 to 1.
    private(set) var position = 0.0
    private var playing: Animator.Handle?

    private let artwork = Node(name: "artwork", fill: Color(rgb: 0xFF375F))
    private let trackTitle = Node(name: "track")
    /// The bar's touch area: taller than the bar, so a finger finds it.
    private let scrubber = Node(name: "scrubber")
    private let bar = Node(name: "progress", fill: Color(rgb: 0xE5E5EA))
    private let played = Node(name: "played", fill: Color(rgb: 0xFF375F))
    private let elapsed = Node(name: "elapsed")
    private let remaining = Node(name: "remaining")
    private let button = Node(role: "button", name: "play", fill: Color(rgb: 0xFF375F))

    init(spec: ScreenSpec) {
        track = spec.name
        seconds = PlayerApp.tracks.first { $0.0 == spec.name }?.1 ?? 60
        super.init(name: spec.name, title: spec.title, background: .white)
    }

    /// `seconds` as m:ss.
    static func clock(_ seconds: Double) -> String {
        let whole = Int(seconds.rounded())
        let rest = whole % 60
        return "\(whole / 60):\(rest < 10 ? "0" : "")\(rest)"
    }

    /// The bar's width, in points.
    var barWidth: Double { bar.frame.width }
    var isPlaying: Bool { playing != nil }

    override func loadContent(into content: Node) {
        artwork.cornerRadius = 12
        trackTitle.text = track
        trackTitle.font = Font(size: 22, weight: 600)
        trackTitle.alignment = .center
        bar.cornerRadius = 2
        played.cornerRadius = 2
        button.cornerRadius = 32
        button.text = "Play"
        button.textColor = .white
        button.alignment = .center
        for label in [elapsed, remaining] {
            label.font = Font(size: 13)
            label.textColor = Color(rgb: 0x8E8E93)
        }
        elapsed.alignment = .left
        remaining.alignment = .right
        showTime()
        bar.addChild(played)
        scrubber.addChild(bar)
        for node in [artwork, trackTitle, scrubber, elapsed, remaining, button] { content.addChild(node) }
    }

    override func layoutContent(_ content: Node) {
        let width = content.frame.width, side = min(width - 64, 320)
        artwork.frame = Rect(x: (width - side) / 2, y: 120, width: side, height: side)
        trackTitle.frame = Rect(x: 16, y: 140 + side, width: width - 32, height: 30)
        scrubber.frame = Rect(x: 32, y: 180 + side, width: width - 64, height: 36)
        bar.frame = Rect(x: 0, y: 16, width: width - 64, height: 4)
        played.frame = Rect(x: 0, y: 0, width: bar.frame.width * position, height: 4)
        elapsed.frame = Rect(x: 32, y: 206 + side, width: 80, height: 16)
        remaining.frame = Rect(x: width - 112, y: 206 + side, width: 80, height: 16)
        button.frame = Rect(x: (width - 64) / 2, y: 236 + side, width: 64, height: 64)
    }

    override func handleTap(on node: Node) -> Bool {
        guard node === button || node.parent === button else { return super.handleTap(on: node) }
        if isPlaying { pause() } else { play() }
        return true
    }

    override func panHandler(for pan: PanTracker, hit: Node) -> (any PanHandler)? {
        guard pan.axis == .horizontal, hit.ancestor(where: { $0 === scrubber }) != nil else { return super.panHandler(for: pan, hit: hit) }
        return Scrub(self)
    }

    override func viewWillDisappear(_ animated: Bool) {
        if let playing { scene?.animator.cancel(playing) }
        playing = nil
    }

    /// Plays from where the track is to its end, one animation on the scene's clock.
    func play() {
        guard let animator = scene?.animator else { return }
        if position >= 1 { position = 0 }
        let from = position
        button.text = "Pause"
        playing = animator.animate(duration: seconds * (1 - from), curve: .linear) { [weak self] progress in
            self?.show(from + (1 - from) * progress)
        } completion: { [weak self] in
            self?.playing = nil
            self?.button.text = "Play"
        }
        scene?.setNeedsDisplay()
    }

    func pause() {
        if let playing { scene?.animator.cancel(playing) }
        playing = nil
        button.text = "Play"
        scene?.setNeedsDisplay()
    }

    /// Moves the track to `position` (clamped to 0...1), as a scrub does.
    func seek(to position: Double) {
        show(min(max(position, 0), 1))
        scene?.setNeedsDisplay()
    }

    private func show(_ position: Double) {
        self.position = position
        played.frame.size.width = bar.frame.width * position
        showTime()
    }

    /// The time played and the time left, as the Music app shows them under the bar.
    private func showTime() {
        elapsed.text = Self.clock(seconds * position)
        remaining.text = "-" + Self.clock(seconds * (1 - position))
    }
}
