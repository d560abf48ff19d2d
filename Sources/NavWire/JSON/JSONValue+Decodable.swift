#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension JSONValue {
    /// How many arrays and objects may be nested in a message; a protocol message needs a handful.
    /// JSONDecoder's own limit, checked while it scans the text, is 512; this one is checked while
    /// the value is built, so a deeper text costs one scan and 64 levels of decoding.
    public static let maxDepth = 64

    /// Parses one JSON text (a WebSocket text message): plain JSON by a scan of its bytes
    /// (`init?(scanning:)`), anything else by `parseInFull(_:)`, which reads all JSON the same
    /// way.
    public static func parse(_ text: String) throws(WireError) -> JSONValue {
        if let value = JSONValue(scanning: text) { return value }
        return try parseInFull(text)
    }

    /// Parses one JSON text with FoundationEssentials' `JSONDecoder`: `parse(_:)` without the
    /// scan, and what the scan must agree with.
    ///
    /// Anything the decoder rejects is `bad_json`. The decoder gives no position, so neither does
    /// the message; too deep a nesting says so. Where the decoder differs from RFC 8259: an object
    /// that repeats a key keeps the first value, a trailing comma before `]` or `}` and a leading
    /// byte-order mark are accepted, and numbers beyond a `Double` (`1e400`, also `1e-400`) are
    /// rejected. Decoded objects do not keep the text's key order.
    public static func parseInFull(_ text: String) throws(WireError) -> JSONValue {
        let decoder = JSONDecoder()
        decoder.userInfo[DecodeState.key] = DecodeState()
        do {
            return try decoder.decode(JSONValue.self, from: Data(text.utf8))
        } catch is TooDeep {
            throw WireError(.badJSON, "not valid JSON: arrays and objects nested more than \(maxDepth) deep")
        } catch is TooIrregular {
            throw WireError(.badJSON, "not valid JSON for this server: more than \(maxMisses) values of a kind other than the one before them")
        } catch {
            throw WireError(.badJSON, "not valid JSON")
        }
    }

    /// How many times a message's values may be of another kind than guessed (the member of the
    /// same name, or the element before, was of another kind). Each miss costs the decoder an
    /// error (about half a microsecond), so this bounds what a message whose kinds keep changing
    /// (`[[],true,[],true,…]`) can cost, to about a millisecond; protocol messages miss a few
    /// times at most, once per member name and kind of element.
    public static let maxMisses = 2048
}

extension JSONValue: Decodable {
    /// The Decoder API cannot say what kind of value comes next, only fail to decode the wrong
    /// kind, and each failure builds a `DecodingError` (about half a microsecond). So a container
    /// reads its own members and elements (which also carries the depth down) and guesses well:
    /// an array element first as the kind of the one before it, a nested object's member as the
    /// kind the last member of that name had in this message, anything else as a number first
    /// (pointer moves are mostly numbers), then a string; and a message may miss `maxMisses`
    /// times at most.
    public init(from decoder: any Decoder) throws {
        // `parse` passes its state; a decoder from elsewhere gets a fresh one.
        let state = decoder.userInfo[DecodeState.key] as? DecodeState ?? DecodeState()
        // A message is an object, so that is tried first.
        if let object = try? decoder.container(keyedBy: JSONKey.self) {
            self = try Self.object(object, depth: 1, state)
        } else if let array = try? decoder.unkeyedContainer() {
            self = try Self.array(array, depth: 1, state)
        } else {
            var value = SingleValue(container: try decoder.singleValueContainer())
            self = try Self.value(&value, guess: nil, depth: 0, state).value
        }
    }

    private static func object(_ container: KeyedDecodingContainer<JSONKey>, depth: Int, _ state: DecodeState) throws -> JSONValue {
        guard depth <= maxDepth else { throw TooDeep() }
        var object = JSONObject()
        // The message's own members never repeat: only nested objects (rows, tabs) learn.
        let learns = depth > 1
        for key in container.allKeys {
            var member = Member(container: container, key: key)
            let guess = learns ? state.memberKinds[key.stringValue] : nil
            let (value, kind) = try value(&member, guess: guess, depth: depth, state)
            object[key.stringValue] = value
            if learns, let kind, kind != guess { state.memberKinds[key.stringValue] = kind }
        }
        return .object(object)
    }

    private static func array(_ container: any UnkeyedDecodingContainer, depth: Int, _ state: DecodeState) throws -> JSONValue {
        guard depth <= maxDepth else { throw TooDeep() }
        var elements: [JSONValue] = []
        var element = Element(container: container)
        var guess: Kind?
        while !element.container.isAtEnd {
            let (value, kind) = try value(&element, guess: guess, depth: depth, state)
            elements.append(value)
            guess = kind
        }
        return .array(elements)
    }

