import NavFlows
import Testing

@Suite struct JUnitReportTests {
    @Test func passesFailuresAndUnreadableFilesAreCasesWithTheirText() throws {
        let failing = FlowRunner(try FlowFile.parse(#"{"app":"stack","steps":[{"expect":{"stack":["A & <B>"]}}]}"#, name: "b.json")).run()
        let reports = [
            FlowReport(file: "a.json", result: .ran(FlowRunner(try FlowFile.parse(#"{"steps":[{"settle":true}]}"#, name: "a.json")).run()), seconds: 0.25),
            FlowReport(file: "b.json", result: .ran(failing), seconds: 0.5),
            FlowReport(file: "c.yaml", result: .unreadable(FlowFileError(file: "c.yaml", line: 2, "not valid YAML: \u{1}")), seconds: 0),
        ]
        #expect(JUnitReport.xml(reports) == """
            <?xml version="1.0" encoding="UTF-8"?>
            <testsuites name="stackcast test" tests="3" failures="1" errors="1" time="0.75">
              <testsuite name="stackcast test" tests="3" failures="1" errors="1" time="0.75">
                <testcase classname="flows" name="a.json" time="0.25"/>
                <testcase classname="flows" name="b.json" time="0.5">
                  <failure message="b.json:1: step 1 of 1 (expect) failed at 0 s on the flow clock">✘ b.json:1: step 1 of 1 (expect) failed at 0 s on the flow clock
                the visible stack (main): expected [A &amp; &lt;B&gt;], got [Home]</failure>
                </testcase>
                <testcase classname="flows" name="c.yaml" time="0">
                  <error message="c.yaml:2: not valid YAML: \u{FFFD}">c.yaml:2: not valid YAML: \u{FFFD}</error>
                </testcase>
              </testsuite>
            </testsuites>

            """)
    }
}
