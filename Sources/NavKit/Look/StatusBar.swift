/// The device's status bar, drawn as nodes by the scene over every page: the time (always
/// "9:41", so frames stay deterministic) and three icons the viewer draws, `signal`, `wifi` and
/// `battery` (five nodes in all, so that the chrome takes few of a session's first ids, which the
/// binary wire sends in one byte). It stands still while pages and sheets move under it, so it
/// costs nothing in animation deltas; its colour follows what lies under each side of it
/// (`Scene+Chrome`).
///
/// Laid out from the viewport's safe-area top: a notched phone (top 44 pt or more) has the time
/// centred in the left ear (17 pt semibold) and the icons centred in the right one, either side of
/// a 162 pt notch; a device with a shorter top (an iPad's 24 pt) has the time at the left margin
/// and the icons at the right one, 12 pt and three quarters the size. No safe-area top, no status
/// bar.
///
/// Not thread-safe: belongs to one scene.
final class StatusBar {
    /// The fixed time it shows.
    static let time = "9:41"
    /// The notch (or Dynamic Island) the ears sit either side of.
    static let notchWidth = 162.0

    let node = Node(role: .statusbar, name: "statusbar")
    let timeLabel = Node.label(StatusBar.time, font: Font(size: 17, weight: 600), color: nil, name: "time")
    /// The icons, left to right: the right ear's contents, whose colour goes together.
    let icons: [Node] = ["signal", "wifi", "battery"].map { name in
        let icon = Node(name: name)
        icon.icon = name
        return icon
    }

    init() {
        node.isUserInteractionEnabled = false
        for child in [timeLabel] + icons {
            child.isUserInteractionEnabled = false
            node.addChild(child)
        }
    }

    func layout(_ viewport: Viewport) {
        let width = viewport.size.width, top = viewport.safeArea.top
        node.isHidden = top <= 0
        node.frame = Rect(x: 0, y: 0, width: width, height: top)
        let notched = top >= 44
        // At full size the icons are 71 pt wide in all, 5 pt apart: signal 17 × 12 (four bars,
        // their feet 5.5 pt below the middle), Wi-Fi 16 × 12, battery 28 × 13 (its cap included).
        let unit = notched ? 1.0 : 0.75
        let middle = notched ? top / 2 + 1 : top / 2
        let iconsX: Double
        if notched {
            let ear = max((width - StatusBar.notchWidth) / 2, 0)
            timeLabel.font = Font(size: 17, weight: 600)
            timeLabel.alignment = .center
            timeLabel.frame = Rect(x: 0, y: middle - 11, width: ear, height: 22)
            iconsX = width - ear + (ear - 71 * unit) / 2
        } else {
            timeLabel.font = Font(size: 12, weight: 600)
            timeLabel.alignment = .left
            timeLabel.frame = Rect(x: 20, y: 0, width: 60, height: top)
            iconsX = width - 20 - 71 * unit
        }
        let frames = [(0.0, -6.5, 17.0, 12.0), (22, -6, 16, 12), (43, -6.5, 28, 13)]
        for (icon, (x, y, w, h)) in zip(icons, frames) {
            icon.frame = Rect(x: iconsX + x * unit, y: middle + y * unit, width: w * unit, height: h * unit)
        }
    }

    /// Colours the time (`timeColor`) and the icons (`iconColor`).
    func tint(time timeColor: Color, icons iconColor: Color) {
        timeLabel.textColor = timeColor
        for icon in icons { icon.textColor = iconColor }
    }
}
