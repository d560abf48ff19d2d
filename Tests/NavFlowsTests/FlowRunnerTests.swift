import NavFlows
import NavKit
import NavWire
import Testing

/// Flows run on the virtual clock: what passes, and exactly what a failure reports.
@Suite struct FlowRunnerTests {
    private func run(_ text: String, name: String = "flow.json") throws -> FlowOutcome {
        FlowRunner(try FlowFile.parse(text, name: name)).run()
    }

    @Test func aPushIsHalfWayAtHalfItsDurationAndRestsInUIKitOrder() throws {
        let outcome = try run("""
            {"app": "stack", "steps": [
              {"command": {"op": "push", "screen": {"name": "Detail"}}},
              {"wait": 0.17},
              {"expect": {"node": {"role": "page", "name": "Detail", "frame": [195, 0, 390, 844], "tolerance": 0.001}}},
              {"settle": true},
              {"expect": {"stack": ["Home", "Detail"], "events": ["Detail.viewDidLoad", "Home.viewWillDisappear", "Detail.viewWillAppear", "transitionStart", "Home.viewDidDisappear", "Detail.viewDidAppear", "transitionEnd"]}}
            ]}
            """)
        // The second expect compares from the start: the first expect reset nothing it named.
        #expect(outcome.failure?.step == 5)
        #expect(outcome.failure?.problems.map(\.kind) == [.events])
        #expect(outcome.stepsRun == 5)
    }

    @Test func eventsAreComparedSinceThePreviousExpectWithinTheGroupsNamed() throws {
        let outcome = try run("""
            {"app": "stack", "steps": [
              {"expect": {"events": ["Home.viewDidLoad", "Home.viewWillAppear", "Home.viewDidAppear"]}},
              {"command": {"op": "push", "screen": {"name": "Detail"}}},
              {"settle": true},
              {"expect": {"stack": ["Home", "Detail"], "events": ["Detail.viewDidLoad", "Home.viewWillDisappear", "Detail.viewWillAppear", "Home.viewDidDisappear", "Detail.viewDidAppear"]}},
              {"command": {"op": "pop"}},
              {"settle": true},
              {"expect": {"events": [["transitionStart"], "transitionEnd"]}}
            ]}
            """)
        #expect(outcome.passed)
        #expect(outcome.stepCount == 7)
        // 0.34 s each, and the settle ends on the tick after the transition.
        #expect(outcome.clock > 0.68 && outcome.clock < 0.72)
    }

