/// The server's model of how wide a line of text is, so that layout and truncation are decided
/// here, deterministically, and tests can assert exact results.
///
/// The system font (SF Pro Text) is approximated by a per-character advance table: Helvetica's
/// widths, in thousandths of an em, which SF Pro Text follows within a few per cent at 17 pt and
/// which Arial and Liberation Sans (the viewer's fallback on Linux) share exactly. Weights below
/// 600 use the regular table, 600 and above the bold one (SF's semibold is close to Helvetica
/// bold). Characters outside printable ASCII count as 556 (an average letter), except the
/// ellipsis and wide East Asian characters, which count as a full em. Tracking and kerning are
/// left out. The viewer draws with the real font and, if a line it was given still measures wider
/// than its box, ellipsizes it once more (docs/protocol.md §3.1).
public enum TextMetrics {
    /// The ellipsis that ends truncated text.
    public static let ellipsis = "…"

    /// The width of `text` set on one line in `font`, in points (unrounded).
    public static func width(_ text: String, font: Font) -> Double {
        let table = font.weight >= 600 ? bold : regular
        var thousandths = 0
        for scalar in text.unicodeScalars { thousandths += advance(scalar, table) }
        return Double(thousandths) * font.size / 1000
    }

    /// `text` as it fits in `width`: itself when it fits, otherwise the longest prefix (of whole
    /// characters, trailing spaces dropped) followed by an ellipsis that fits, or the ellipsis
    /// alone, or nothing when not even that fits.
    public static func truncated(_ text: String, font: Font, width: Double) -> String {
        if self.width(text, font: font) <= width { return text }
        let ellipsisWidth = self.width(ellipsis, font: font)
        guard ellipsisWidth <= width else { return "" }
        var fitted = ""
        var used = ellipsisWidth
        for character in text {
            let advance = self.width(String(character), font: font)
            if used + advance > width { break }
            used += advance
            fitted.append(character)
        }
        while fitted.last == " " { fitted.removeLast() }
        return fitted + ellipsis
    }

    /// `text` broken into lines no wider than `width` at spaces, as a label with unlimited lines
    /// wraps by word; a word wider than a line is truncated on its own line.
    public static func lines(_ text: String, font: Font, width: Double) -> [String] {
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ", omittingEmptySubsequences: true) {
            let candidate = line.isEmpty ? String(word) : line + " " + word
            if line.isEmpty || self.width(candidate, font: font) <= width {
                line = candidate
            } else {
                lines.append(truncated(line, font: font, width: width))
                line = String(word)
            }
        }
        if !line.isEmpty { lines.append(truncated(line, font: font, width: width)) }
        return lines
    }

    private static func advance(_ scalar: Unicode.Scalar, _ table: [Int]) -> Int {
        switch scalar.value {
        case 32...126: table[Int(scalar.value) - 32]
        case 0x2026, 0x2014: 1000
        case 0x1100...0x115F, 0x2E80...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFF00...0xFF60: 1000
        default: 556
        }
    }

    /// Advances of the printable ASCII characters (space to tilde), regular weight.
    private static let regular: [Int] = [
        278, 278, 355, 556, 556, 889, 667, 191, 333, 333, 389, 584, 278, 333, 278, 278, // space to /
        556, 556, 556, 556, 556, 556, 556, 556, 556, 556, 278, 278, 584, 584, 584, 556, // 0 to ?
        1015, 667, 667, 722, 722, 667, 611, 778, 722, 278, 500, 667, 556, 833, 722, 778, // @ to O
        667, 778, 722, 667, 611, 722, 667, 944, 667, 667, 611, 278, 278, 278, 469, 556, // P to _
        333, 556, 556, 500, 556, 556, 278, 556, 556, 222, 222, 500, 222, 833, 556, 556, // ` to o
        556, 556, 333, 500, 278, 556, 500, 722, 500, 500, 500, 334, 260, 334, 584, // p to ~
    ]

    /// Advances of the printable ASCII characters (space to tilde), bold.
    private static let bold: [Int] = [
        278, 333, 474, 556, 556, 889, 722, 238, 333, 333, 389, 584, 278, 333, 278, 278, // space to /
        556, 556, 556, 556, 556, 556, 556, 556, 556, 556, 333, 333, 584, 584, 584, 611, // 0 to ?
        975, 722, 722, 722, 722, 667, 611, 778, 722, 278, 556, 722, 611, 833, 722, 778, // @ to O
        667, 778, 722, 667, 611, 722, 667, 944, 667, 667, 611, 333, 278, 333, 584, 556, // P to _
        333, 556, 611, 556, 611, 556, 333, 611, 611, 278, 278, 556, 278, 889, 611, 611, // ` to o
        611, 611, 389, 556, 333, 611, 556, 778, 556, 556, 500, 389, 280, 389, 584, // p to ~
    ]
}
