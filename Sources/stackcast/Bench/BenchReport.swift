import Foundation

/// Benchmark results: printed as an aligned table for people and as one JSON line for tools.
struct BenchReport {
    private var rows: [(name: String, value: Double, unit: String)] = []

    mutating func add(_ name: String, _ value: Double, _ unit: String) {
        rows.append((name, value, unit))
        // Progress for long runs, on stderr so the table and JSON stay clean.
        FileHandle.standardError.write(Data("bench: \(name) done\n".utf8))
    }

    func print() {
        let width = rows.map(\.name.count).max() ?? 0
        Swift.print("benchmark".padding(toLength: width, withPad: " ", startingAt: 0) + "  value")
        for row in rows {
            let value = row.value >= 100 ? String(format: "%.0f", row.value) : String(format: "%.3f", row.value)
            Swift.print(row.name.padding(toLength: width, withPad: " ", startingAt: 0) + "  \(value) \(row.unit)")
        }
        var json: [String: Double] = [:]
        for row in rows { json[row.name] = (row.value * 1000).rounded() / 1000 }
        if let data = try? JSONSerialization.data(withJSONObject: json, options: [.sortedKeys]) {
            Swift.print(String(decoding: data, as: UTF8.self))
        }
    }
}

/// Order statistics of a sample.
struct Stats {
    private let sorted: [Double]

    init(_ values: [Double]) { sorted = values.sorted() }

    var median: Double { percentile(0.5) }
    var p99: Double { percentile(0.99) }

    func percentile(_ p: Double) -> Double {
        guard !sorted.isEmpty else { return .nan }
        return sorted[min(Int((Double(sorted.count - 1) * p).rounded()), sorted.count - 1)]
    }
}

/// Nanoseconds that `body` takes.
func measureNanoseconds(_ body: () -> Void) -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    body()
    return Double(DispatchTime.now().uptimeNanoseconds - start)
}
