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

    func run() throws {
        guard rounds > 0, samples > 0 else { throw ValidationError("--rounds and --samples must be at least 1") }
        var report = BenchReport()
        EngineBenchmarks(rounds: rounds).run(into: &report)
        CapacityBenchmarks(rounds: rounds).run(into: &report)
        DeflateBenchmarks(rounds: rounds).run(into: &report)
        DecodeBenchmarks(rounds: rounds).run(into: &report)
        if !engineOnly { try ServerBenchmarks(samples: samples).run(into: &report) }
        report.print()
    }
}
