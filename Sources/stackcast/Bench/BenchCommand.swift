import ArgumentParser

/// `stackcast bench`: runs the benchmarks and prints a table, then the same numbers as one JSON line.
struct BenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Run the benchmarks; prints a table and one JSON line. Use a release build."
    )

    @Option(help: "How many times each engine measurement repeats.")
    var rounds = 200

    func run() throws {
        guard rounds > 0 else { throw ValidationError("--rounds must be at least 1") }
        var report = BenchReport()
        EngineBenchmarks(rounds: rounds).run(into: &report)
        report.print()
    }
}