    @Test func aWrongOrderFailsWithATableOfExpectedAgainstActual() throws {
        let outcome = try run("""
            {"app": "stack", "steps": [
              {"command": {"op": "push", "screen": {"name": "Detail"}}},
              {"settle": true},
              {"expect": {"events": ["Detail.viewDidLoad", "Detail.viewWillAppear", "Home.viewWillDisappear"]}}
            ]}
            """)
        let failure = try #require(outcome.failure)
        #expect(failure.step == 3)
        #expect(failure.line == 4)
        #expect(failure.summary == "expect")
        #expect(failure.problems == [FlowProblem(.events, [
            "events since the start (lifecycle) differ:",
            "    expected                 actual",
            "  ✗ Detail.viewDidLoad       Home.viewDidLoad",
            "  ✗ Detail.viewWillAppear    Home.viewWillAppear",
            "  ✗ Home.viewWillDisappear   Home.viewDidAppear",
            "  ✗ —                        Detail.viewDidLoad",
            "  ✗ —                        Home.viewWillDisappear",
            "  ✗ —                        Detail.viewWillAppear",
            "  ✗ —                        Home.viewDidDisappear",
            "  ✗ —                        Detail.viewDidAppear",
        ])])
        let report = FlowReport(file: "flow.json", result: .ran(outcome), seconds: 0.001)
        #expect(report.text.hasPrefix("✘ flow.json:4: step 3 of 3 (expect) failed at "))
        #expect(report.text.contains("\n          expected                 actual\n        ✗ Detail.viewDidLoad       Home.viewDidLoad"))
    }

    @Test func theErrorOfThePreviousCommandIsChecked() throws {
        let passing = try run("""
            {"app": "stack", "steps": [{"command": {"op": "pop"}}, {"expect": {"error": "invalid_state", "stack": ["Home"]}}]}
            """)
        #expect(passing.passed)

        let wrongCode = try run("""
            {"app": "stack", "steps": [{"command": {"op": "pop"}}, {"expect": {"error": "not_found"}}]}
            """)
        #expect(wrongCode.failure?.problems == [FlowProblem(.error, [
            "expected the pop of step 1 to fail with not_found, got invalid_state: Home is the root of stack main: there is nothing to pop",
        ])])

        let succeeded = try run("""
            {"app": "stack", "steps": [{"command": {"op": "push", "screen": {"name": "A"}}}, {"settle": true}, {"expect": {"error": "not_found"}}]}
            """)
        #expect(succeeded.failure?.problems == [FlowProblem(.error, [
            #"expected the push of step 1 to fail with not_found, but it succeeded: {"vc":"vc2"}"#,
        ])])

        let running = try run("""
            {"app": "stack", "steps": [{"command": {"op": "push", "screen": {"name": "A"}}}, {"command": {"op": "popTo", "name": "Z"}}, {"expect": {"error": "not_found"}}]}
            """)
        #expect(running.failure?.problems.first?.lines.first?.contains("has not answered yet") == true)
    }

    @Test func aFailedCommandNobodyExpectedFailsTheFlowAtThatCommand() throws {
        let outcome = try run("""
            {"app": "stack", "steps": [
              {"command": {"op": "popTo", "name": "Nowhere"}},
              {"settle": true},
              {"command": {"op": "push", "screen": {"name": "A"}}}
            ]}
            """)
        let failure = try #require(outcome.failure)
        #expect(failure.step == 1)
        #expect(failure.line == 2)
        #expect(failure.problems == [FlowProblem(.commandFailed, [
            "popTo failed: not_found: no controller named Nowhere in stack main",
            #"if it should, follow it with {"expect": {"error": "not_found"}}"#,
        ])])
    }

    @Test func nodeGeometryHasATolerance() throws {
        let within = try run("""
            {"app": "stack", "steps": [{"expect": {"node": {"role": "navbar", "frame": [0.4, 0, 390, 91]}}}]}
            """)
        #expect(within.passed)
        let outside = try run("""
            {"app": "stack", "steps": [{"expect": {"node": [{"role": "navbar", "frame": [2, 0, 390, 91], "tolerance": 1}, {"role": "page", "name": "Gone"}, {"role": "navbar", "visible": false}]}}]}
            """)
        #expect(outside.failure?.problems == [
            FlowProblem(.node, ["navbar: frame expected [2, 0, 390, 91] ± 1, got [0, 0, 390, 91]"]),
            FlowProblem(.node, [#"page "Gone": not drawn; page nodes drawn: Home"#]),
            FlowProblem(.node, ["navbar: expected not drawn, but it is, at [0, 0, 390, 91]"]),
        ])
    }

    @Test func aStackIsFoundByTargetAndAMissingOneIsReported() throws {
        let outcome = try run("""
            {"app": "phone", "steps": [
              {"expect": {"stack": ["Library"]}},
              {"command": {"op": "push", "screen": {"name": "Later"}, "target": {"stack": "settings"}}},
              {"expect": {"stack": {"target": {"tab": 2}, "stack": ["Settings", "Later"]}, "events": []}},
              {"expect": {"stack": {"target": {"tab": 9}, "stack": ["X"]}}}
            ]}
            """)
        // Off screen: at once, without a callback.
        #expect(outcome.failure?.step == 4)
        #expect(outcome.failure?.problems == [FlowProblem(.stack, ["tab 9: no such stack in the phone app; expected [X]"])])
    }

    @Test func tapsFindRowsByNameAndReportWhatIsDrawnWhenTheyCannot() throws {
        let outcome = try run("""
            {"app": "stack", "steps": [
              {"tap": {"role": "row", "name": "General"}},
              {"settle": true},
              {"expect": {"stack": ["Home", "General"]}},
              {"tap": {"role": "row", "name": "Photos"}}
            ]}
            """)
        #expect(outcome.failure?.step == 4)
        #expect(outcome.failure?.problems == [FlowProblem(.tapTarget, [#"no row "Photos" is drawn to tap; drawn: About, Keyboard"#])])
    }

    @Test(arguments: [
        (FlowGesture.Release.hold, 150.0, ["Home", "General"]),
        (.fling, 150.0, ["Home"]),
        (.hold, 250.0, ["Home"]),
    ])
    func edgeSwipesPopPastHalfWayOrWhenFlung(release: FlowGesture.Release, distance: Double, stack: [String]) throws {
        let outcome = try run("""
            {"app": "stack", "steps": [
              {"tap": {"role": "row", "name": "General"}},
              {"settle": true},
              {"edgeSwipe": {"distance": \(distance), "duration": 0.1, "release": "\(release.rawValue)"}},
              {"settle": true},
              {"expect": {"stack": [\(stack.map { "\"\($0)\"" }.joined(separator: ", "))]}}
            ]}
            """)
        #expect(outcome.passed, "\(outcome.failure?.problems ?? [])")
    }

    @Test func sameFlowSameResult() throws {
        let text = """
            {"app": "tablet", "steps": [{"tap": {"role": "row", "name": "Air"}}, {"drag": {"x": 600, "y": 400, "dx": 300, "dy": 0}}, {"settle": true}, {"expect": {"stack": ["Library"]}}]}
            """
        let first = try run(text)
        let second = try run(text)
        #expect(first == second)
        #expect(first.failure?.problems.first?.lines == ["the visible stack (library): expected [Library], got [Library, Air]"])
    }
}
