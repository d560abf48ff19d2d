import Testing

@testable import NavFlows

/// Flow files written to hurt whatever reads them: each is refused with a clear error, in bounded
/// time and memory, instead of crashing `stackcast test`.
@Suite struct HostileFlowFileTests {
    /// A YAML parser recurses once per level: 10,000 levels in 20 KB overflowed its stack.
    @Test(arguments: [
        ("app: stack\nsteps: " + String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000) + "\n", 2, 10_001),
        ("app: stack\nsteps:\n  " + String(repeating: "- ", count: 10_000) + "x\n", 3, 10_002),
        ("app: stack\nsteps:\n" + (0..<150).map { String(repeating: " ", count: $0 + 1) + "k\($0):" }.joined(separator: "\n") + "\n", 102, 101),
    ])
    func deepNestingIsRefusedBeforeParsing(text: String, line: Int, depth: Int) {
        #expect(throws: FlowFileError(file: "f.yaml", line: line, "nested \(depth) levels deep; a flow file may nest at most 100 levels")) {
            try FlowFile.parse(text, name: "f.yaml")
        }
    }

    /// Nine aliases to nine aliases, nine times over: 600 bytes that expand to 387 million values.
    @Test func aliasesThatExpandWithoutBoundAreRefused() {
        var text = "a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n"
        var previous = "a"
        for name in ["b", "c", "d", "e", "f", "g", "h", "i"] {
            text += "\(name): &\(name) [" + Array(repeating: "*\(previous)", count: 9).joined(separator: ", ") + "]\n"
            previous = name
        }
        text += "app: stack\nsteps:\n  - settle: true\n"
        #expect(text.utf8.count < 700)
        do {
            _ = try FlowFile.parse(text, name: "f.yaml")
            Issue.record("an alias bomb was read")
        } catch {
            #expect(error.message == "holds more than 250000 values once its aliases (*name) are expanded; a flow file may hold at most that many")
        }
    }

    /// What the depth estimate must not count: brackets and dashes in quotes, comments, plain
    /// words and block scalars; aliases used as people use them still work.
    @Test func ordinaryYAMLWithBracketsInTextAndAliasesIsRead() throws {
        let deepText = String(repeating: "[", count: 200)
        let flow = try FlowFile.parse(
            """
            # a comment with [[[[ brackets \(deepText)
            app: stack
            description: |
              \(deepText) - - - { in a block scalar
                  indented more {{{{
            steps:
              - command: &home {op: push, screen: {name: "\(deepText)", title: 'it''s [x'}}
              - command: *home  # [[[[
              - settle: true
            """, name: "f.yaml")
        #expect(flow.steps.count == 3)
        #expect(flow.steps[0].action == flow.steps[1].action)
    }

    @Test func theDepthEstimateNeverReadsBelowTheNesting() {
        #expect(YAMLNesting.firstLine(of: "a:\n  b:\n    c: [[1]]\n", deeperThan: 5)?.depth == nil)
        #expect(YAMLNesting.firstLine(of: "a:\n  b:\n    c: [[1]]\n", deeperThan: 4)?.depth == 5)
        #expect(YAMLNesting.firstLine(of: "- - - x\n", deeperThan: 3)?.depth == 4)
        #expect(YAMLNesting.firstLine(of: "a: [\n  [\n   [1]]]\n", deeperThan: 4) == nil)
        #expect(YAMLNesting.firstLine(of: "a: [\n  [\n   [1]]]\n", deeperThan: 2)! == (2, 3))
    }
}
