import NavWire

extension RecordingEntry {
    /// The line read by a scan of its bytes, when it is spelled exactly as the server writes the
    /// lines most of a recording is made of: a frame, `{"t":0.516,"frame":7}` (with
    /// `,"hash":"…"` in a `--record` recording), and an input, `{"t":0.41,"v":1,"in":"…"}` whose
    /// text escapes only `"` and `\`. Anything else (a time that is negative or has an exponent,
    /// another order, a member more) gives nil, and `Recording(parsing:)` reads the line in full,
    /// so a line means what the full reader says. A takeover reads every line of a state file,
    /// and reading each in full (`JSONDecoder`) would be a large part of its time.
    init?(scanning line: Substring) {
        guard
            let entry: RecordingEntry = ByteScanner.scan(line, { scanner in
                // A time is never negative; the full reader says so.
                guard scanner.skip(#"{"t":"#), !scanner.skip("-"), let time = scanner.number() else { return nil }
                if scanner.skip(#","frame":"#) {
                    guard let seq = scanner.integer(maxDigits: 15) else { return nil }
                    var hash: String?
                    if scanner.skip(#","hash":"#) {
                        guard let text = scanner.plainString() else { return nil }
                        hash = text
                    }
                    return scanner.skip("}") ? RecordingEntry(time: time, .frame(seq: seq, hash: hash)) : nil
                }
                guard scanner.skip(#","v":"#), let viewer = scanner.integer(maxDigits: 9), scanner.skip(#","in":"#),
                    let message = scanner.plainString(), scanner.skip("}")
                else { return nil }
                return RecordingEntry(time: time, .input(viewer: viewer, message: message))
            })
        else { return nil }
        self = entry
    }
}
