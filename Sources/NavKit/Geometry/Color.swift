/// An sRGB colour with 8 bits per channel, written on the wire as `#RRGGBB` or `#RRGGBBAA`.
public struct Color: Equatable, Hashable, Sendable {
    public var red: UInt8
    public var green: UInt8
    public var blue: UInt8
    public var alpha: UInt8

    public init(red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8 = 255) {
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = alpha
    }

    /// `0xRRGGBB` with an optional alpha.
    public init(rgb: UInt32, alpha: UInt8 = 255) {
        self.init(red: UInt8((rgb >> 16) & 0xFF), green: UInt8((rgb >> 8) & 0xFF), blue: UInt8(rgb & 0xFF), alpha: alpha)
    }

    /// Black or white, whichever reads better on this colour (by its perceived brightness).
    public var contrastingText: Color {
        let brightness = 0.299 * Double(red) + 0.587 * Double(green) + 0.114 * Double(blue)
        return brightness < 140 ? .white : .black
    }

    /// Parses `#RRGGBB` or `#RRGGBBAA` (case-insensitive); nil for anything else.
    public init?(hex: String) {
        let digits = hex.utf8
        guard digits.first == UInt8(ascii: "#"), digits.count == 7 || digits.count == 9 else { return nil }
        var value: UInt32 = 0
        for byte in digits.dropFirst() {
            guard let nibble = Color.nibble(byte) else { return nil }
            value = value << 4 | UInt32(nibble)
        }
        if digits.count == 9 {
            self.init(rgb: value >> 8, alpha: UInt8(value & 0xFF))
        } else {
            self.init(rgb: value)
        }
    }

    /// `#RRGGBB`, or `#RRGGBBAA` when not opaque.
    public var hex: String {
        let table: [UInt8] = Array("0123456789ABCDEF".utf8)
        var bytes: [UInt8] = [UInt8(ascii: "#")]
        for channel in alpha == 255 ? [red, green, blue] : [red, green, blue, alpha] {
            bytes.append(table[Int(channel >> 4)])
            bytes.append(table[Int(channel & 0x0F)])
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The same colour with its alpha channel multiplied by `factor` (0 to 1).
    public func withAlpha(_ factor: Double) -> Color {
        var copy = self
        copy.alpha = UInt8((Double(alpha) * min(max(factor, 0), 1)).rounded())
        return copy
    }

    public static let black = Color(rgb: 0x000000)
    public static let white = Color(rgb: 0xFFFFFF)
    public static let clear = Color(rgb: 0x000000, alpha: 0)
    /// iOS system blue (`tintColor`), the default tint.
    public static let systemBlue = Color(rgb: 0x007AFF)
    /// iOS 17 `secondaryLabel` (light): #3C3C43 at 60 %.
    public static let secondaryLabel = Color(rgb: 0x3C3C43, alpha: 0x99)
    /// iOS 17 `tertiaryLabel` (light): #3C3C43 at 30 %, the colour of a row's disclosure chevron.
    public static let tertiaryLabel = Color(rgb: 0x3C3C43, alpha: 0x4D)
    /// iOS 17 `separator` (light): #3C3C43 at 29 %.
    public static let separator = Color(rgb: 0x3C3C43, alpha: 0x4A)
    /// iOS 17 `systemGroupedBackground` (light).
    public static let groupedBackground = Color(rgb: 0xF2F2F7)
    /// iOS 17 `systemGray4` (light): a pressed or selected row.
    public static let systemGray4 = Color(rgb: 0xD1D1D6)
    /// iOS system red, the default badge colour.
    public static let systemRed = Color(rgb: 0xFF3B30)
    /// The fill of a default navigation bar, tab bar and link view (UIKit's bar background).
    public static let barBackground = Color(rgb: 0xF9F9F9)

    private static func nibble(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
