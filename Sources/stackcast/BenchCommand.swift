import ArgumentParser

/// `stackcast bench`: engine benchmarks (filled in below).
struct BenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "bench", abstract: "Run the benchmarks and print a table and a JSON line.")

    func run() throws {}
}
