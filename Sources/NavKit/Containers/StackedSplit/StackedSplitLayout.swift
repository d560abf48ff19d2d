/// The geometry of SPStackedNav's stacked split: scroll ranges, alignment offsets and the frames
/// `layoutSubviews` gives the pages, as pure functions of the container size, the pages and the
/// offset being drawn. Citations are to Spotify's `SPStackedNavigationScrollView.m` (SV.m) and
/// `SPStackedNavigationController` (NC.h, NC.m).
///
/// Pages are listed in push order, which is also their z-order: a later page is drawn above every
/// earlier one, stacked or not (the scroll view's `subviews`, NC.m:79). Offsets grow as the content
/// moves left; the scroll range starts at 0 and ends at `maxScroll`.
public struct StackedSplitLayout: Equatable, Sendable {
    /// `kSPStackedNavigationHalfPageWidth`, the width of a half page in points (NC.h:72).
    public static let halfPageWidth: Double = 472
    /// The inset in points of each layer of the stack at the left edge, and the per-index threshold
    /// below which a page counts as stacked: `MIN(i,3)*3` (SV.m:338, SV.m:368).
    public static let stackStep: Double = 3
    /// The stacked layers shown at once; older stacked pages are hidden (SV.m:358-373).
    public static let stackDepth = 3
    /// The dim of a page pushed one whole page width past the left edge: dim = 0.3 / width × |x|
    /// (SV.m:350). Not clamped, as in the source; a renderer clamps to 1 as Core Animation does.
    public static let dimPerPageWidth: Double = 0.3
    /// The start of the scroll range; below it pages move by half the overscroll (SV.m:319-320).
    public static let minScroll: Double = 0

    /// `stackedNavigationPageSize` (NC.h:74-80): half is 472 pt wide, full is the container's width.
    public enum PageSize: Equatable, Hashable, Sendable {
        case half, full
    }

    /// `SPStackedNavigationPagePosition` (NC.h:18-22): which edge of the container a page is aligned
    /// with. There is no middle position.
    public enum Position: Equatable, Hashable, Sendable {
        case left, right
    }

    /// One page of the split.
    public struct Page: Equatable, Hashable, Sendable {
        public var size: PageSize
        /// `markedForSuperviewRemoval`: popped, still drawn until the scroll settles (NC.m:126-150).
        public var isBeingRemoved: Bool

        public init(_ size: PageSize, isBeingRemoved: Bool = false) {
            self.size = size
            self.isBeingRemoved = isBeingRemoved
        }
    }

    /// `scrollRangeForPageContainer:` (SV.m:80-95): where a page starts in the content and how wide
    /// it is, both truncated to whole points because the source returns an `NSRange`.
    public struct ScrollRange: Equatable, Hashable, Sendable {
        public var location: Double
        public var length: Double

        public init(location: Double, length: Double) {
            self.location = location
            self.length = length
        }
    }

    /// What `layoutSubviews` assigns to one page (SV.m:313-377).
    public struct PageFrame: Equatable, Hashable, Sendable {
        /// In container coordinates: y is 0 and the height is the container's (SV.m:329-334).
        public var frame: Rect
        /// True only for stacked pages older than the last three (SV.m:362-363).
        public var isHidden: Bool
        /// The black overlay's opacity: 0.3 / width × |x| for a page at x ≤ 0 that is not the last,
        /// else 0 (SV.m:349-353). x is taken after flooring, before the stack move; real `fabs`.
        public var dim: Double
        /// Left of its slot `MIN(i,3)*3` before flooring, so drawn in the stack at x = 0, 3 or 6
        /// unless hidden (SV.m:338).
        public var isStacked: Bool

        public init(frame: Rect, isHidden: Bool, dim: Double, isStacked: Bool) {
            self.frame = frame
            self.isHidden = isHidden
            self.dim = dim
            self.isStacked = isStacked
        }

        /// The left side shadow is hidden exactly when the page sits at x = 0 (PC.m:166-170).
        public var showsLeftShadow: Bool { frame.x != 0 }
    }

    /// The container's size, W × H (the scroll view's frame, NC.m:52-55).
    public var size: Size
    public var pages: [Page]

    public init(size: Size, pages: [Page]) {
        self.size = size
        self.pages = pages
    }

    // MARK: - Scroll ranges and alignment (§2, SV.m:80-121)

    /// A page's width: W for a full page, 472 for a half one (SV.m:87-90, SV.m:331-332).
    public func width(ofPage index: Int) -> Double {
        switch pages[index].size {
        case .full: size.width
        case .half: Self.halfPageWidth
        }
    }

