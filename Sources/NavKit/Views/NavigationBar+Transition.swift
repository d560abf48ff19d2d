/// UIKit's bar transition: when both pages' bars look alike, the bar stays still during a push,
/// pop or interactive pop while its title and back button move along one line, right to left on
/// a push: the incoming title slides in from the right edge to the centre, the outgoing title
/// slides from the centre to where the back button's title sits, the incoming back button's
/// title slides from the centre to that place, and the outgoing back button's title slides on
/// off to the left; what comes in fades in, what goes fades out; the back chevron stays (it fades
/// only when one of the two pages has none). A pop runs the same picture backwards. While the
/// upper page is fully off (q = 0) its bar is transparent, so a transition's first frame shows
/// exactly what was there.
///
/// Between a page with a large title and one without, the one bar also changes height with the
/// progress (the large title's area closing on a push, opening on a pop, following the finger
/// in an interactive pop), the outgoing large title fading as its area closes over it, and the
/// bar's fill and hairline fading between the two pages' looks.
extension NavigationBar {
    /// Whether this bar and `other` look alike (same style, fill, alpha and colours, whether or
    /// not either has a large title; neither hidden nor a sheet's), so one bar can stay on screen
    /// while the pages change under it.
    func looksLike(_ other: NavigationBar) -> Bool {
        var mine = spec
        mine.largeTitle = other.spec.largeTitle
        return mine == other.spec && spec.style != .hidden && !closes && !other.closes
    }

    /// The bar's height at rest, safe-area top included, for its content offset.
    var restHeight: Double {
        laidOut.safeTop + barHeight + largeTitleAreaHeight
    }

    /// How far a title travels between the centre and the back button's title: from the
    /// title's centre to the back label's.
    var titleTravel: Double {
        titleNode.frame.midX - (backButton.frame.x + backLabel.frame.midX)
    }

    /// Lays the bar out for a shared-bar transition at presentation progress `q` (0: the upper
    /// page is fully off, 1: it is in place). `upper` says which page's bar this is; `lowerHasBack`
    /// whether the lower page shows a back button (the upper page always does); `travel` is the
    /// upper bar's `titleTravel`, the one line both bars' titles and labels move along. Only the
    /// upper bar's contents are drawn over the lower bar, whose background and chevron stay.
    /// Both bars are `height` tall, and the lower one's fill and hairline `standard` of the way
    /// to the standard look (`standardProgress`). True when the bar's look (size, fill,
    /// hairline, chevron) was set again.
    @discardableResult
    func layoutShared(upper: Bool, progress q: Double, lowerHasBack: Bool, travel: Double, height: Double, standard: Double) -> Bool {
        isShared = true
        // The fill, the hairline, the chevron and the height change only with the bar's look,
        // not with the progress: set again only when that changes. Every frame of every session
        // runs this, and each node read for a value it already has is memory no cache holds.
        let look = SharedLook(upper: upper, lowerHasBack: lowerHasBack, height: height, standard: standard)
        let restyled = look != sharedLook
        if restyled {
            applySharedLook(look)
            sharedLook = look
        }
        if let largeTitle {
            let area = max(height - laidOut.safeTop - barHeight, 0)
            largeTitle.area.frame.size.height = area
            largeTitle.label.frame.origin.y = area - NavigationBar.largeTitleLine.bottom - NavigationBar.largeTitleLine.height
            largeTitle.label.alpha = upper ? 1 : 1 - q
        }
        // Only the title and the back label leave their places at rest (`rest`). Each is placed
        // once: a node's move walks up to the root and is recorded for the next layer tree.
        if upper {
            // Everything still to come sits one step to the right and fades in together: the
            // bar's own alpha carries the fade (one layer patched per frame, not three), as its
            // background and hairline are not drawn meanwhile.
            node.alpha = q * spec.alpha
            titleNode.frame.x = rest.titleX + (1 - q) * laidOut.width / 2
            backLabel.frame.x = rest.backLabelX + (1 - q) * travel
            titleNode.alpha = standardProgress
        } else {
            titleNode.frame.x = rest.titleX - q * travel
            titleNode.alpha = (1 - q) * standardProgress
            backLabel.frame.x = rest.backLabelX - q * travel
            backLabel.alpha = 1 - q
        }
        return restyled
    }

    /// What a shared-bar transition sets of the nodes that stay still while the pages move.
    struct SharedLook: Equatable {
        var upper: Bool
        var lowerHasBack: Bool
        var height: Double
        var standard: Double
    }

    private func applySharedLook(_ look: SharedLook) {
        setHeight(look.height)
        if look.upper {
            node.fill = nil
            hairline.isHidden = true
            // The lower bar's chevron stays in its place when it has one.
            backIcon.alpha = look.lowerHasBack ? 0 : 1
        } else {
            if spec.style != .transparent { node.fill = (spec.fill ?? Color.barBackground).withAlpha(look.standard) }
            hairline.isHidden = spec.style != .default || look.standard == 0
            hairline.alpha = look.standard
        }
    }

    /// Puts the bar back at rest after a shared-bar transition.
    func endShared() {
        isShared = false
        sharedLook = nil
        titleNode.alpha = 1
        backLabel.alpha = 1
        backIcon.alpha = 1
        hairline.alpha = 1
        largeTitle?.label.alpha = 1
        applyStyle()
        layout(width: laidOut.width, safeTop: laidOut.safeTop)
    }
}
