import NavWire

/// The hash a recording keeps of each frame, and a replay compares: 64-bit FNV-1a, as 16 hex
/// digits, of the frame as a full frame in each form it has (the v1 display list, then the v2
/// layer tree as JSON), so it covers everything a viewer is sent, at wire precision, with its
/// seq and time. It tells pictures apart; it is no defence against a forged recording.
public enum FrameHash {
    public static func of(_ frame: WireFrame) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        func add(_ bytes: [UInt8]?) {
            for byte in bytes ?? [] {
                hash ^= UInt64(byte)
                hash = hash &* 0x0000_0100_0000_01b3
            }
        }
        if frame.list != nil { add(FrameEncoder.encode(frame, from: nil)) }
        if frame.tree != nil { add(TreeEncoder.encode(frame, from: nil)) }
        let digits = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
