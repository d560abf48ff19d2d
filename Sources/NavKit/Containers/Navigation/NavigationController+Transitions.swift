/// How the stack runs a change of its top page: appearance callbacks in UIKit's order, the
/// transition through its runner, the bottom bar travelling with the page that shows it, and
/// releases at the end.
extension NavigationController {
    /// `upper` comes in over `lower`; `removed` pages (top first) are released at the end.
    func present(upper: ViewController, over lower: ViewController, op: String, transition: any Transition, removed: [ViewController] = [], then: @escaping () -> Void) {
        change(RunningTransition(op: op, upper: upper, lower: lower, transition: fitted(transition, to: upper), presenting: true, removed: removed), then: then)
    }

    /// `upper` leaves and uncovers `lower`; `removed` pages (top first) are released at the end.
    func dismiss(upper: ViewController, to lower: ViewController, removed: [ViewController], op: String, transition: any Transition, then: @escaping () -> Void) {
        change(RunningTransition(op: op, upper: upper, lower: lower, transition: fitted(transition, to: upper), presenting: false, removed: removed), then: then)
    }

    /// The transition that moves `upper`: a sheet always comes and goes as a sheet (with the
    /// asked transition's timing), and a page that is not a sheet asked to leave with `modal`
    /// goes straight down instead.
    private func fitted(_ transition: any Transition, to upper: ViewController) -> any Transition {
        if upper.isSheet == transition.presentsSheet { return transition }
        if upper.isSheet {
            var sheet = ParametricTransition.modal
            sheet.duration = transition.duration
            sheet.curve = transition.curve
            return sheet
        }
        var down = ParametricTransition.modal
        down.presentsSheet = false
        down.dim = 0
        return down
    }

    func isAnimated(_ transition: any Transition) -> Bool {
        transition.duration * (scene?.settings.slowMotion ?? 1) > 0
    }

    /// Runs a programmatic change: "will" callbacks (the leaving page first), the animation, then
    /// `finish`. A stack that is not on screen just swaps pages: nothing to see, nobody to call.
    private func change(_ transition: RunningTransition, then: @escaping () -> Void) {
        guard let scene, isShowing else {
            // Pages load and lay out when the stack next appears, as UIKit loads views lazily.
            view.removeAllChildren()
            for page in transition.removed { page.release() }
            return then()
        }
        let animated = isAnimated(transition.transition)
        for page in [transition.upper, transition.lower].compactMap({ $0 as? ViewController }) { layoutPage(page) }
        transition.disappearing?.beginAppearance(false, animated: animated)
        transition.appearing?.beginAppearance(true, animated: animated)
        start(transition)
        runner.play(scene: scene) { [self] in finish(transition, completed: true, then: then) }
    }

    /// Puts a transition's pages on screen, with the bottom bar on the page that shows it.
    ///
    /// The page that was on top keeps the bar state it had at rest: it may already be out of the
    /// stack, along with the page below it that made it hide the bar (a popToRoot from above a
    /// page that hides it).
    func start(_ transition: RunningTransition) {
        let upper = transition.upper as? ViewController, lower = transition.lower as? ViewController
        transition.upperRest = restOrigin(of: upper)
        transition.lowerRest = restOrigin(of: lower)
        if transition.transition.movesSideways, let upper, let lower {
            transition.bars = SharedBarTransition(upper: upper, lower: lower)
        }
        // Under a sheet (coming, going, or covered by the new page) lies black, around the page
        // scaled back below it.
        view.fill = transition.transition.presentsSheet || lower?.isSheet == true ? .black : nil
        if let lower, lower.isSheet, let under = page(below: lower), under.view.parent !== view {
            // Uncovering a sheet: the page under it is back behind it, as it rests there.
            view.insertChild(under.view, at: 0)
            layoutPage(under)
            rest(sheet: lower, over: under)
        }
        if transition.transition.presentsSheet {
            lower?.view.isUserInteractionEnabled = false
        } else if let lower, !lower.isSheet {
            // It may still look as it did under a sheet that a popTo just took away.
            lower.view.rest(at: .zero)
        }
        if let host = bottomBarHost, isShowing {
            let incoming = transition.presenting ? transition.upper : transition.lower
            let incomingHides = incoming.map(hidesBottomBar) ?? bottomBarHiddenAtRest
            let upperHides = transition.presenting ? incomingHides : bottomBarHiddenAtRest
            let lowerHides = transition.presenting ? bottomBarHiddenAtRest : incomingHides
            if upperHides == lowerHides {
                host.placeBottomBar(upperHides ? .hidden : .host)
            } else if let showing = upperHides ? transition.lower : transition.upper {
                host.placeBottomBar(.page(showing.view))
            }
        }
        runner.start(transition, in: view, scene: scene)
    }

