/// Something whose state an animation's every update reads: it notes that state in a session's
/// `MemoryFootprint`, which an animation's closure cannot tell (`Animator.animate`).
public protocol FootprintSource: AnyObject {
    /// Notes what the next update reads in `footprint`.
    func addFootprint(to footprint: inout MemoryFootprint)
}
