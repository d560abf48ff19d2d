import ArgumentParser

/// The `stackcast` command line.
@main
struct Stackcast: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stackcast",
        abstract: "A headless UIKit-style navigation engine streamed to a browser viewer.",
        subcommands: [ServeCommand.self, BenchCommand.self, LoadCommand.self, TestCommand.self]
    )
}
