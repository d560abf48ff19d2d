import Foundation

/// Polls `condition` every few milliseconds until it holds or `timeout` seconds pass; returns
/// whether it held. For waiting on events another thread produces, never for judging speed:
/// the timeout only bounds how long a failing test hangs.
func waitUntil(timeout: Double = 5, _ condition: () -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while !condition() {
        guard Date() < deadline else { return false }
        usleep(2_000)
    }
    return true
}
