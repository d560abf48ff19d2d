/// How a panel presentation rests and moves (VCStack's half-height floating layer; iOS's sheet
/// with detents): the detents it may rest at, the one it rises to, and whether a tap on its mask
/// dismisses it.
public struct PanelOptions: Equatable, Sendable {
    /// The heights it may rest at, in any order.
    public var detents: [PanelDetent]
    /// The detent it rises to; one of `detents`.
    public var detent: PanelDetent
    /// Whether a tap on the mask dismisses the panel.
    public var dismissOnMaskTap: Bool

    public init(detents: [PanelDetent] = [.medium, .large], detent: PanelDetent? = nil, dismissOnMaskTap: Bool = true) {
        self.detents = detents
        self.detent = detent ?? detents.first ?? .medium
        self.dismissOnMaskTap = dismissOnMaskTap
    }

    /// The detents' heights on a screen, lowest first, each once.
    ///
    /// - Throws: `invalidArgument` for no detents, a `detent` not among them, or a height that is
    ///   not above 0 or is taller than the screen below its safe-area top.
    func heights(bounds: Size, safeArea: EdgeInsets) throws(NavError) -> [Double] {
        guard !detents.isEmpty else { throw .invalidArgument("detents: a panel needs at least one detent") }
        guard detents.contains(detent) else {
            throw .invalidArgument("detent \(detent): not one of the panel's detents (\(detents.map(\.description).joined(separator: ", ")))")
        }
        let tallest = bounds.height - safeArea.top
        var heights: [Double] = []
        for detent in detents {
            let height = detent.height(bounds: bounds, safeArea: safeArea)
            guard height > 0, height <= tallest else {
                throw .invalidArgument("detent \(detent): a panel is above 0 and at most \(PanelDetent.points(tallest)) points high on this screen (\(PanelDetent.points(bounds.height)) high, \(PanelDetent.points(safeArea.top)) of it the safe area's top), this one would be \(PanelDetent.points(height))")
            }
            if !heights.contains(height) { heights.append(height) }
        }
        return heights.sorted()
    }
}
