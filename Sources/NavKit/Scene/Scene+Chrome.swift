/// The device chrome the scene draws over the app: the status bar and the home indicator. Both
/// stay still whatever moves under them; each part takes black or white, whichever reads better
/// on the fill under it (a dark page or bar, the black behind a sheet), decided when the scene
/// comes to rest so that moving frames carry no chrome at all.
extension Scene {
    /// Lays the chrome out for the viewport, in front of the app.
    func layoutChrome() {
        statusBar.layout(viewport)
        homeIndicator.layout(viewport)
        updateChromeTint()
    }

    /// Colours the chrome for what lies under it now; only at rest (nothing animating, no
    /// pointer down), so a transition's frames never patch it.
    func updateChromeTintAtRest() {
        guard !animator.isAnimating, pointer == nil else { return }
        updateChromeTint()
    }

    private func updateChromeTint() {
        let bar = statusBar.node.frame
        let time = statusBar.timeLabel.frame
        let icons = statusBar.icons.first.map(\.frame) ?? bar
        statusBar.tint(
            time: chromeColor(over: Point(x: time.midX, y: bar.midY)),
            icons: chromeColor(over: Point(x: icons.x, y: bar.midY))
        )
        let pill = homeIndicator.node.frame
        homeIndicator.node.fill = chromeColor(over: Point(x: pill.midX, y: pill.midY))
    }

    /// Black on a light fill (or on nothing: the viewer's white), white on a dark one. What lies
    /// under the chrome is the app and what is presented over it, on the black behind a sheet.
    private func chromeColor(over point: Point) -> Color {
        for child in rootNode.children.reversed() where child !== statusBar.node && child !== homeIndicator.node {
            if let seen = child.fillSeen(at: point) { return seen.contrastingText }
        }
        return (rootNode.fill ?? .white).contrastingText
    }
}

extension Node {
    /// The fill seen at `point` (in the parent's coordinates): that of the frontmost drawn node
    /// there whose fill shows at least half opaque, through its and its ancestors' alpha.
    func fillSeen(at point: Point, alpha inherited: Double = 1) -> Color? {
        let alpha = self.alpha * inherited
        guard !isHidden, !isOnStandby, alpha > 0 else { return nil }
        let inside = frame.placed(at: .zero, parentScale: 1, scale: scale).contains(point)
        if clipsToBounds && !inside { return nil }
        if drawsChildren {
            let local = Point(x: (point.x - frame.x) / scale, y: (point.y - frame.y) / scale)
            for child in children.reversed() {
                if let seen = child.fillSeen(at: local, alpha: alpha) { return seen }
            }
        }
        guard inside, let fill, Double(fill.alpha) / 255 * alpha >= 0.5 else { return nil }
        return fill
    }
}
