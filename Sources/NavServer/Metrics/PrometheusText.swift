/// Builds Prometheus text exposition format 0.0.4: `# HELP`, `# TYPE` and one line per sample.
struct PrometheusText {
    private(set) var text = ""

    /// Appends a metric with its samples; `labels` is `""` or `{name="value",...}`.
    mutating func metric(_ name: String, _ type: String, _ help: String, _ samples: [(labels: String, value: Double)]) {
        text += "# HELP \(name) \(help)\n# TYPE \(name) \(type)\n"
        for sample in samples {
            let value = sample.value.rounded() == sample.value && abs(sample.value) < 1e15
                ? String(Int(sample.value)) : String(sample.value)
            text += "\(name)\(sample.labels) \(value)\n"
        }
    }

    /// Appends a metric with a single unlabelled sample.
    mutating func metric(_ name: String, _ type: String, _ help: String, _ value: Double) {
        metric(name, type, help, [("", value)])
    }

    /// Appends a histogram: cumulative `counts` for each upper bound in `bounds`, then +Inf.
    mutating func histogram(_ name: String, _ help: String, bounds: [Double], counts: [Int], sum: Double, count: Int) {
        text += "# HELP \(name) \(help)\n# TYPE \(name) histogram\n"
        for (bound, value) in zip(bounds, counts) {
            text += "\(name)_bucket{le=\"\(bound)\"} \(value)\n"
        }
        text += "\(name)_bucket{le=\"+Inf\"} \(count)\n\(name)_sum \(sum)\n\(name)_count \(count)\n"
    }
}
