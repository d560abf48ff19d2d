import NavKit

/// libFuzzer target: the fuzz bytes are a `SceneScript` (a scripted session on a built-in app);
/// every picture goes through the v1, v2 JSON and v2 binary encoders as full frame then deltas,
/// and the viewers' models must equal a full frame of the same picture after every frame
/// (`FrameCheck`). At the end, the scene at rest must come back the same from a snapshot
/// (`SnapshotRoundTrip`). A mismatch traps, so libFuzzer saves the input.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzFrameRoundTrip(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let script = SceneScript(Array(UnsafeBufferPointer(start: data, count: size)))
    var check = FrameCheck(templates: script.templates)
    if let failure = check.run(script) {
        fatalError("FrameRoundTrip: \(failure)")
    }
    if let difference = SnapshotRoundTrip.check(script) {
        fatalError("FrameRoundTrip: a snapshot of the scene at rest restores otherwise: \(difference)")
    }
    return 0
}
