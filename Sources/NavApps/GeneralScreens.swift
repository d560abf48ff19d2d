import NavKit

/// The settings-like General → About → Legal chain that both the phone and the stack demo show:
/// popTo by name, pop-then-push and popToRoot from three levels down.
enum GeneralScreens {
    /// General, whose Legal page pops back to the root named `root` and then pushes `then`.
    static func general(root: String, then: ScreenSpec) -> ScreenSpec {
        let legal = ScreenSpec(
            name: "Legal",
            rows: [
                RowSpec(title: "Back to General", detail: "popTo", action: .popTo(.name("General"))),
                RowSpec(title: "\(root), then \(then.title)", detail: "pop-then-push", action: .popTo(.name(root), then: ThenPush(screen: then))),
                RowSpec(title: "Back to \(root)", detail: "popToRoot", action: .popToRoot()),
            ]
        )
        let about = ScreenSpec(name: "About", rows: [RowSpec(title: "Version", detail: "1.0"), RowSpec(title: "Legal", action: .push(legal))])
        let keyboard = ScreenSpec(name: "Keyboard", rows: [RowSpec(title: "Text Replacement"), RowSpec(title: "One-Handed")])
        return ScreenSpec(name: "General", rows: [RowSpec(title: "About", action: .push(about)), RowSpec(title: "Keyboard", action: .push(keyboard))])
    }
}
