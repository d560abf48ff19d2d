/// The device's status bar, drawn as nodes by the scene over every page: the time (always
/// "9:41", so frames stay deterministic), signal bars, Wi-Fi and battery. It stands still while
/// pages and sheets move under it, so it costs nothing in animation deltas; its colour follows
/// what lies under each side of it (`Scene+Chrome`).
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
    let signalBars: [Node] = (1...4).map { Node(name: "signal \($0)") }
    let wifi = Node(name: "wifi")
    let batteryOutline = Node(name: "battery")
    let batteryLevel = Node(name: "battery level")
    let batteryCap = Node(name: "battery cap")

    init() {
        node.isUserInteractionEnabled = false
        wifi.icon = "wifi"
        for child in [timeLabel] + signalBars + [wifi, batteryOutline, batteryLevel, batteryCap] {
            child.isUserInteractionEnabled = false
            node.addChild(child)
        }
    }

    /// The icons, left to right: the right ear's contents, whose colour goes together.
    var icons: [Node] { signalBars + [wifi, batteryOutline, batteryLevel, batteryCap] }

    func layout(_ viewport: Viewport) {
        let width = viewport.size.width, top = viewport.safeArea.top
        node.isHidden = top <= 0
        node.frame = Rect(x: 0, y: 0, width: width, height: top)
        let notched = top >= 44
        // Icons are 71 pt wide in all at full size: signal 17, Wi-Fi 16, battery 28, 5 pt apart.
        let unit = notched ? 1.0 : 0.75
        let iconsWidth = 71 * unit
        let middle = notched ? top / 2 + 1 : top / 2
        let iconsX: Double
        if notched {
            let ear = max((width - StatusBar.notchWidth) / 2, 0)
            timeLabel.font = Font(size: 17, weight: 600)
            timeLabel.alignment = .center
            timeLabel.frame = Rect(x: 0, y: middle - 11, width: ear, height: 22)
            iconsX = width - ear + (ear - iconsWidth) / 2
        } else {
            timeLabel.font = Font(size: 12, weight: 600)
            timeLabel.alignment = .left
            timeLabel.frame = Rect(x: 20, y: 0, width: 60, height: top)
            iconsX = width - 20 - iconsWidth
        }
        for (index, bar) in signalBars.enumerated() {
            let height = (4 + 2.6 * Double(index)) * unit
            bar.frame = Rect(x: iconsX + 4.6 * Double(index) * unit, y: middle + 5.5 * unit - height, width: 3 * unit, height: height)
            bar.cornerRadius = unit
        }
        wifi.frame = Rect(x: iconsX + 22 * unit, y: middle - 6 * unit, width: 16 * unit, height: 12 * unit)
        batteryOutline.frame = Rect(x: iconsX + 43 * unit, y: middle - 6.5 * unit, width: 25 * unit, height: 13 * unit)
        batteryOutline.cornerRadius = 4 * unit
        batteryLevel.frame = Rect(x: iconsX + 45 * unit, y: middle - 4.5 * unit, width: 21 * unit, height: 9 * unit)
        batteryLevel.cornerRadius = 2.5 * unit
        batteryCap.frame = Rect(x: iconsX + 69 * unit, y: middle - 2 * unit, width: 2 * unit, height: 4 * unit)
        batteryCap.cornerRadius = unit
    }

    /// Colours the time (`timeColor`) and the icons (`iconColor`): the battery's outline and cap
    /// at 35 %, as iOS draws them.
    func tint(time timeColor: Color, icons iconColor: Color) {
        // Restyling copies a style the last picture holds: only when the colours change.
        guard timeLabel.textColor != timeColor || wifi.textColor != iconColor else { return }
        timeLabel.textColor = timeColor
        for bar in signalBars { bar.fill = iconColor }
        wifi.textColor = iconColor
        batteryOutline.border = Border(color: iconColor.withAlpha(0.35), width: 1)
        batteryLevel.fill = iconColor
        batteryCap.fill = iconColor.withAlpha(0.35)
    }
}
