import NavKit

/// The phone showcase (`phone`, the default app): a tab bar with Library, Search (with a badge)
/// and Settings, whose rows show every phone-style system (VCStack, JPNavigationController,
/// NavigationRoute): deep lists to pop across, each transition, per-page bars (transparent, red),
/// a modal player, a page stack with cards, a link view, a page that hides the tab bar, a
/// left-swipe push, a page without the pop drag, one pushed without animation, and a row that
/// pushes onto another tab. Long lists scroll.
enum PhoneApp {
    static let root = RootSpec.tabs([
        TabSpec(id: "library", title: "Library", icon: "library", root: library),
        TabSpec(id: "search", title: "Search", icon: "search", badge: "3", root: search),
        TabSpec(id: "settings", title: "Settings", icon: "settings", root: settings),
    ], selected: 0)

    // MARK: Library

    static let library = ScreenSpec(
        name: "Library",
        rows: [
            RowSpec(title: "Playlists", detail: "deep lists", action: .push(playlists)),
            RowSpec(title: "Now Playing", detail: "modal", action: .push(nowPlaying, transition: .modal)),
            RowSpec(title: "Artist", detail: "clear bar", action: .push(artist)),
            RowSpec(title: "Live", detail: "red bar", action: .push(live)),
            RowSpec(title: "Nearby", detail: "page stack", action: .push(nearby)),
            RowSpec(title: "Mini Player", detail: "link view", action: .push(miniPlayer)),
            RowSpec(title: "Full Screen", detail: "hides tab bar", action: .push(fullScreen)),
            RowSpec(title: "Photos", detail: "fade", action: .push(photos, transition: .fade)),
            RowSpec(title: "Gallery", detail: "swipe left", action: .push(gallery)),
            RowSpec(title: "Locked", detail: "no pop drag", action: .push(locked)),
            RowSpec(title: "Instant", detail: "no animation", action: .push(instant, transition: ParametricTransition.none)),
            RowSpec(title: "Find in Search", detail: "other tab", action: .push(searchResult, target: .tab(1, select: true))),
            RowSpec(title: "New Playlist", detail: "stack in a sheet", action: .present(.stack(id: "newPlaylist", root: newPlaylist))),
            RowSpec(title: "Up Next", detail: "half-height panel", action: .present(.stack(id: "upNextQueue", root: queue), style: .panel)),
        ]
    )

    /// A queue of tracks in a panel at half the screen over a mask that covers the whole app
    /// (VCStack's half-height floating layer): dragged up it shows the whole queue, whose tracks
    /// push their page inside the panel.
    static let queue = ScreenSpec(
        name: "Queue", title: "Up Next",
        rows: (1...20).map { number in
            let track = "Track \(number)"
            return RowSpec(title: track, detail: "3:\(10 + number * 2)", action: .push(ScreenSpec(name: track, rows: [RowSpec(title: "Play Next")])))
        }
    )

    /// Presented over the whole app, tab bar and all: a stack of its own that keeps navigating.
    static let newPlaylist = ScreenSpec(
        name: "New Playlist",
        rows: [
            RowSpec(title: "Add Songs", action: .push(ScreenSpec(
                name: "Add Songs", rows: (1...12).map { RowSpec(title: "Song \($0)", detail: "3:\(10 + $0)") }
            ))),
            RowSpec(title: "Cover Art", action: .push(ScreenSpec(name: "Cover Art", background: Color(rgb: 0xFFE8CC)))),
        ]
    )

    static let playlists = ScreenSpec(
        name: "Playlists",
        rows: (1...24).map { RowSpec(title: "Playlist \($0)", detail: "\(20 + $0) songs", action: .push(playlist($0))) }
    )

    static func playlist(_ number: Int) -> ScreenSpec {
        ScreenSpec(
            name: "Playlist \(number)",
            rows: (1...(20 + number)).map { RowSpec(title: "Track \($0)", action: .push(song($0))) }
        )
    }

    static func song(_ track: Int) -> ScreenSpec {
        ScreenSpec(
            name: "Track \(track)", title: "Track \(track)",
            rows: [
                RowSpec(title: "Back to Playlists", detail: "popTo", action: .popTo(.name("Playlists"))),
                RowSpec(title: "Back to Library", detail: "popToRoot", action: .popToRoot()),
                RowSpec(title: "Up Next", detail: "pop-then-push", action: .popTo(.name("Playlists"), then: ThenPush(screen: upNext))),
            ]
        )
    }

    static let upNext = ScreenSpec(name: "Up Next", rows: [RowSpec(title: "Popped to Playlists, then pushed")])

    static let nowPlaying = ScreenSpec(
        name: "Now Playing", background: Color(rgb: 0x1C1C1E),
        bar: BarSpec(style: .default, fill: Color(rgb: 0x1C1C1E), tint: Color(rgb: 0xFF375F), titleColor: .white),
        rows: [RowSpec(title: "Close", detail: "pop", action: .pop())]
    )

