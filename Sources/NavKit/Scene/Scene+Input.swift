extension Scene {
    /// Handles a pointer event from the controlling viewer: taps on rows, back buttons and tabs,
    /// the interactive pop and the left-swipe push. One pointer at a time; others are ignored.
    public func handle(_ event: PointerEvent) {
        switch event.phase {
        case .down: pointerDown(event)
        case .move: pointerMoved(event)
        case .up: pointerUp(event)
        case .cancel: if pointer?.tracker.pointer == event.pointer { cancelInput() }
        }
    }

    /// Wheel and trackpad scrolling; it moves stacked splits, which this engine does not have yet.
    public func handle(_ event: ScrollEvent) {}

    /// A key from the viewer: `Escape` acts as the visible stack's back button.
    public func handleKey(_ key: String) {
        guard key == "Escape", pointer == nil, case .success(let stack)? = root?.stack(for: nil) else { return }
        if stack.viewControllers.count > 1 { stack.pop() }
    }

    /// Cancels the gesture in progress (a `cancel` pointer, a dropped connection, a new `hello`):
    /// an interactive transition runs back to where it started.
    public func cancelInput() {
        guard let gesture = pointer else { return }
        pointer = nil
        if case .interactive(let stack, let name) = gesture.role {
            stack.cancelInteractive { [weak self] completed in self?.endGesture(name, completed: completed) }
        }
    }

    private func pointerDown(_ event: PointerEvent) {
        guard pointer == nil else { return }
        // A programmatic transition blocks new gestures (BEHAVIOUR.md: input is ignored meanwhile).
        pointer = PointerGesture(tracker: PanTracker(down: event), role: isBusy ? .ignored : .undecided)
    }

    private func pointerMoved(_ event: PointerEvent) {
        guard let gesture = pointer, gesture.tracker.pointer == event.pointer else { return }
        let started = gesture.tracker.move(event)
        if started, case .undecided = gesture.role {
            gesture.role = decide(gesture.tracker)
        }
        if case .interactive(let stack, _) = gesture.role {
            stack.updateInteractive(translation: gesture.tracker.translation.x)
            needsDisplay = true
        }
    }

    private func pointerUp(_ event: PointerEvent) {
        guard let gesture = pointer, gesture.tracker.pointer == event.pointer else { return }
        _ = gesture.tracker.move(event)
        pointer = nil
        switch gesture.role {
        case .interactive(let stack, let name):
            stack.updateInteractive(translation: gesture.tracker.translation.x)
            stack.endInteractive(velocity: gesture.tracker.velocity.velocity.x) { [weak self] completed in
                self?.endGesture(name, completed: completed)
            }
        case .undecided where gesture.tracker.isTap:
            tap(at: gesture.tracker.start.position)
        case .undecided, .ignored:
            break
        }
    }

    /// Chooses what a pan that just passed the slop does.
    private func decide(_ tracker: PanTracker) -> PointerGesture.Role {
        guard tracker.axis == .horizontal, case .success(let stack)? = root?.stack(for: nil) else { return .ignored }
        if tracker.movement.x > 0 {
            guard stack.canBeginInteractivePop(downAt: tracker.start.position.x, settings: settings) else { return .ignored }
            commands.hold()
            record(.gestureBegan, gesture: "pop")
            stack.beginInteractivePop()
            return .interactive(stack, name: "pop")
        }
        guard !stack.isTransitioning, let next = stack.topViewController.pageForSwipePush() else { return .ignored }
        commands.hold()
        record(.gestureBegan, gesture: "swipePush")
        stack.beginSwipePush(next)
        return .interactive(stack, name: "swipePush")
    }

    private func endGesture(_ name: String, completed: Bool) {
        record(.gestureEnded, cancelled: !completed, gesture: name)
        needsDisplay = true
        commands.release()
    }

    /// A tap: a back button pops its page's stack; a row runs its action.
    private func tap(at point: Point) {
        guard let hit = rootNode.hitTest(point), let controller = root?.visibleController else { return }
        if hit.ancestor(where: { $0.role == .back }) != nil {
            controller.stack?.pop()
        } else if let action = controller.action(for: hit) {
            handle(action) { _ in }
        }
    }
}
