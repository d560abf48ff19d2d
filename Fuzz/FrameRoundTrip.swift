import Foundation
import NavKit

/// libFuzzer target: the fuzz bytes are a `SceneScript` (a scripted session on a built-in app);
/// every picture goes through the v1, v2 JSON and v2 binary encoders as full frame then deltas,
/// and the viewers' models must equal a full frame of the same picture after every frame
/// (`FrameCheck`). A mismatch traps, so libFuzzer saves the input.
///
/// At the end the scene at rest is taken into a snapshot and restored (`SnapshotRoundTrip`), so
/// any crash there is found. A difference the check finds is what a server refuses to write (a
/// checkpoint it does not make), not a wrong session: it traps only with
/// `STACKCAST_FUZZ_SNAPSHOTS=strict`, for hunting what snapshots do not describe yet.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzFrameRoundTrip(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let script = SceneScript(Array(UnsafeBufferPointer(start: data, count: size)))
    var check = FrameCheck(templates: script.templates)
    if let failure = check.run(script) {
        fatalError("FrameRoundTrip: \(failure)")
    }
    if let difference = SnapshotRoundTrip.check(script), snapshotsStrict {
        fatalError("FrameRoundTrip: a snapshot of the scene at rest restores otherwise: \(difference)")
    }
    return 0
}

/// Whether a snapshot that restores otherwise traps (`STACKCAST_FUZZ_SNAPSHOTS=strict`).
private let snapshotsStrict = ProcessInfo.processInfo.environment["STACKCAST_FUZZ_SNAPSHOTS"] == "strict"
