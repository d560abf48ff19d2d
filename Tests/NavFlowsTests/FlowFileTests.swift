import NavFlows
import NavKit
import Testing

/// Reading flow files: JSON and YAML give the same flow, every mistake names its field and line.
@Suite struct FlowFileTests {
    @Test func jsonAndYAMLReadTheSameWithTheLineOfEachStep() throws {
        let json = try FlowFile.parse("""
            {
              "app": "stack",
              "steps": [
                {"command": {"op": "push", "screen": {"name": "A", "rows": [{"title": "x"}]}}},

                {"drag": {"x": 20, "y": 400, "dx": 200}},
                {"expect": {"stack": ["Home", "A"], "error": "busy"}}
              ]
            }
            """, name: "f.json")
        let yaml = try FlowFile.parse("""
            app: stack
            steps:
              - command: {op: push, screen: {name: A, rows: [{title: x}]}}

              - drag: {x: 20, y: 400, dx: 200}
              - expect:
                  stack: [Home, A]
                  error: busy
            """, name: "f.yaml")
        #expect(json.steps.map(\.line) == [4, 6, 7])
        #expect(yaml.steps.map(\.line) == [3, 5, 6])
        #expect(json.steps.map(\.action) == yaml.steps.map(\.action))
        #expect(json.viewport == .phone)
        #expect(json.steps[1].action == .gesture(FlowGesture(kind: .drag, start: Point(x: 20, y: 400), translation: Point(x: 200, y: 0), duration: 0.3, release: .hold)))
    }

    @Test func yamlKeepsQuotedWordsAsStrings() throws {
        let flow = try FlowFile.parse("""
            app: stack
            steps:
              - command: {op: push, screen: {name: "No", title: "1.0"}}
              - settle: true
            """, name: "f.yml")
        #expect(flow.steps[0].action == .command(.push(ScreenSpec(name: "No", title: "1.0"))))
        #expect(flow.steps[1].action == .settle)
    }

    @Test(arguments: [
        ("{\"app\": \"stack\", \"steps\": [", "f.json: not valid JSON (check its commas, quotes and brackets)"),
        ("{\"app\": \"watch\", \"steps\": [{\"settle\": true}]}", "f.json: app: no app named watch; available: phone, tablet, stack"),
        ("{\"app\": \"stack\", \"steps\": []}", "f.json: steps: expected at least one step"),
        ("{\"app\": \"stack\", \"step\": []}", "f.json: step: unknown field; expected app, viewport, steps, description"),
        ("{\"app\": \"stack\",\n\"steps\": [\n{\"settle\": true},\n{\"command\": {\"op\": \"psuh\"}}]}",
         "f.json:4: steps[1].command.op: unknown op \"psuh\"; expected one of setRoot, push, pop, popToRoot, popTo, replaceTop, setStack, selectTab, setBadge, page, scrollTo, present, dismiss, update, configure, subscribe, query"),
        ("{\"steps\": [{\"command\": {\"op\": \"push\", \"screen\": {\"rows\": []}}}]}", "f.json:1: steps[0].command.screen.name: missing; expected a string"),
        ("{\"steps\": [{\"drag\": {\"x\": 1, \"y\": 2}, \"tap\": {\"x\": 1, \"y\": 2}}]}", "f.json:1: steps[0]: one step at a time, got tap and drag; make them separate steps"),
        ("{\"steps\": [{\"expect\": {\"events\": [\"Home.viewDidApear\"]}}]}",
         "f.json:1: steps[0].expect.events[0]: expected an event like \"Detail.viewWillAppear\", \"transitionStart\" or [\"viewWillAppear\", \"Detail\"], got \"Home.viewDidApear\"; events are viewDidLoad, viewWillAppear, viewDidAppear, viewWillDisappear, viewDidDisappear, released, transitionStart, transitionEnd, gestureBegan, gestureEnded, pageWillHide, pageDidShow, action, detentChanged"),
        ("{\"steps\": [{\"expect\": {\"error\": \"gone\"}}]}",
         "f.json:1: steps[0].expect.error: expected one of bad_json, bad_message, unknown_op, not_ready, not_found, invalid_state, busy, too_large, rate_limited, forbidden, unsupported, got \"gone\""),
        ("{\"steps\": [{\"command\": {\"op\": \"subscribe\", \"events\": [\"lifecycle\"]}}]}",
         "f.json:1: steps[0].command.op: a flow needs no subscribe: it records every event, and expect.events compares them"),
        ("{\"viewport\": {\"width\": 0, \"height\": 10}, \"steps\": [{\"settle\": true}]}", "f.json: viewport.width: expected a number from 1 to 10000, got 0"),
        ("{\"steps\": [{\"expect\": {\"node\": {\"role\": \"tabbar\", \"visible\": false, \"frame\": [0, 0, 1, 1]}}}]}",
         "f.json:1: steps[0].expect.node.visible: a node expected not to be drawn has no frame, alpha, fill or text to check"),
    ])
    func mistakesNameTheFieldAndLine(text: String, message: String) {
        #expect(throws: FlowFileError.self) { try FlowFile.parse(text, name: "f.json") }
        do {
            _ = try FlowFile.parse(text, name: "f.json")
        } catch {
            #expect(error.description == message)
        }
    }

    @Test func yamlSyntaxErrorsGiveTheirLine() {
        do {
            _ = try FlowFile.parse("app: stack\nsteps:\n  - settle: [true\n", name: "f.yaml")
            Issue.record("a broken YAML file was read")
        } catch {
            #expect(error.line == 4)
            #expect(error.message.hasPrefix("not valid YAML: "))
        }
    }

    @Test func missingFilesAndFoldersAreNamed() {
        #expect(throws: FlowFileError(file: "/nonexistent/flow.json", "no such file")) { try FlowFile.load("/nonexistent/flow.json") }
    }
}
