import ArgumentParser
import Foundation
import NavFlows

/// `stackcast test FLOW...`: runs flow files headless, prints a line per flow (the failing step
/// and its diff for a failure) and a summary, and optionally writes JUnit XML.
struct TestCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "test",
        abstract: "Run flow files (JSON or YAML) headless on the virtual clock.",
        discussion: """
            Exit status: 0 when every flow passes, 1 when one fails, 2 when a flow file cannot be \
            read or is not a flow (or the JUnit file cannot be written). The format: \
            docs/testing.md (Flow tests) and docs/flow.schema.json.
            """
    )

    @Argument(help: "Flow files (.json, .yaml, .yml), or folders whose flow files run in name order.")
    var flows: [String]

    @Option(help: ArgumentHelp("Also write the results as JUnit XML to this file.", valueName: "file"))
    var junit: String?

    @Flag(name: .shortAndLong, help: "Print only failures and the summary.")
    var quiet = false

    func run() throws {
        let clock = ContinuousClock()
        var reports: [FlowReport] = []
        for path in FlowFile.expand(flows) {
            let started = clock.now
            let result: FlowReport.Result
            do {
                result = .ran(FlowRunner(try FlowFile.load(path)).run())
            } catch {
                result = .unreadable(error)
            }
            let elapsed = clock.now - started
            let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
            let report = FlowReport(file: path, result: result, seconds: seconds)
            reports.append(report)
            if !quiet || !report.passed { print(report.text) }
        }
        let passed = reports.filter(\.passed).count
        let unreadable = reports.filter { if case .unreadable = $0.result { true } else { false } }.count
        let failed = reports.count - passed - unreadable
        print("flows: \(passed) passed, \(failed) failed" + (unreadable > 0 ? ", \(unreadable) unreadable" : ""))
        if let junit {
            do {
                try JUnitReport.xml(reports).write(toFile: junit, atomically: true, encoding: .utf8)
            } catch {
                FileHandle.standardError.write(Data("stackcast test: cannot write the JUnit report to \(junit): \(error.localizedDescription)\n".utf8))
                throw ExitCode(2)
            }
        }
        if unreadable > 0 { throw ExitCode(2) }
        if failed > 0 { throw ExitCode(1) }
    }
}