    /// The page's scroll range; pages being removed count (SV.m:80-95). A nil page gives the sum of
    /// all widths and length 0, as the source's loop does when it never meets its page.
    public func scrollRange(ofPage index: Int?) -> ScrollRange {
        var location = 0.0
        for j in 0..<(index ?? pages.count) { location += width(ofPage: j) }
        let length = index.map { width(ofPage: $0) } ?? 0
        return ScrollRange(location: location.rounded(.towardZero), length: length.rounded(.towardZero))
    }

    /// The offset that puts the page's left edge at the container's left edge (SV.m:110-114).
    public func leftAlignedOffset(ofPage index: Int?) -> Double {
        scrollRange(ofPage: index).location
    }

    /// The offset that puts the page's right edge at the container's right edge:
    /// location − W + length (SV.m:102-108).
    public func rightAlignedOffset(ofPage index: Int?) -> Double {
        let range = scrollRange(ofPage: index)
        return range.location - size.width + range.length
    }

    /// `scrollOffsetForAligningPage:position:` (SV.m:116-121).
    public func offset(aligningPage index: Int?, position: Position) -> Double {
        position == .left ? leftAlignedOffset(ofPage: index) : rightAlignedOffset(ofPage: index)
    }

    /// The end of the scroll range: the last page right-aligned, even when it is being removed
    /// (SV.m:321). Negative when the pages are narrower than W; −W with no pages.
    public var maxScroll: Double {
        rightAlignedOffset(ofPage: pages.indices.last)
    }

    // MARK: - layoutSubviews (§3, SV.m:313-377)

    /// Each page's x before flooring and stacking: the rubber-banded pen, packed over the pages not
    /// being removed, while a page being removed sits where it would be if every page were packed
    /// (SV.m:315-347; the same walk decides visibility, SV.m:383-415).
    public func penPositions(at offset: Double) -> [Double] {
        var pen = -StackedSplitScrollMath.rubberBand(offset, maxScroll: maxScroll)
        var packedAll = pen
        var result: [Double] = []
        result.reserveCapacity(pages.count)
        for (index, page) in pages.enumerated() {
            let width = width(ofPage: index)
            result.append(page.isBeingRemoved ? packedAll : pen)
            packedAll += width
            if !page.isBeingRemoved { pen += width }
        }
        return result
    }

    /// The frames for drawing `offset` (the actual offset, not the target). `animating` is true while
    /// the scroll animation runs: only then do x values keep their fractions (SV.m:342-343).
    public func frames(at offset: Double, animating: Bool) -> [PageFrame] {
        var result: [PageFrame] = []
        result.reserveCapacity(pages.count)
        var stacked: [Int] = []
        for (index, x) in penPositions(at: offset).enumerated() {
            let width = width(ofPage: index)
            // The stack test reads the unfloored x; the dim reads the floored one (SV.m:338-350).
            let isStacked = x < Double(min(index, Self.stackDepth)) * Self.stackStep
            if isStacked { stacked.append(index) }
            let drawnX = animating ? x : Self.floorf(x)
            let isLast = index == pages.count - 1
            let dim = drawnX <= 0 && !isLast ? Self.dimPerPageWidth / width * abs(drawnX) : 0
            let frame = Rect(x: drawnX, y: 0, width: width, height: size.height)
            result.append(PageFrame(frame: frame, isHidden: false, dim: dim, isStacked: isStacked))
        }
        // The last three stacked pages, in page order, move to x = 0, 3, 6; older ones are hidden
        // and keep their own x (SV.m:358-373).
        let hiddenCount = max(stacked.count - Self.stackDepth, 0)
        for (order, index) in stacked.enumerated() {
            if order < hiddenCount {
                result[index].isHidden = true
            } else {
                result[index].frame.x = Double(min(order - hiddenCount, Self.stackDepth)) * Self.stackStep
            }
        }
        return result
    }

    /// Which pages are on screen at `offset` by their logical (unstacked, unfloored) position: not
    /// at or beyond the right edge, and not with their right edge at or left of 0. A stacked page
    /// stays on screen until it is wholly covered (SV.m:395-402).
    public func onScreen(at offset: Double) -> [Bool] {
        penPositions(at: offset).enumerated().map { index, x in
            // The covered test adds the NSRange length, a whole number (SV.m:400-401).
            let length = width(ofPage: index).rounded(.towardZero)
            return !(x >= size.width) && !(x + length <= 0)
        }
    }

    /// C's `floorf`: the value goes through a 32-bit float before it is floored (SV.m:343).
    static func floorf(_ x: Double) -> Double {
        Double(Float(x).rounded(.down))
    }
}
