/// Every operation of the protocol, in one list: the decoder, the docs check, error messages and
/// tests all read it from here.
public enum Operation: String, CaseIterable, Equatable, Hashable, Sendable {
    case setRoot, push, pop, popToRoot, popTo, replaceTop, setStack
    case selectTab, setBadge, page, scrollTo, present, dismiss, update
    case configure, subscribe, query

    /// Every op name, comma separated, for error messages.
    public static var list: String { allCases.map(\.rawValue).joined(separator: ", ") }
}
