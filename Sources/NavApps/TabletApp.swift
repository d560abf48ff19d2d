import NavKit

/// The tablet showcase (`tablet`, 1024 × 768 or 1366 × 1024): SPStackedNav's layout of a music
/// library. A side tab bar (Library, Search with a badge, Playlists, Settings), each tab a stacked
/// split of half pages that push further half pages (artist → album → tracks) and a full-page
/// player. Enough pages to scroll, fling and bounce the split by drag or wheel and feel it snap.
enum TabletApp {
    static let root = RootSpec.sideTabs([
        TabSpec(id: "library", title: "Library", icon: "library", root: library),
        TabSpec(id: "search", title: "Search", icon: "search", badge: "2", root: search),
        TabSpec(id: "playlists", title: "Playlists", icon: "music", root: playlists),
        TabSpec(id: "settings", title: "Settings", icon: "settings", root: settings),
    ], selected: 0)

    static let half = PageOptions(width: .half)

    static let artists = [
        "Röyksopp", "Air", "Daft Punk", "Massive Attack", "Portishead", "Moby", "Boards of Canada",
        "Bonobo", "Zero 7", "Lemon Jelly", "Thievery Corporation", "Kruder & Dorfmeister",
    ]
    static let albumWords = ["Melody", "Junior", "Senior", "Profound", "Night", "Moon", "Safari", "Mezzanine"]

    static let library = ScreenSpec(
        name: "Library",
        rows: artists.map { RowSpec(title: $0, action: .push(artist($0))) },
        options: half
    )

    static func artist(_ name: String) -> ScreenSpec {
        let albums = (0..<5).map { "\(albumWords[(name.count + $0) % albumWords.count]) \($0 + 1)" }
        return ScreenSpec(name: name, rows: albums.map { RowSpec(title: $0, detail: "\(10 + $0.count) songs", action: .push(album($0, by: name))) }, options: half)
    }

    static func album(_ title: String, by artist: String) -> ScreenSpec {
        ScreenSpec(
            name: title,
            rows: (1...14).map { RowSpec(title: "Track \($0)", detail: "\(2 + $0 % 4):\(10 + $0 * 3)", action: .push(player("Track \($0)", by: artist))) },
            options: half
        )
    }

    static func player(_ track: String, by artist: String) -> ScreenSpec {
        ScreenSpec(
            name: "Now Playing", title: "\(track) · \(artist)", background: Color(rgb: 0x1C1C1E),
            bar: BarSpec(fill: Color(rgb: 0x1C1C1E), tint: Color(rgb: 0x1DB954), titleColor: .white),
            rows: [RowSpec(title: "Play"), RowSpec(title: "Queue"), RowSpec(title: "Close", detail: "pop", action: .pop())]
        )
    }

    static let search = ScreenSpec(
        name: "Search",
        rows: ["Pop", "Electronic", "Jazz", "Classical", "Ambient", "Hip-Hop", "Soul", "Folk", "Rock", "Latin", "Funk", "House"].map { genre in
            RowSpec(title: genre, action: .push(ScreenSpec(name: genre, rows: artists.prefix(6).map { RowSpec(title: $0, action: .push(artist($0))) }, options: half)))
        },
        options: half
    )

    static let playlists = ScreenSpec(
        name: "Playlists",
        rows: (1...20).map { number in
            RowSpec(title: "Playlist \(number)", detail: "\(10 + number) songs", action: .push(album("Playlist \(number)", by: artists[number % artists.count])))
        },
        options: half
    )

    static let settings = ScreenSpec(
        name: "Settings",
        rows: [
            RowSpec(title: "Playback", action: .push(ScreenSpec(name: "Playback", rows: [RowSpec(title: "Crossfade", detail: "5 s"), RowSpec(title: "Gapless", detail: "on")], options: half))),
            RowSpec(title: "Search Badge", detail: "9+", action: .setBadge(.name("search"), badge: "9+")),
            RowSpec(title: "Clear Badge", detail: "none", action: .setBadge(.name("search"), badge: nil)),
            RowSpec(title: "About", action: .push(ScreenSpec(name: "About", rows: [RowSpec(title: "Stackcast", detail: "1.0")]))),
        ],
        options: half
    )
}
