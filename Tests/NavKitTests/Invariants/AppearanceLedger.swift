import NavKit

/// Follows a scene's lifecycle events (`Scene.onEvent`) and checks every page's callbacks against
/// UIKit's appearance cycle, independently of the engine's own guard (`appearanceViolations`, which
/// only sees calls the containers make through `Controller`):
///
///     viewDidLoad, then  disappeared → willAppear → appearing → didAppear → appeared
///                        appeared → willDisappear → disappearing → didDisappear → disappeared
///     plus the reversals of a cancelled interactive pop (appearing → willDisappear,
///     disappearing → willAppear), then `released` only once disappeared, and nothing after it.
final class AppearanceLedger {
    enum State: String {
        case disappeared, appearing, appeared, disappearing, released
    }

    private var states: [String: State] = [:]
    private var loaded: Set<String> = []
    /// What broke the cycle, in order (`Screen (vc): what`).
    private(set) var violations: [String] = []

    /// Where page `vc` is in the cycle as its events tell it (disappeared before any event).
    func state(of vc: String) -> State {
        states[vc] ?? .disappeared
    }

    func isReleased(_ vc: String) -> Bool {
        states[vc] == .released
    }

    func record(_ event: SceneEvent) {
        guard event.name.group == "lifecycle", let vc = event.vc else { return }
        let state = state(of: vc)
        let page = "\(event.screen ?? "?") (\(vc))"
        if state == .released {
            return violations.append("\(page): \(event.name.rawValue) after released")
        }
        if event.name != .viewDidLoad && event.name != .released && !loaded.contains(vc) {
            violations.append("\(page): \(event.name.rawValue) before viewDidLoad")
        }
        let next: State?
        switch event.name {
        case .viewDidLoad:
            if !loaded.insert(vc).inserted { violations.append("\(page): viewDidLoad twice") }
            return
        case .viewWillAppear: next = state == .disappeared || state == .disappearing ? .appearing : nil
        case .viewDidAppear: next = state == .appearing ? .appeared : nil
        case .viewWillDisappear: next = state == .appeared || state == .appearing ? .disappearing : nil
        case .viewDidDisappear: next = state == .disappearing ? .disappeared : nil
        case .released: next = state == .disappeared ? .released : nil
        default: return
        }
        guard let next else {
            return violations.append("\(page): \(event.name.rawValue) while \(state.rawValue)")
        }
        states[vc] = next
    }
}
