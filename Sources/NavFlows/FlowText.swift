import NavKit

/// How flow reports write numbers, frames and sequences: short, and the same every run.
enum FlowText {
    /// Up to three decimals, without trailing zeros (`195`, `0.34`, `-64.999`).
    static func number(_ value: Double) -> String {
        let rounded = (value * 1000).rounded() / 1000
        if rounded == rounded.rounded(), abs(rounded) < 1e15 { return String(Int(rounded)) }
        var text = String(format3(rounded))
        while text.hasSuffix("0") { text.removeLast() }
        return text
    }

    /// `[0, 0, 390, 844]`.
    static func frame(_ rect: Rect) -> String {
        "[\([rect.x, rect.y, rect.width, rect.height].map(number).joined(separator: ", "))]"
    }

    /// `[Home, Detail]`.
    static func list(_ names: [String]) -> String {
        "[\(names.joined(separator: ", "))]"
    }

    /// Two columns, expected and actual, one element a row, each row that differs marked `✗`.
    static func table(expected: [String], actual: [String]) -> [String] {
        let width = max(8, expected.map(\.count).max() ?? 0) + 3
        var rows = ["    " + pad("expected", width) + "actual"]
        for index in 0..<max(expected.count, actual.count) {
            let left = index < expected.count ? expected[index] : "—"
            let right = index < actual.count ? actual[index] : "—"
            rows.append((left == right ? "    " : "  ✗ ") + pad(left, width) + right)
        }
        return rows
    }

    private static func pad(_ text: String, _ width: Int) -> String {
        text + String(repeating: " ", count: max(1, width - text.count))
    }

    /// Three decimals without Foundation's formatter.
    private static func format3(_ value: Double) -> String {
        let sign = value < 0 ? "-" : ""
        let thousandths = Int((abs(value) * 1000).rounded())
        let fraction = String(thousandths % 1000)
        return "\(sign)\(thousandths / 1000).\(String(repeating: "0", count: 3 - fraction.count))\(fraction)"
    }
}
