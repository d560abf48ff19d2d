/// What `stackcast test` says about one flow file: a line for a pass, the failing step with its
/// diff for a failure, the problem for a file that cannot be run.
public struct FlowReport: Equatable, Sendable {
    /// How one flow file fared.
    public enum Result: Equatable, Sendable {
        case ran(FlowOutcome)
        case unreadable(FlowFileError)
    }

    /// The flow file's path as given.
    public var file: String
    public var result: Result
    /// Wall-clock seconds the run took (measured by the caller: the runner reads no clock).
    public var seconds: Double

    public init(file: String, result: Result, seconds: Double) {
        self.file = file
        self.result = result
        self.seconds = seconds
    }

    public var passed: Bool {
        if case .ran(let outcome) = result { return outcome.passed }
        return false
    }

    /// The report as terminal text: `✔ file (...)`, or `✘ file:line: ...` and the problems indented.
    public var text: String {
        switch result {
        case .unreadable(let error):
            return "✘ \(error.description)"
        case .ran(let outcome):
            guard let failure = outcome.failure else {
                return "✔ \(file) (\(outcome.stepCount) steps, \(FlowText.number(outcome.clock)) s on the flow clock, \(milliseconds) ms)"
            }
            return (["✘ \(headline(failure))"] + failure.problems.flatMap { problem in
                problem.lines.enumerated().map { index, line in (index == 0 ? "    " : "      ") + line }
            }).joined(separator: "\n")
        }
    }

    /// `flow.json:14: step 4 of 6 (expect) failed at 0.34 s on the flow clock`.
    func headline(_ failure: FlowFailure) -> String {
        guard case .ran(let outcome) = result else { return file }
        let place = failure.line.map { "\(file):\($0)" } ?? file
        return "\(place): step \(failure.step) of \(outcome.stepCount) (\(failure.summary)) failed at \(FlowText.number(failure.time)) s on the flow clock"
    }

    private var milliseconds: String {
        FlowText.number((seconds * 10_000).rounded() / 10)
    }
}
