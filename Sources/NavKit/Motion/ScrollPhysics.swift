// Only the C math library (pow, log), not Foundation: the engine stays free of Foundation.
#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// UIScrollView's scrolling physics as pure functions: rubber banding past an end and exponential
/// deceleration after a fling. Nothing here reads a clock; times are arguments.
///
/// Deceleration follows UIKit's model: the velocity is multiplied by `rate` once per millisecond,
/// taken continuously, so v(t) = v0·rate^(1000t). Velocities are in points per second, times in
/// seconds, and positions in points along one axis.
public enum ScrollPhysics {
    /// UIKit's `UIScrollView.DecelerationRate.normal`: the velocity kept per millisecond.
    public static let decelerationRate = 0.998
    /// UIKit's `UIScrollView.DecelerationRate.fast`.
    public static let fastDecelerationRate = 0.99
    /// The rubber-band coefficient c reported for UIKit.
    public static let rubberBandCoefficient = 0.55
    /// Below this speed (pt/s) a decelerating scroll counts as stopped. UIKit stops at a few points
    /// per second; at rate 0.998 the distance still left to travel is then about 2.5 pt.
    public static let restingSpeed = 5.0

    /// The on-screen displacement for `overscroll` points dragged past an end:
    /// b = (1 − 1/(x·c/d + 1))·d, which follows the finger at slope c near the end and never
    /// reaches d. Sign-preserving (negative overscroll gives a negative result); 0 when
    /// `dimension` is not positive.
    public static func rubberBand(overscroll: Double, dimension: Double, coefficient: Double = 0.55) -> Double {
        guard dimension > 0, overscroll != 0 else { return 0 }
        let x = abs(overscroll)
        let banded = (1 - 1 / (x * coefficient / dimension + 1)) * dimension
        return overscroll < 0 ? -banded : banded
    }

    /// The inverse of `rubberBand`: the overscroll that bands to `banded`. Sign-preserving;
    /// ±infinity when |banded| ≥ `dimension`, which banding can never produce.
    public static func overscroll(forRubberBanded banded: Double, dimension: Double, coefficient: Double = 0.55) -> Double {
        guard dimension > 0, banded != 0 else { return 0 }
        let b = abs(banded)
        let x = b < dimension ? dimension / coefficient * (b / (dimension - b)) : Double.infinity
        return banded < 0 ? -x : x
    }

    /// The velocity `t` seconds into a deceleration that started at `velocity`.
    public static func velocity(after t: Double, initialVelocity velocity: Double, rate: Double = decelerationRate) -> Double {
        velocity * pow(rate, 1000 * t)
    }

    /// The position `t` seconds into a deceleration from `position` at `velocity`:
    /// x0 + v0·(rate^(1000t) − 1)/(1000·ln rate), the integral of `velocity(after:)`.
    public static func position(
        after t: Double, from position: Double, initialVelocity velocity: Double, rate: Double = decelerationRate
    ) -> Double {
        position + velocity * (pow(rate, 1000 * t) - 1) / (1000 * log(rate))
    }

    /// The distance a deceleration travels before it comes to a complete rest (t → ∞):
    /// −v0/(1000·ln rate). Signed like `velocity`.
    public static func projectedDistance(initialVelocity velocity: Double, rate: Double = decelerationRate) -> Double {
        -velocity / (1000 * log(rate))
    }

    /// Seconds until the speed drops to `threshold`: ln(threshold/|v0|)/(1000·ln rate), or 0 when
    /// it is already there.
    public static func timeToRest(
        initialVelocity velocity: Double, rate: Double = decelerationRate, threshold: Double = restingSpeed
    ) -> Double {
        let speed = abs(velocity)
        guard speed > threshold, threshold > 0 else { return 0 }
        return log(threshold / speed) / (1000 * log(rate))
    }

    /// Seconds a deceleration from `velocity` takes to cover `distance` (same sign as `velocity`),
    /// or nil when it comes to rest first. Solves `position(after:)` for t.
    public static func timeToTravel(
        _ distance: Double, initialVelocity velocity: Double, rate: Double = decelerationRate
    ) -> Double? {
        if distance == 0 { return 0 }
        guard velocity != 0, (distance > 0) == (velocity > 0) else { return nil }
        // rate^(1000t) = 1 + distance·1000·ln(rate)/v0, which must stay positive to be reachable.
        let remaining = 1 + distance * 1000 * log(rate) / velocity
        guard remaining > 0 else { return nil }
        return log(remaining) / (1000 * log(rate))
    }
}
