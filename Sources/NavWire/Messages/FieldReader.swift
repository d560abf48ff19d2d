import NavKit

/// Reads typed fields out of one JSON object. Every error is `bad_message` and names the field's
/// full path and what was expected, e.g. `screen.rows[1].title: expected a string, got 3`.
/// Public so that other JSON documents of the project (flow files) report errors the same way.
///
/// A value; any thread.
public struct FieldReader {
    public let object: JSONObject
    /// Where this object sits in the message (`""` at the top, `screen`, `screen.rows[1]`).
    public let path: String

    public init(_ value: JSONValue, path: String) throws(WireError) {
        guard case .object(let object) = value else {
            throw .badMessage("\(path.isEmpty ? "message" : path): expected an object, got \(FieldReader.describe(value))")
        }
        self.object = object
        self.path = path
    }

    public func fieldPath(_ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }

    public func has(_ key: String) -> Bool {
        if let value = object[key], value != .null { return true }
        return false
    }

    /// The raw value, or nil when missing or null.
    public func value(_ key: String) -> JSONValue? {
        guard let value = object[key], value != .null else { return nil }
        return value
    }

    public func string(_ key: String) throws(WireError) -> String {
        guard let value = try optionalString(key) else { throw missing(key, "a string") }
        return value
    }

    /// A non-empty string, or nil when missing.
    public func optionalName(_ key: String) throws(WireError) -> String? {
        guard has(key) else { return nil }
        return try name(key)
    }

    public func optionalString(_ key: String) throws(WireError) -> String? {
        guard let value = value(key) else { return nil }
        guard case .string(let string) = value else { throw wrong(key, "a string", value) }
        return string
    }

    /// A non-empty string.
    public func name(_ key: String) throws(WireError) -> String {
        let value = try string(key)
        if value.isEmpty { throw .badMessage("\(fieldPath(key)): expected a non-empty string") }
        return value
    }

    public func number(_ key: String) throws(WireError) -> Double {
        guard let value = try optionalNumber(key) else { throw missing(key, "a number") }
        return value
    }

    public func optionalNumber(_ key: String) throws(WireError) -> Double? {
        guard let value = value(key) else { return nil }
        guard case .number(let number) = value, number.isFinite else { throw wrong(key, "a number", value) }
        return number
    }

    /// A number within `range`.
    public func optionalNumber(_ key: String, in range: ClosedRange<Double>) throws(WireError) -> Double? {
        guard let number = try optionalNumber(key) else { return nil }
        guard range.contains(number) else {
            throw .badMessage("\(fieldPath(key)): expected a number from \(FieldReader.format(range.lowerBound)) to \(FieldReader.format(range.upperBound)), got \(FieldReader.format(number))")
        }
        return number
    }

    public func int(_ key: String) throws(WireError) -> Int {
        guard let value = try optionalInt(key) else { throw missing(key, "an integer") }
        return value
    }

    public func optionalInt(_ key: String) throws(WireError) -> Int? {
        guard let value = value(key) else { return nil }
        guard case .number(let number) = value, number.rounded() == number, abs(number) < 9e15 else {
            throw wrong(key, "an integer", value)
        }
        return Int(number)
    }

    public func optionalBool(_ key: String) throws(WireError) -> Bool? {
        guard let value = value(key) else { return nil }
        guard case .bool(let bool) = value else { throw wrong(key, "true or false", value) }
        return bool
    }

    public func optionalColor(_ key: String) throws(WireError) -> Color? {
        guard let string = try optionalString(key) else { return nil }
        guard let color = Color(hex: string) else {
            throw .badMessage("\(fieldPath(key)): expected a colour like #RRGGBB or #RRGGBBAA, got \"\(string)\"")
        }
        return color
    }

    /// One of `choices` (a string), or nil when missing.
    public func optionalChoice(_ key: String, _ choices: [String]) throws(WireError) -> String? {
        guard let string = try optionalString(key) else { return nil }
        guard choices.contains(string) else {
            throw .badMessage("\(fieldPath(key)): expected one of \(choices.joined(separator: ", ")), got \"\(string)\"")
        }
        return string
    }

    public func reader(_ key: String) throws(WireError) -> FieldReader {
        guard let value = value(key) else { throw missing(key, "an object") }
        return try FieldReader(value, path: fieldPath(key))
    }

    public func optionalReader(_ key: String) throws(WireError) -> FieldReader? {
        guard let value = value(key) else { return nil }
        return try FieldReader(value, path: fieldPath(key))
    }

    public func array(_ key: String) throws(WireError) -> [JSONValue] {
        guard let value = try optionalArray(key) else { throw missing(key, "an array") }
        return value
    }

    public func optionalArray(_ key: String) throws(WireError) -> [JSONValue]? {
        guard let value = value(key) else { return nil }
        guard case .array(let array) = value else { throw wrong(key, "an array", value) }
        return array
    }

    /// Readers for each object of the array `key`, with paths like `rows[2]`.
    public func readers(_ key: String) throws(WireError) -> [FieldReader] {
        var result: [FieldReader] = []
        for (index, element) in try (optionalArray(key) ?? []).enumerated() {
            result.append(try FieldReader(element, path: "\(fieldPath(key))[\(index)]"))
        }
        return result
    }

    public func missing(_ key: String, _ expected: String) -> WireError {
        .badMessage("\(fieldPath(key)): missing; expected \(expected)")
    }

    public func wrong(_ key: String, _ expected: String, _ value: JSONValue) -> WireError {
        .badMessage("\(fieldPath(key)): expected \(expected), got \(FieldReader.describe(value))")
    }

    /// A short description of a JSON value for error messages.
    public static func describe(_ value: JSONValue) -> String {
        switch value {
        case .null: "null"
        case .bool(let b): b ? "true" : "false"
        case .number(let n): format(n)
        case .string(let s): s.count > 40 ? "a string" : "\"\(s)\""
        case .array: "an array"
        case .object: "an object"
        }
    }

    public static func format(_ number: Double) -> String {
        number.rounded() == number && abs(number) < 1e15 ? String(Int(number)) : String(number)
    }
}
