/// Pages of an app's own kinds: a screen spec that names a kind (`"kind":"player"`) is built by
/// the factory the app registered for it, so commands and rows push an app's own pages as they
/// push lists of rows.
extension Scene {
    /// Has specs of kind `kind` built by `make` from now on (an app registers its kinds when it
    /// builds its root). Registering a kind again replaces its factory.
    public func register(pageKind kind: String, _ make: @escaping @Sendable (ScreenSpec) -> ViewController) {
        pageKinds[kind] = make
    }

    /// The page kinds registered, sorted.
    public var registeredPageKinds: [String] { pageKinds.keys.sorted() }

    /// Fails when a screen `command` would build names a kind nobody registered: nothing of the
    /// command is done then.
    func checkPageKinds(of command: Command) throws(NavError) {
        switch command {
        case .push(let screen, _, _), .replaceTop(let screen, _, _, _): try checkPageKinds(screen)
        case .popTo(_, _, let then, _): if let then { try checkPageKinds(then.screen) }
        case .setStack(let screens, _, _): for screen in screens { try checkPageKinds(screen) }
        case .setRoot(let spec): for screen in spec.screens { try checkPageKinds(screen) }
        default: break
        }
    }

    /// Fails for a spec that names a kind nobody registered, itself or the page a left swipe
    /// pushes from it.
    func checkPageKinds(_ spec: ScreenSpec) throws(NavError) {
        if let kind = spec.kind, pageKinds[kind] == nil {
            let known = registeredPageKinds.isEmpty ? "this app registers none" : "known: " + registeredPageKinds.joined(separator: ", ")
            throw .invalidArgument("screen \(spec.name): no page kind named \(kind) (\(known))")
        }
        if let next = spec.swipePush { try checkPageKinds(next) }
    }
}
