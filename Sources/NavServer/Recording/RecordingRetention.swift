/// What a record folder holds, kept in memory so that neither listing it nor keeping it within
/// its `RecordingLimits` reads the folder again: each recording's bytes, and which ones are still
/// being written (never deleted).
///
/// A value owned by its `RecordingStore`, under the store's writing lock.
struct RecordingRetention {
    let limits: RecordingLimits
    private(set) var sizes: [String: Int] = [:]
    private(set) var totalBytes = 0
    /// Recordings written to since the store started and not finished.
    private var live: Set<String> = []

    init(limits: RecordingLimits, existing: [String: Int] = [:]) {
        self.limits = limits
        sizes = existing
        totalBytes = existing.values.reduce(0, +)
    }

    /// `bytes` more were written to recording `name`.
    mutating func wrote(_ bytes: Int, to name: String) {
        if sizes[name] == nil { live.insert(name) }
        sizes[name, default: 0] += bytes
        totalBytes += bytes
    }

    /// Recording `name` has its last line.
    mutating func finished(_ name: String) {
        live.remove(name)
    }

    /// Takes out the finished recordings to delete, oldest first, until the folder is within its
    /// limits again (or only live recordings are left). Names sort by their start time.
    mutating func overflow() -> [String] {
        guard sizes.count > limits.maxFiles || totalBytes > limits.maxBytes else { return [] }
        var dropped: [String] = []
        for name in sizes.keys.filter({ !live.contains($0) }).sorted() {
            guard sizes.count > limits.maxFiles || totalBytes > limits.maxBytes else { break }
            totalBytes -= sizes.removeValue(forKey: name) ?? 0
            dropped.append(name)
        }
        return dropped
    }

    /// The recordings with their bytes, newest first.
    var newestFirst: [(name: String, bytes: Int)] {
        sizes.sorted { $0.key > $1.key }.map { ($0.key, $0.value) }
    }
}
