extension Scene {
    /// Handles a pointer event from the controlling viewer. A tap goes to the controller that owns
    /// the tapped node and up through its parents until one handles it; a pan that passes the slop
    /// is offered the same way (a list scrolls, a stack pops). One pointer at a time.
    public func handle(_ event: PointerEvent) {
        switch event.phase {
        case .down: pointerDown(event)
        case .move: pointerMoved(event)
        case .up: pointerUp(event)
        case .cancel: if pointer?.tracker.pointer == event.pointer { cancelInput() }
        }
    }

    /// Wheel and trackpad scrolling: scrolls the list under the pointer.
    public func handle(_ event: ScrollEvent) {
        guard let hit = rootNode.hitTest(event.position) else { return }
        var controller = hit.owningController
        while let current = controller {
            if current.handleScroll(event, hit: hit) {
                setNeedsDisplay()
                return
            }
            controller = current.parent
        }
    }

    /// A key from the viewer: `Escape` acts as the visible stack's back button, or at a presented
    /// stack's first page as its Close button.
    public func handleKey(_ key: String) {
        guard key == "Escape", pointer == nil else { return }
        // The focused stack is the topmost presentation's, when something is presented.
        if let stack = focusedStack, stack.viewControllers.count > 1 { return submitBack(popping: stack) }
        if presentationController?.presented.isEmpty == false { handle(.dismiss()) { _ in } }
    }

    /// Pops `stack` when its turn in the queue comes, as a back button or Escape does, unless the
    /// stack has left the app by then (a `setRoot` that was queued first released it).
    func submitBack(popping stack: any StackCommandTarget) {
        // The stack weakly: a waiting job must not keep it (and the queue, which a stack's
        // pending answer may hold) alive when the scene goes.
        submit({ [weak self, weak stack] done in
            guard let self, let stack, isInApp(stack) else { return done(.failure(.invalidState("the stack left the app before its turn"))) }
            stack.performPop(transition: nil, done: done)
        }, completion: { _ in })
    }

    /// Cancels the gesture in progress (a `cancel` pointer, a dropped connection, a new `hello`):
    /// an interactive transition runs back to where it started.
    public func cancelInput() {
        guard let gesture = pointer else { return }
        pointer = nil
        if let press = gesture.press { endPress(press) }
        if case .handled(let handler) = gesture.role {
            handler.panCancelled { [weak self] completed in self?.endGesture(handler, completed: completed) }
        }
    }

    private func pointerDown(_ event: PointerEvent) {
        guard pointer == nil else { return }
        // A programmatic transition blocks new gestures (docs/behaviour.md).
        let hit = rootNode.hitTest(event.position)
        var caught = false
        if !isBusy, let hit {
            var controller = hit.owningController
            while let current = controller, !caught {
                caught = current.touchBegan(on: hit)
                controller = current.parent
            }
        }
        let gesture = PointerGesture(tracker: PanTracker(down: event), role: isBusy ? .ignored : .undecided, hit: hit, mayTap: !caught)
        if !isBusy, !caught, let hit { gesture.press = beginPress(on: hit) }
        pointer = gesture
    }

    private func pointerMoved(_ event: PointerEvent) {
        guard let gesture = pointer, gesture.tracker.pointer == event.pointer else { return }
        let started = gesture.tracker.move(event)
        if started, let press = gesture.press {
            // A touch that moves is a pan, not a press (a table cancels the highlight as it scrolls).
            endPress(press)
            gesture.press = nil
        }
        if started, case .undecided = gesture.role {
            gesture.role = decide(gesture)
        }
        if case .handled(let handler) = gesture.role {
            handler.panMoved(gesture.tracker)
            handler.panMoveCommitted(gesture.tracker)
            setNeedsDisplay()
        }
    }

    private func pointerUp(_ event: PointerEvent) {
        guard let gesture = pointer, gesture.tracker.pointer == event.pointer else { return }
        _ = gesture.tracker.move(event)
        pointer = nil
        switch gesture.role {
        case .handled(let handler):
            handler.panEnded(gesture.tracker) { [weak self] completed in self?.endGesture(handler, completed: completed) }
            setNeedsDisplay()
        case .undecided where gesture.mayTap && (gesture.tracker.isTap || gesture.press != nil && gesture.tracker.axis == nil):
            // A press on a row selects it on release however long it was held, as in iOS; a
            // press that lifts before the delay shows the highlight now.
            if let press = gesture.press { showPress(press) }
            if let hit = gesture.hit, isOnScreen(hit) { tap(hit) }
        case .undecided, .ignored:
            break
        }
        if let press = gesture.press { endPress(press) }
    }

    /// Offers a pan that just passed the slop to the controllers from the hit node up.
    private func decide(_ gesture: PointerGesture) -> PointerGesture.Role {
        // A node that left the screen since the pointer went down (its tab was switched away,
        // its page popped) takes no gesture, as UIKit cancels touches of a view leaving its window.
        if let hit = gesture.hit, !isOnScreen(hit) { return .ignored }
        var controller = gesture.hit?.owningController ?? visibleStack?.topViewController
        let hit = gesture.hit ?? rootNode
        while let current = controller {
            if let handler = current.panHandler(for: gesture.tracker, hit: hit) {
                if handler.holdsCommands { commands.hold() }
                if let name = handler.gestureName { record(.gestureBegan, gesture: name) }
                handler.panBegan(gesture.tracker)
                return .handled(handler)
            }
            controller = current.parent
        }
        return .ignored
    }

    private func endGesture(_ handler: any PanHandler, completed: Bool) {
        if let name = handler.gestureName { record(.gestureEnded, cancelled: !completed, gesture: name) }
        setNeedsDisplay()
        if handler.holdsCommands { commands.release() }
    }

    private func isOnScreen(_ node: Node) -> Bool {
        node.ancestor { $0 === rootNode } != nil
    }

    /// A tap goes to the controller owning the tapped node, then up its parents.
    private func tap(_ hit: Node) {
        var controller = hit.owningController
        while let current = controller {
            if current.handleTap(on: hit) {
                setNeedsDisplay()
                return
            }
            controller = current.parent
        }
    }
}
