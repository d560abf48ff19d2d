/// A container whose pages form a stack that the stack commands (push, pop, popTo, popToRoot,
/// replaceTop, setStack) act on: the navigation stack, and the stacked split of side tabs. The
/// scene reaches it through this protocol, so it names neither.
///
/// Each `perform…` runs from the scene's command queue and calls `done` exactly once.
///
/// Not thread-safe: belongs to one scene, used from one thread.
protocol StackCommandTarget: Controller {
    typealias Completion = (Result<CommandResult, NavError>) -> Void

    /// The name commands use to target this stack (`{"stack": "<identifier>"}`).
    var identifier: String { get }
    /// The pages from the root up.
    var viewControllers: [ViewController] { get }
    /// The stack as `query` reports it.
    var stackState: StackState { get }
    /// True when the stack places its host's bottom bar itself, page by page (`hidesBottomBar`);
    /// a stack that does not gets the bar's height as its bottom safe area.
    var placesBottomBar: Bool { get }

    /// The root page the stack was made with (by its app), while it is the stack's.
    var builtRoot: ViewController? { get }
    /// Lays `page` out at the size it rests at in this stack.
    func layoutPage(_ page: ViewController)

    /// Takes the size the stack will be shown at without loading a page, so a tab not shown yet
    /// reports its pages where they would rest.
    func setBounds(size: Size, safeArea: EdgeInsets)

    func performPush(_ controller: ViewController, transition: (any Transition)?, done: @escaping Completion)
    /// A push from a row of page `origin` (nil: from a client). The split first pops the pages
    /// above the origin (SPStackedNav's push onTopOf:); a navigation stack just pushes.
    func performPush(_ controller: ViewController, above origin: Controller?, transition: (any Transition)?, done: @escaping Completion)
    func performPop(transition: (any Transition)?, done: @escaping Completion)
    func performPopTo(_ target: PopTarget, transition: (any Transition)?, then: (ViewController, (any Transition)?)?, op: String, done: @escaping Completion)
    func performReplaceTop(_ controller: ViewController, direction: Direction, transition: (any Transition)?, done: @escaping Completion)
    func performSetStack(_ controllers: [ViewController], transition: (any Transition)?, done: @escaping Completion)
    /// `scrollTo`: only a stacked split scrolls.
    func performScroll(to destination: ScrollDestination, animated: Bool, done: @escaping Completion)
}

/// Where `popTo` goes.
enum PopTarget {
    case root
    case name(String)
    case instance(ViewController)
    case id(String)
}

extension StackCommandTarget {
    var placesBottomBar: Bool { false }

    func performPush(_ controller: ViewController, above origin: Controller?, transition: (any Transition)?, done: @escaping Completion) {
        performPush(controller, transition: transition, done: done)
    }

    func performScroll(to destination: ScrollDestination, animated: Bool, done: @escaping Completion) {
        done(.failure(.notFound("scrollTo needs a stacked split; stack \(identifier) is a navigation stack")))
    }

    /// The index `target` names in `viewControllers`, or `notFound` saying what was missing.
    func index(of target: PopTarget) -> Result<Int, NavError> {
        let found: Int?
        let missing: String
        switch target {
        case .root:
            return .success(0)
        case .name(let name):
            found = viewControllers.firstIndex { $0.name == name }
            missing = "no controller named \(name) in stack \(identifier)"
        case .id(let id):
            found = viewControllers.firstIndex { $0.id == id }
            missing = "no controller \(id) in stack \(identifier)"
        case .instance(let controller):
            found = viewControllers.firstIndex { $0 === controller }
            missing = "controller \(controller.name) is not in stack \(identifier)"
        }
        return found.map { .success($0) } ?? .failure(.notFound(missing))
    }

    /// An error when a controller to be added is already somewhere (UIKit throws here).
    func checkNew(_ controllers: [ViewController]) -> NavError? {
        var seen = Set<ObjectIdentifier>()
        for controller in controllers {
            if controller.parent != nil || !seen.insert(ObjectIdentifier(controller)).inserted {
                return .invalidState("\(controller.name) is already in a stack; a controller can be in one place only")
            }
        }
        return nil
    }

    /// Controllers for `setStack` from screens: the leading screens whose names match the current
    /// stack keep their controllers (and state); the rest are new.
    func controllers(for screens: [ScreenSpec], in scene: Scene) -> [ViewController] {
        var result: [ViewController] = []
        var matching = true
        for (index, screen) in screens.enumerated() {
            if matching, index < viewControllers.count, viewControllers[index].name == screen.name {
                result.append(viewControllers[index])
            } else {
                matching = false
                result.append(scene.makeController(screen))
            }
        }
        return result
    }
}
