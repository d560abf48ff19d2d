import Foundation
import NavWire
import Yams

/// Reads flow files: JSON (`.json`) or YAML (`.yaml`, `.yml`; other names are read as JSON when
/// they start with `{`), and notes the line of each step for failure reports.
///
/// Stateless; any thread.
public enum FlowFile {
    /// The file names a folder given to `stackcast test` contributes.
    public static let extensions = ["json", "yaml", "yml"]

    /// The deepest nesting a YAML flow file may have; a flow needs fewer than ten levels.
    public static let maximumYAMLDepth = 100
    /// The most values a YAML flow file may hold once its aliases are expanded: an alias repeats
    /// what it names, so a few hundred bytes of aliases to aliases would otherwise expand to
    /// gigabytes.
    public static let maximumYAMLValues = 250_000

    /// `paths` with each folder replaced by its flow files (`extensions`, not its subfolders), in
    /// name order; files and missing paths stay as given (a missing one is reported when loaded).
    public static func expand(_ paths: [String]) -> [String] {
        paths.flatMap { path -> [String] in
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue,
                let names = try? FileManager.default.contentsOfDirectory(atPath: path)
            else { return [path] }
            let folder = path.hasSuffix("/") ? path : path + "/"
            return names.filter { extensions.contains(($0 as NSString).pathExtension.lowercased()) }.sorted().map { folder + $0 }
        }
    }

    /// The flow in the file at `path`.
    public static func load(_ path: String) throws(FlowFileError) -> Flow {
        let text: String
        do {
            text = try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            throw FlowFileError(file: path, readProblem(path))
        }
        return try parse(text, name: path)
    }

    /// The flow `text` describes; `name` (its path) says whether it is YAML and names it in reports.
    public static func parse(_ text: String, name: String) throws(FlowFileError) -> Flow {
        let json: JSONValue
        let lines: [Int]
        if isYAML(name: name, text: text) {
            if let deep = YAMLNesting.firstLine(of: text, deeperThan: maximumYAMLDepth) {
                throw FlowFileError(
                    file: name, line: deep.line,
                    "nested \(deep.depth) levels deep; a flow file may nest at most \(maximumYAMLDepth) levels")
            }
            let node: Node?
            do {
                node = try Yams.compose(yaml: text)
            } catch let error as YamlError {
                throw FlowFileError(file: name, line: yamlLine(error), "not valid YAML: \(yamlProblem(error))")
            } catch {
                throw FlowFileError(file: name, "not valid YAML: \(error)")
            }
            guard let node else { throw FlowFileError(file: name, line: 1, "the file is empty; expected a flow (app, viewport, steps)") }
            var budget = maximumYAMLValues
            json = try value(of: node, file: name, budget: &budget)
            lines = node["steps"]?.sequence?.map { $0.mark?.line ?? 0 } ?? []
        } else {
            do {
                json = try JSONValue.parse(text)
            } catch {
                throw FlowFileError(file: name, "\(error.message) (check its commas, quotes and brackets)")
            }
            lines = JSONStepLines.lines(in: text)
        }
        return try FlowDecoder.decode(json, name: name, stepLines: lines)
    }

    static func isYAML(name: String, text: String) -> Bool {
        let lower = name.lowercased()
        if lower.hasSuffix(".yaml") || lower.hasSuffix(".yml") { return true }
        if lower.hasSuffix(".json") { return false }
        return text.first { !$0.isWhitespace } != "{"
    }

    private static func readProblem(_ path: String) -> String {
        var isDirectory: ObjCBool = false
        if !FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) { return "no such file" }
        if isDirectory.boolValue { return "is a folder with no flow files (.json, .yaml, .yml)" }
        return "cannot be read as UTF-8 text"
    }

    // MARK: YAML

    /// The JSON value of a YAML document: scalars by YAML's own resolution (quote a name such as
    /// `"No"` or `"1.0"` to keep it a string), mapping keys as strings. Each value takes one from
    /// `budget`: none left is an error, so aliases cannot expand without bound.
    private static func value(of node: Node, file: String, budget: inout Int) throws(FlowFileError) -> JSONValue {
        budget -= 1
        guard budget >= 0 else {
            throw FlowFileError(
                file: file, line: node.mark?.line,
                "holds more than \(maximumYAMLValues) values once its aliases (*name) are expanded; a flow file may hold at most that many")
        }
        switch node {
        case .scalar(let scalar):
            // `Node.tag` resolves the tag (plain `true` is a bool, quoted `"true"` a string); the
            // name is public only as the tag's description.
            switch node.tag.description {
            case Tag.Name.null.rawValue: return .null
            case Tag.Name.bool.rawValue: return node.bool.map(JSONValue.bool) ?? .string(scalar.string)
            case Tag.Name.int.rawValue, Tag.Name.float.rawValue: return node.float.map(JSONValue.number) ?? .string(scalar.string)
            default: return .string(scalar.string)
            }
        case .sequence(let sequence):
            var elements: [JSONValue] = []
            for element in sequence { elements.append(try value(of: element, file: file, budget: &budget)) }
            return .array(elements)
        case .mapping(let mapping):
            var object = JSONObject()
            for (key, member) in mapping {
                guard case .scalar(let name) = key else {
                    throw FlowFileError(file: file, line: key.mark?.line, "a mapping key must be a plain name")
                }
                object[name.string] = try value(of: member, file: file, budget: &budget)
            }
            return .object(object)
        }
    }

    private static func yamlLine(_ error: YamlError) -> Int? {
        switch error {
        case .scanner(_, _, let mark, _), .parser(_, _, let mark, _), .composer(_, _, let mark, _): mark.line
        default: nil
        }
    }

    private static func yamlProblem(_ error: YamlError) -> String {
        switch error {
        case .scanner(let context, let problem, _, _), .parser(let context, let problem, _, _), .composer(let context, let problem, _, _):
            context.map { "\(problem) \($0.text)" } ?? problem
        default: "\(error)"
        }
    }
}
