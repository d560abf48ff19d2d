import Foundation

/// Recording names: what a file is called in the record folder (with `.jsonl`) and how a viewer
/// asks for it (`?replay=NAME`). A name is letters, digits, `-` and `_` only, so it can never
/// leave the folder (no `/`, no `..`) or need escaping in a URL or in HTML.
public enum RecordingName {
    /// The longest name accepted.
    public static let maxLength = 100

    /// A new name for a session of `app` started at `date`: `20250131-142501-phone-3f9a0c1e`
    /// (UTC time, then 32 random bits, so names sort by time and do not collide).
    static func make(app: String, date: Date = Date()) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        func two(_ value: Int?) -> String { String(format: "%02d", value ?? 0) }
        let stamp = "\(c.year ?? 0)\(two(c.month))\(two(c.day))-\(two(c.hour))\(two(c.minute))\(two(c.second))"
        let safeApp = String(app.unicodeScalars.filter(isAllowed).prefix(20))
        return "\(stamp)-\(safeApp)-\(String(SessionToken.make().prefix(8)))"
    }

    /// `name` as a recording name (a trailing `.jsonl` is dropped), or nil when it is not one.
    public static func validated(_ name: String) -> String? {
        let suffix = "." + Recording.fileExtension
        let bare = name.hasSuffix(suffix) ? String(name.dropLast(suffix.count)) : name
        guard !bare.isEmpty, bare.utf8.count <= maxLength, bare.unicodeScalars.allSatisfy(isAllowed) else { return nil }
        return bare
    }

    /// The file name of recording `name`.
    public static func fileName(_ name: String) -> String { "\(name).\(Recording.fileExtension)" }

    /// What a valid name says it is, for error messages.
    public static let rule = "a recording name is 1 to \(maxLength) letters, digits, - and _ (the file name without .jsonl)"

    private static func isAllowed(_ scalar: Unicode.Scalar) -> Bool {
        scalar.isASCII && (CharacterSet.alphanumerics.contains(scalar) || scalar == "-" || scalar == "_")
    }

    /// UTC, ISO 8601, to the second.
    static func timestamp(_ date: Date = Date()) -> String {
        ISO8601DateFormatter().string(from: date)
    }
}
