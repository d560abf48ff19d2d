/// Where a controller is in UIKit's appearance cycle.
///
/// disappeared → appearing → appeared → disappearing → disappeared, plus the two reversals an
/// interactive pop makes when it is cancelled (appearing → disappearing, disappearing → appearing).
public enum AppearanceState: String, Equatable, Sendable {
    case disappeared, appearing, appeared, disappearing

    /// The state after `viewWillAppear`, or nil when that call is not allowed here.
    var willAppear: AppearanceState? {
        switch self {
        case .disappeared, .disappearing: .appearing
        case .appearing, .appeared: nil
        }
    }

    /// The state after `viewWillDisappear`, or nil when that call is not allowed here.
    var willDisappear: AppearanceState? {
        switch self {
        case .appeared, .appearing: .disappearing
        case .disappearing, .disappeared: nil
        }
    }

    /// The state after the matching "did" call, or nil outside a transition.
    var did: AppearanceState? {
        switch self {
        case .appearing: .appeared
        case .disappearing: .disappeared
        case .appeared, .disappeared: nil
        }
    }
}
