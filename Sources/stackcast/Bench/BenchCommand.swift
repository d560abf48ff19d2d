import ArgumentParser

/// `stackcast bench`: runs the benchmarks and prints a table, then the same numbers as one JSON line.
struct BenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Run the benchmarks; prints a table and one JSON line. Use a release build."
    )

    @Option(help: "How many times each engine measurement repeats.")
    var rounds = 200

    @Option(help: "Samples per server latency measurement.")
    var samples = 300

    @Flag(help: "Only the engine benchmarks (no server).")
    var engineOnly = false

    @Option(help: "Only these groups of benchmarks, comma-separated: engine, capacity, deflate, decode, server.")
    var only: String?

    func run() throws {
        guard rounds > 0, samples > 0 else { throw ValidationError("--rounds and --samples must be at least 1") }
        let groups = ["engine", "capacity", "deflate", "decode", "server"]
        let chosen = only.map { Set($0.split(separator: ",").map(String.init)) } ?? Set(groups)
        if let unknown = chosen.subtracting(groups).sorted().first {
            throw ValidationError("--only: no group '\(unknown)' (groups: \(groups.joined(separator: ", ")))")
        }
        var report = BenchReport()
        if chosen.contains("engine") { EngineBenchmarks(rounds: rounds).run(into: &report) }
        if chosen.contains("capacity") { CapacityBenchmarks(rounds: rounds).run(into: &report) }
        if chosen.contains("deflate") { DeflateBenchmarks(rounds: rounds).run(into: &report) }
        if chosen.contains("decode") { DecodeBenchmarks(rounds: rounds).run(into: &report) }
        if chosen.contains("server") && !engineOnly { try ServerBenchmarks(samples: samples).run(into: &report) }
        report.print()
    }
}
