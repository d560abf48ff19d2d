import NavKit

/// The single-stack demo (`stack`): one navigation stack whose rows show each stack feature of
/// VCStack and JPNavigationController: pushes with each transition, a modal, pop-to and
/// pop-then-push, per-page bars, a page that refuses the pop gesture, a left-swipe push and a
/// bottom link view. Small and stable, it is also what the protocol tests drive.
enum StackApp {
    static let root = RootSpec.stack(id: "main", root: home)

    static let home = ScreenSpec(
        name: "Home", title: "Stackcast",
        rows: [
            RowSpec(title: "General", detail: "slide", action: .push(general)),
            RowSpec(title: "Now Playing", detail: "modal", action: .push(nowPlaying, transition: .modal)),
            RowSpec(title: "Photos", detail: "fade", action: .push(photos, transition: .fade)),
            RowSpec(title: "Clear Bar", detail: "transparent", action: .push(clearBar)),
            RowSpec(title: "Locked", detail: "no pop drag", action: .push(locked)),
            RowSpec(title: "Gallery", detail: "swipe left", action: .push(gallery)),
        ]
    )

    static let general = GeneralScreens.general(root: "Home", then: photos)

    static let nowPlaying = ScreenSpec(
        name: "Now Playing", background: Color(rgb: 0x1C1C1E),
        bar: BarSpec(style: .default, fill: Color(rgb: 0x1C1C1E), tint: Color(rgb: 0xFF375F), titleColor: .white),
        rows: [RowSpec(title: "Close", detail: "pop", action: .pop())]
    )

    static let photos = ScreenSpec(name: "Photos", background: Color(rgb: 0xF2F2F7), rows: [RowSpec(title: "Recents"), RowSpec(title: "Favourites")])

    static let clearBar = ScreenSpec(
        name: "Clear Bar", background: Color(rgb: 0xFFE8CC),
        bar: BarSpec(style: .transparent, tint: Color(rgb: 0xC2410C)),
        rows: [RowSpec(title: "A page with a transparent bar")]
    )

    static let locked = ScreenSpec(
        name: "Locked",
        rows: [RowSpec(title: "Use the back button", detail: "drag is off")],
        options: PageOptions(interactivePop: false)
    )

    static let gallery = ScreenSpec(
        name: "Gallery", link: LinkSpec(height: 49, fill: .barBackground, text: "Swipe left for the next picture"),
        swipePush: ScreenSpec(name: "Picture", background: Color(rgb: 0xE0F2FE), rows: [RowSpec(title: "A pushed picture")])
    )
}
