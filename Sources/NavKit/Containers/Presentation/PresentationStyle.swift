/// How a presented controller covers what is below it (UIKit's `modalPresentationStyle`).
public enum PresentationStyle: String, Equatable, Sendable, CaseIterable {
    /// iOS 15's page sheet: a card below the safe area over the presenter, which scales back and
    /// dims but stays on screen, so it gets no disappearance callbacks.
    case sheet
    /// The whole screen, rising from the bottom; the presenter leaves the screen.
    case fullScreen
    /// A panel rising to a detent over a mask that covers everything beneath, bars included; the
    /// presenter stays on screen, as under a sheet (VCStack's half-height floating layer).
    case panel

    /// The motion that presents and dismisses in this style.
    var transition: ParametricTransition {
        switch self {
        case .sheet:
            return .modal
        case .fullScreen:
            var cover = ParametricTransition.modal
            cover.presentsSheet = false
            cover.dim = 0
            return cover
        case .panel:
            var rise = ParametricTransition.modal
            rise.presentsSheet = false
            rise.dim = PanelController.maskAlpha
            return rise
        }
    }
}
