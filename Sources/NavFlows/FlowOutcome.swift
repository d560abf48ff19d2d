/// How a flow ran: passed, or the step where it failed and what was wrong there.
public struct FlowOutcome: Equatable, Sendable {
    /// The flow's name (its file's path).
    public var flow: String
    /// How many steps ran, the failing one included.
    public var stepsRun: Int
    public var stepCount: Int
    /// The flow clock when the run ended, in seconds.
    public var clock: Double
    public var failure: FlowFailure?

    public var passed: Bool { failure == nil }
}

/// The step a flow failed at.
public struct FlowFailure: Equatable, Sendable {
    /// The step's number, from 1 as a reader counts.
    public var step: Int
    /// Its line in the flow file, when known.
    public var line: Int?
    /// The step's kind (`expect`, `command push`, `tap`, ...).
    public var summary: String
    /// The flow clock at the failure, in seconds.
    public var time: Double
    /// Everything wrong at that step (an `expect` reports each part that did not hold).
    public var problems: [FlowProblem]
}

/// One thing that did not hold, with the text that shows it (expected against actual).
public struct FlowProblem: Equatable, Sendable {
    public enum Kind: String, Equatable, Sendable {
        /// A stack's screens differ from `expect.stack`, or the stack does not exist.
        case stack
        /// The events since the previous expect differ from `expect.events`.
        case events
        /// The previous command's answer is not the error `expect.error` names.
        case error
        /// A node of the picture is missing, drawn when it should not be, or elsewhere.
        case node
        /// A command failed and no `expect.error` took its error before the next input.
        case commandFailed
        /// A tap names a node that is not drawn.
        case tapTarget
        /// `settle` ran out of time: something kept moving.
        case notSettled
    }

    public var kind: Kind
    /// The first line says what is wrong; the rest show it (a table of events, say).
    public var lines: [String]

    public init(_ kind: Kind, _ lines: [String]) {
        self.kind = kind
        self.lines = lines
    }
}