    static let artist = ScreenSpec(
        name: "Artist", title: "Röyksopp", background: Color(rgb: 0xFFE8CC),
        bar: BarSpec(style: .transparent, tint: Color(rgb: 0xC2410C)),
        rows: [RowSpec(title: "Popular"), RowSpec(title: "Albums", action: .push(ScreenSpec(name: "Albums", rows: [RowSpec(title: "Melody A.M.")])))]
    )

    static let live = ScreenSpec(
        name: "Live", title: "Live",
        bar: BarSpec(fill: Color(rgb: 0xE0245E), tint: .white, titleColor: .white),
        rows: [RowSpec(title: "Tonight", detail: "21:00"), RowSpec(title: "Tickets", action: .push(ScreenSpec(name: "Tickets")))]
    )

    // MARK: Page stack (NavigationRoute)

    static let cardsTop = 91.0 + ScreenController.listHeight(rows: 5)

    static let nearby = ScreenSpec(
        name: "Nearby", background: Color(rgb: 0xDCEBD2),
        rows: [
            RowSpec(title: "Museum", detail: "push card", action: .page(PageCommand(.push(card("Museum", 0xE0F2FE))))),
            RowSpec(title: "Park", detail: "switch card", action: .page(PageCommand(.switch(card("Park", 0xDCFCE7), direction: .push)))),
            RowSpec(title: "Back", detail: "pop card", action: .page(PageCommand(.pop))),
            RowSpec(title: "First Card", detail: "pop to root", action: .page(PageCommand(.popToRoot))),
            RowSpec(title: "Station", detail: "new root", action: .page(PageCommand(.newRoot(card("Station", 0xF3E8FF))))),
        ],
        pages: SubpagesSpec(root: card("Café", 0xFFF4E0), top: cardsTop, bottom: 83)
    )

    static func card(_ name: String, _ fill: Int) -> SubpageSpec {
        SubpageSpec(name: name, fill: Color(rgb: UInt32(fill)), title: name)
    }

    // MARK: Bars, gestures

    static let miniPlayer = ScreenSpec(
        name: "Mini Player",
        rows: [RowSpec(title: "The bar at the bottom moves with the page")],
        link: LinkSpec(height: 56, fill: .barBackground, text: "▶ Melody A.M. · Röyksopp")
    )

    static let fullScreen = ScreenSpec(
        name: "Full Screen", background: Color(rgb: 0x0F172A),
        bar: BarSpec(fill: Color(rgb: 0x0F172A), tint: .white, titleColor: .white),
        rows: [
            RowSpec(title: "Lyrics", detail: "still no tab bar", action: .push(ScreenSpec(name: "Lyrics"))),
            RowSpec(title: "Done", action: .pop()),
        ],
        options: PageOptions(hidesBottomBar: true),
        link: LinkSpec(height: 56, fill: Color(rgb: 0x1E293B), text: "The tab bar left with Library")
    )

    static let photos = ScreenSpec(name: "Photos", background: Color(rgb: 0xF2F2F7), rows: [RowSpec(title: "Recents"), RowSpec(title: "Favourites")])

    static let gallery = ScreenSpec(
        name: "Gallery", rows: [RowSpec(title: "Swipe left for the next picture")],
        swipePush: ScreenSpec(name: "Picture", background: Color(rgb: 0xE0F2FE), rows: [RowSpec(title: "A pushed picture")])
    )

    static let locked = ScreenSpec(
        name: "Locked",
        rows: [RowSpec(title: "Use the back button", detail: "drag is off")],
        options: PageOptions(interactivePop: false)
    )

    static let instant = ScreenSpec(name: "Instant", rows: [RowSpec(title: "Came in at once", detail: "drag it back")])

    // MARK: Search

    static let genres = [
        "Pop", "Hip-Hop", "Rock", "Jazz", "Classical", "Electronic", "Folk", "Soul", "Reggae", "Blues",
        "Country", "Latin", "Metal", "Punk", "Ambient", "Funk", "Disco", "House", "Techno", "K-Pop",
        "Gospel", "Indie", "R&B", "Soundtracks",
    ]

    static let search = ScreenSpec(
        name: "Search",
        rows: genres.map { genre in RowSpec(title: genre, action: .push(ScreenSpec(name: genre, rows: [RowSpec(title: "Top \(genre)"), RowSpec(title: "New \(genre)")]))) }
    )

    static let searchResult = ScreenSpec(name: "Röyksopp", rows: [RowSpec(title: "Pushed from the Library tab")])

    // MARK: Settings

    static let settings = ScreenSpec(
        name: "Settings",
        rows: [
            RowSpec(title: "General", action: .push(general)),
            RowSpec(title: "Search Badge", detail: "9+", action: .setBadge(.name("search"), badge: "9+")),
            RowSpec(title: "Clear Badge", detail: "none", action: .setBadge(.name("search"), badge: nil)),
            RowSpec(title: "Show Search", detail: "selectTab", action: .selectTab(.name("search"))),
        ]
    )

    static let general = GeneralScreens.general(root: "Settings", then: version)

    static let version = ScreenSpec(name: "Version", rows: [RowSpec(title: "Stackcast", detail: "1.0")])
}