    /// The value in `slot`, and its kind (nil for null): tried as `guess` first, then as a number,
    /// then a string, and so on, each miss counted.
    private static func value<S: Slot>(_ slot: inout S, guess: Kind?, depth: Int, _ state: DecodeState) throws -> (value: JSONValue, kind: Kind?) {
        if try slot.decodeNil() { return (.null, nil) }
        if let guess, let value = try attempt(guess, &slot, depth: depth, state) { return (value, guess) }
        for kind in Kind.allCases where kind != guess {
            if let value = try attempt(kind, &slot, depth: depth, state) { return (value, kind) }
        }
        throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "not a JSON value"))
    }

    /// The value in `slot` if it is of `kind`, nil if it is another kind (a miss). Other errors (a
    /// number out of range, a bad escape, too deep, too many misses) go on up.
    private static func attempt<S: Slot>(_ kind: Kind, _ slot: inout S, depth: Int, _ state: DecodeState) throws -> JSONValue? {
        do {
            switch kind {
            case .number: return .number(try slot.number())
            case .string: return .string(try slot.string())
            case .object: return try object(try slot.object(), depth: depth + 1, state)
            case .array: return try array(try slot.array(), depth: depth + 1, state)
            case .bool: return .bool(try slot.bool())
            }
        } catch DecodingError.typeMismatch {
            state.misses += 1
            guard state.misses <= maxMisses else { throw TooIrregular() }
            return nil
        }
    }
}

/// What one `parse` learns as it goes: the kind each member name last had (a screen's rows all
/// have a string `title`), and how many guesses missed.
private final class DecodeState: @unchecked Sendable {
    static let key = CodingUserInfoKey(rawValue: "stackcast.decodeState")!
    var memberKinds: [String: Kind] = [:]
    var misses = 0
}

/// Nested more than `JSONValue.maxDepth` deep.
private struct TooDeep: Error {}

/// More than `JSONValue.maxMisses` values of another kind than guessed.
private struct TooIrregular: Error {}

/// The kinds of non-null value, in the order they are tried when there is no better guess.
private enum Kind: CaseIterable {
    case number, string, object, array, bool
}

private struct JSONKey: CodingKey {
    let stringValue: String
    init(stringValue: String) { self.stringValue = stringValue }
    var intValue: Int? { nil }
    init?(intValue: Int) { nil }
}

/// Where the next value is read from: an object's member, an array's next element, or the top.
private protocol Slot {
    mutating func decodeNil() throws -> Bool
    mutating func number() throws -> Double
    mutating func string() throws -> String
    mutating func bool() throws -> Bool
    mutating func object() throws -> KeyedDecodingContainer<JSONKey>
    mutating func array() throws -> any UnkeyedDecodingContainer
}

private struct Member: Slot {
    let container: KeyedDecodingContainer<JSONKey>
    let key: JSONKey
    func decodeNil() throws -> Bool { try container.decodeNil(forKey: key) }
    func number() throws -> Double { try container.decode(Double.self, forKey: key) }
    func string() throws -> String { try container.decode(String.self, forKey: key) }
    func bool() throws -> Bool { try container.decode(Bool.self, forKey: key) }
    func object() throws -> KeyedDecodingContainer<JSONKey> { try container.nestedContainer(keyedBy: JSONKey.self, forKey: key) }
    func array() throws -> any UnkeyedDecodingContainer { try container.nestedUnkeyedContainer(forKey: key) }
}

private struct Element: Slot {
    var container: any UnkeyedDecodingContainer
    mutating func decodeNil() throws -> Bool { try container.decodeNil() }
    mutating func number() throws -> Double { try container.decode(Double.self) }
    mutating func string() throws -> String { try container.decode(String.self) }
    mutating func bool() throws -> Bool { try container.decode(Bool.self) }
    mutating func object() throws -> KeyedDecodingContainer<JSONKey> { try container.nestedContainer(keyedBy: JSONKey.self) }
    mutating func array() throws -> any UnkeyedDecodingContainer { try container.nestedUnkeyedContainer() }
}

/// A top-level number, string or boolean (containers were tried before).
private struct SingleValue: Slot {
    let container: any SingleValueDecodingContainer
    func decodeNil() throws -> Bool { container.decodeNil() }
    func number() throws -> Double { try container.decode(Double.self) }
    func string() throws -> String { try container.decode(String.self) }
    func bool() throws -> Bool { try container.decode(Bool.self) }
    func object() throws -> KeyedDecodingContainer<JSONKey> { throw mismatch([String: JSONValue].self) }
    func array() throws -> any UnkeyedDecodingContainer { throw mismatch([JSONValue].self) }

    private func mismatch(_ type: Any.Type) -> DecodingError {
        .typeMismatch(type, .init(codingPath: container.codingPath, debugDescription: "not a container"))
    }
}