    /// Ends a transition: the page that stays on top rests at the origin alone; "did" callbacks,
    /// releases and `transitionEnd` follow, in that order. A cancelled (interactive) transition
    /// gives UIKit's reversal instead: the page that was appearing disappears again and the other
    /// one reappears.
    func finish(_ transition: RunningTransition, completed: Bool, then: @escaping () -> Void) {
        runner.end()
        let shown = completed ? transition.appearing : transition.disappearing
        if let shown = shown as? ViewController, shown.isSheet {
            // A sheet rests over the page below it, which stays drawn.
            show(shown)
        } else if let shown = shown as? ViewController {
            keepOnStandby(below: shown)
            placeBottomBar(restingOn: shown)
            view.fill = nil
        } else {
            for page in [transition.upper, transition.lower].compactMap({ $0 }) where page !== shown {
                page.view.removeFromParent()
            }
        }
        let animated = transition.interactive || isAnimated(transition.transition)
        if completed {
            transition.disappearing?.endAppearance(animated: animated)
            transition.appearing?.endAppearance(animated: animated)
            for controller in transition.removed { controller.release() }
        } else {
            transition.appearing?.setAppearance(false, animated: true)
            transition.disappearing?.setAppearance(true, animated: true)
        }
        scene?.record(.transitionEnd, op: transition.op, interactive: transition.interactive, cancelled: !completed)
        then()
    }

    /// At rest only `top` is on screen. The page below it stays in the stack's node on standby
    /// when the transition just showed it, so a pop or a back swipe uncovers it with one patch
    /// on protocol v2's wire instead of sending its subtree again; every other page leaves.
    func keepOnStandby(below top: ViewController) {
        let index = viewControllers.firstIndex { $0 === top } ?? 0
        // A page whose view never loaded was not on screen (and must not load just for this).
        let below = index > 0 && viewControllers[index - 1].isViewLoaded ? viewControllers[index - 1].view : nil
        for page in view.children where page !== top.view && page !== below {
            page.removeFromParent()
        }
        guard let below, below.parent === view else { return }
        below.isOnStandby = true
        // A page a sheet lay over keeps what the sheet did to it (scaled back, dimmed, taking no
        // touches) when something else replaced the sheet: it waits at rest, as a pop shows it.
        if let dim = runner.madeDim, dim.parent === below { dim.removeFromParent() }
        below.rest(at: restOrigin(of: viewControllers[index - 1]))
    }

    // MARK: Bottom bar

    /// The tab bar this stack sits above, if any.
    var bottomBarHost: BottomBarHost? { parent as? BottomBarHost }

    /// Whether `page` hides the bottom bar: it or a page pushed before it (above the root) asked
    /// to (`hidesBottomBar`) or is a sheet, as UIKit keeps the bar hidden for everything pushed
    /// after such a page and a sheet covers the bar (which scales back with the page below).
    func hidesBottomBar(_ page: Controller) -> Bool {
        func hides(_ page: ViewController) -> Bool { page.options.hidesBottomBar || page.isSheet }
        guard let index = viewControllers.firstIndex(where: { $0 === page }) else {
            // Not in the stack yet (a left-swipe push in progress): it goes on top of the top page.
            return ((page as? ViewController).map(hides) ?? false) || hidesBottomBar(topViewController)
        }
        return index > 0 && viewControllers[1...index].contains(where: hides)
    }

    /// At rest the bar is in its host, or gone while the page on top hides it.
    func placeBottomBar(restingOn page: ViewController) {
        guard let host = bottomBarHost, isShowing else { return }
        bottomBarHiddenAtRest = hidesBottomBar(page)
        host.placeBottomBar(bottomBarHiddenAtRest ? .hidden : .host)
    }
}
