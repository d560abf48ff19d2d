#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The once-a-second progress line on stderr. On a terminal it is rewritten in place; otherwise
/// (a pipe, a log file) each update is a line of its own.
struct ProgressLine {
    private let isTerminal: Bool
    private var lineOpen = false

    init() {
        isTerminal = isatty(STDERR_FILENO) == 1
    }

    mutating func update(_ text: String) {
        write(isTerminal ? "\r" + text + "\u{1B}[K" : text + "\n")
        lineOpen = isTerminal
    }

    /// Ends a line left open on a terminal, so what follows starts on a fresh line.
    mutating func finish() {
        if lineOpen { write("\n") }
        lineOpen = false
    }

    private func write(_ text: String) {
        var text = text
        text.withUTF8 { bytes in
            var offset = 0
            while offset < bytes.count {
                let written = SystemCalls.write(STDERR_FILENO, bytes.baseAddress! + offset, bytes.count - offset)
                if written <= 0 { return }
                offset += written
            }
        }
    }
}
