import NavKit

extension NavigationState {
    /// The protocol's STATE object.
    public var json: JSONValue {
        switch self {
        case .stack(let stack):
            var object = JSONObject()
            object["kind"] = stack.split == nil ? "stack" : "split"
            object["id"] = .string(stack.id)
            object["stack"] = .array(stack.pages.map(\.json))
            if let transition = stack.transition { object["transition"] = transition.json }
            stack.split?.add(to: &object)
            return .object(object)
        case .tabs(let tabs):
            return [
                "kind": .string(tabs.style == .side ? "sideTabs" : "tabs"),
                "selected": .number(Double(tabs.selected)),
                "barVisible": .bool(tabs.barVisible),
                "tabs": .array(tabs.tabs.map { $0.json(barStyle: tabs.style) }),
            ]
        case .page(let page):
            return page.json
        }
    }
}

extension TabState {
    /// A TAB of the state; a tab whose stack is not the bar's own kind (a split under a bottom
    /// bar) names its `kind`, and one whose stack has an id of its own names it (`stackId`).
    func json(barStyle: TabBarStyle) -> JSONValue {
        var object = JSONObject()
        object["id"] = .string(id)
        object["title"] = .string(title)
        object["badge"] = badge.map(JSONValue.string) ?? .null
        let isSplit = stack.split != nil
        if isSplit != (barStyle == .side) { object["kind"] = .string(isSplit ? "split" : "stack") }
        if stack.id != id { object["stackId"] = .string(stack.id) }
        object["stack"] = .array(stack.pages.map(\.json))
        if let transition = stack.transition { object["transition"] = transition.json }
        stack.split?.add(to: &object)
        return .object(object)
    }
}

extension SplitState {
    /// A split's fields, next to its pages.
    func add(to object: inout JSONObject) {
        object["offset"] = .number(offset)
        object["targetOffset"] = .number(targetOffset)
        object["active"] = .number(Double(active))
        object["position"] = .string(position)
        object["scrolling"] = .bool(scrolling)
    }
}

extension TransitionState {
    var json: JSONValue { ["op": .string(op), "interactive": .bool(interactive)] }
}

extension PageState {
    var json: JSONValue {
        var object = JSONObject()
        object["vc"] = .string(vc)
        object["screen"] = .string(screen)
        object["title"] = .string(title)
        object["frame"] = .array([.number(frame.x), .number(frame.y), .number(frame.width), .number(frame.height)])
        object["appearance"] = .string(appearance.rawValue)
        object["transition"] = .string(transition)
        if scrollOffset != 0 { object["scrollOffset"] = .number(scrollOffset) }
        if let hidden { object["hidden"] = .bool(hidden) }
        if let dim { object["dim"] = .number(dim) }
        if let pages {
            object["pages"] = .array(pages.pages.map(JSONValue.string))
            if pages.animating { object["pagesAnimating"] = true }
        }
        return .object(object)
    }
}

extension PresentedState {
    /// A presented container's STATE with its `style` (and a panel's `detent`) first.
    var json: JSONValue {
        var object = JSONObject()
        object["style"] = .string(style.rawValue)
        if let detent { object["detent"] = detent.json }
        if case .object(let inner) = state.json {
            for key in inner.keys { object[key] = inner[key] }
        }
        return .object(object)
    }
}
