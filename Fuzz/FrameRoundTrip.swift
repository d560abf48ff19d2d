import NavKit

/// libFuzzer target: the fuzz bytes are a `SceneScript` (a scripted session on a built-in app);
/// every picture goes through the v1, v2 JSON and v2 binary encoders as full frame then deltas,
/// and the viewers' models must equal a full frame of the same picture after every frame
/// (`FrameCheck`). A mismatch traps, so libFuzzer saves the input.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzFrameRoundTrip(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    var script = SceneScript(Array(UnsafeBufferPointer(start: data, count: size)))
    var check = FrameCheck()
    var failure: String?
    script.run { picture, seq, time in
        failure = check.add(picture, seq: seq, time: time)
        return failure == nil
    } stepped: { last in
        failure = check.verify(every: last ? 1 : 8)
        return failure == nil
    }
    if let failure { fatalError("FrameRoundTrip: \(failure)") }
    return 0
}
