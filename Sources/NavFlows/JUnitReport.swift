/// JUnit XML for CI systems: one test case per flow file, a `failure` with the diff for a flow
/// that failed, an `error` for a file that could not be run.
public enum JUnitReport {
    /// The document for `reports`, as one test suite named `suite`.
    public static func xml(_ reports: [FlowReport], suite: String = "stackcast test") -> String {
        let failures = reports.filter { if case .ran(let outcome) = $0.result { !outcome.passed } else { false } }.count
        let errors = reports.filter { if case .unreadable = $0.result { true } else { false } }.count
        let total = reports.reduce(0) { $0 + $1.seconds }
        var lines = [
            #"<?xml version="1.0" encoding="UTF-8"?>"#,
            #"<testsuites name="\#(escape(suite))" tests="\#(reports.count)" failures="\#(failures)" errors="\#(errors)" time="\#(seconds(total))">"#,
            #"  <testsuite name="\#(escape(suite))" tests="\#(reports.count)" failures="\#(failures)" errors="\#(errors)" time="\#(seconds(total))">"#,
        ]
        for report in reports {
            let open = #"    <testcase classname="flows" name="\#(escape(report.file))" time="\#(seconds(report.seconds))""#
            switch report.result {
            case .ran(let outcome) where outcome.passed:
                lines.append(open + "/>")
            case .ran(let outcome):
                let headline = outcome.failure.map(report.headline) ?? report.file
                lines.append(open + ">")
                lines.append(#"      <failure message="\#(escape(headline))">\#(escape(report.text))</failure>"#)
                lines.append("    </testcase>")
            case .unreadable(let error):
                lines.append(open + ">")
                lines.append(#"      <error message="\#(escape(error.description))">\#(escape(error.description))</error>"#)
                lines.append("    </testcase>")
            }
        }
        lines += ["  </testsuite>", "</testsuites>", ""]
        return lines.joined(separator: "\n")
    }

    /// Text made safe for an attribute or element: the five XML entities, and control characters
    /// XML 1.0 cannot hold replaced by U+FFFD.
    static func escape(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&apos;"
            case "\n", "\t", "\r": result.unicodeScalars.append(scalar)
            default: result.unicodeScalars.append(scalar.value < 0x20 ? "\u{FFFD}" : scalar)
            }
        }
        return result
    }

    private static func seconds(_ value: Double) -> String {
        FlowText.number(value)
    }
}
