import NavKit

extension CommandResult {
    /// The `value` of a `result` message.
    public var json: JSONValue {
        switch self {
        case .controller(let id):
            return ["vc": .string(id)]
        case .root(let kind):
            return ["root": .string(kind)]
        case .tab(let index, let id, let top):
            return ["tab": .number(Double(index)), "id": .string(id), "vc": .string(top)]
        case .scroll(let offset, let active):
            return ["offset": .number(offset), "vc": .string(active)]
        case .page(let name):
            return ["page": .string(name)]
        case .settings(let settings):
            return settings.json
        case .state(let state, let presented):
            guard !presented.isEmpty, case .object(var object) = state.json else { return state.json }
            object["presented"] = .array(presented.map(\.json))
            return .object(object)
        }
    }
}
