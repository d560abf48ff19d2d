import NavKit

/// Reads typed fields out of one JSON object. Every error is `bad_message` and names the field's
/// full path and what was expected, e.g. `screen.rows[1].title: expected a string, got 3`.
struct FieldReader {
    let object: JSONObject
    /// Where this object sits in the message (`""` at the top, `screen`, `screen.rows[1]`).
    let path: String

    init(_ value: JSONValue, path: String) throws(WireError) {
        guard case .object(let object) = value else {
            throw .badMessage("\(path.isEmpty ? "message" : path): expected an object, got \(FieldReader.describe(value))")
        }
        self.object = object
        self.path = path
    }

    func fieldPath(_ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }

    func has(_ key: String) -> Bool {
        if let value = object[key], value != .null { return true }
        return false
    }

    /// The raw value, or nil when missing or null.
    func value(_ key: String) -> JSONValue? {
        guard let value = object[key], value != .null else { return nil }
        return value
    }

    func string(_ key: String) throws(WireError) -> String {
        guard let value = try optionalString(key) else { throw missing(key, "a string") }
        return value
    }

    func optionalString(_ key: String) throws(WireError) -> String? {
        guard let value = value(key) else { return nil }
        guard case .string(let string) = value else { throw wrong(key, "a string", value) }
        return string
    }

    /// A non-empty string.
    func name(_ key: String) throws(WireError) -> String {
        let value = try string(key)
        if value.isEmpty { throw .badMessage("\(fieldPath(key)): expected a non-empty string") }
        return value
    }

    func number(_ key: String) throws(WireError) -> Double {
        guard let value = try optionalNumber(key) else { throw missing(key, "a number") }
        return value
    }

    func optionalNumber(_ key: String) throws(WireError) -> Double? {
        guard let value = value(key) else { return nil }
        guard case .number(let number) = value, number.isFinite else { throw wrong(key, "a number", value) }
        return number
    }

    /// A number within `range`.
    func optionalNumber(_ key: String, in range: ClosedRange<Double>) throws(WireError) -> Double? {
        guard let number = try optionalNumber(key) else { return nil }
        guard range.contains(number) else {
            throw .badMessage("\(fieldPath(key)): expected a number from \(FieldReader.format(range.lowerBound)) to \(FieldReader.format(range.upperBound)), got \(FieldReader.format(number))")
        }
        return number
    }

    func int(_ key: String) throws(WireError) -> Int {
        guard let value = try optionalInt(key) else { throw missing(key, "an integer") }
        return value
    }

    func optionalInt(_ key: String) throws(WireError) -> Int? {
        guard let value = value(key) else { return nil }
        guard case .number(let number) = value, number.rounded() == number, abs(number) < 9e15 else {
            throw wrong(key, "an integer", value)
        }
        return Int(number)
    }

    func optionalBool(_ key: String) throws(WireError) -> Bool? {
        guard let value = value(key) else { return nil }
        guard case .bool(let bool) = value else { throw wrong(key, "true or false", value) }
        return bool
    }

    func optionalColor(_ key: String) throws(WireError) -> Color? {
        guard let string = try optionalString(key) else { return nil }
        guard let color = Color(hex: string) else {
            throw .badMessage("\(fieldPath(key)): expected a colour like #RRGGBB or #RRGGBBAA, got \"\(string)\"")
        }
        return color
    }

    /// One of `choices` (a string), or nil when missing.
    func optionalChoice(_ key: String, _ choices: [String]) throws(WireError) -> String? {
        guard let string = try optionalString(key) else { return nil }
        guard choices.contains(string) else {
            throw .badMessage("\(fieldPath(key)): expected one of \(choices.joined(separator: ", ")), got \"\(string)\"")
        }
        return string
    }

    func reader(_ key: String) throws(WireError) -> FieldReader {
        guard let value = value(key) else { throw missing(key, "an object") }
        return try FieldReader(value, path: fieldPath(key))
    }

    func optionalReader(_ key: String) throws(WireError) -> FieldReader? {
        guard let value = value(key) else { return nil }
        return try FieldReader(value, path: fieldPath(key))
    }

    func array(_ key: String) throws(WireError) -> [JSONValue] {
        guard let value = try optionalArray(key) else { throw missing(key, "an array") }
        return value
    }

    func optionalArray(_ key: String) throws(WireError) -> [JSONValue]? {
        guard let value = value(key) else { return nil }
        guard case .array(let array) = value else { throw wrong(key, "an array", value) }
        return array
    }

    /// Readers for each object of the array `key`, with paths like `rows[2]`.
    func readers(_ key: String) throws(WireError) -> [FieldReader] {
        var result: [FieldReader] = []
        for (index, element) in try (optionalArray(key) ?? []).enumerated() {
            result.append(try FieldReader(element, path: "\(fieldPath(key))[\(index)]"))
        }
        return result
    }

    func missing(_ key: String, _ expected: String) -> WireError {
        .badMessage("\(fieldPath(key)): missing; expected \(expected)")
    }

    func wrong(_ key: String, _ expected: String, _ value: JSONValue) -> WireError {
        .badMessage("\(fieldPath(key)): expected \(expected), got \(FieldReader.describe(value))")
    }

    /// A short description of a JSON value for error messages.
    static func describe(_ value: JSONValue) -> String {
        switch value {
        case .null: "null"
        case .bool(let b): b ? "true" : "false"
        case .number(let n): format(n)
        case .string(let s): s.count > 40 ? "a string" : "\"\(s)\""
        case .array: "an array"
        case .object: "an object"
        }
    }

    static func format(_ number: Double) -> String {
        number.rounded() == number && abs(number) < 1e15 ? String(Int(number)) : String(number)
    }
}
