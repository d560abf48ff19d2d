/// How deeply a YAML text nests, estimated from its characters before any parser sees it: the
/// YAML parser recurses once per level, so a few kilobytes of `[[[[…` or `- - - - …` would
/// overflow the stack of whatever reads them.
///
/// The estimate never reads low: a block level is a deeper indentation than the line it opens
/// under (or one more `- `/`? ` on a line), a flow level a `[` or `{` outside quotes, comments and
/// block scalars. It can read high for odd plain scalars such as `a: x [y`, which is harmless at a
/// limit far above what any flow file needs.
///
/// Stateless; any thread.
enum YAMLNesting {
    /// Where the text first nests deeper than `limit`: the line (from 1) and the depth reached;
    /// nil when it never does.
    static func firstLine(of text: String, deeperThan limit: Int) -> (line: Int, depth: Int)? {
        var scanner = Scanner()
        var lineNumber = 0
        for line in text.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
            lineNumber += 1
            let depth = scanner.read(line)
            if depth > limit { return (lineNumber, depth) }
        }
        return nil
    }

    /// The state carried from one line to the next.
    private struct Scanner {
        /// The indentation columns of the block levels open, innermost last.
        var indents: [Int] = []
        /// Open `[` and `{`.
        var flowDepth = 0
        /// Inside a quoted scalar that goes on to the next line: its quote.
        var openQuote: UInt8?
        /// Inside a block scalar (`|` or `>`): lines indented more than this column are its text.
        var blockScalarIndent: Int?

        /// Reads one line; returns the deepest nesting on it.
        mutating func read(_ line: Substring.UTF8View.SubSequence) -> Int {
            let bytes = Array(line)
            let indent = bytes.prefix { $0 == UInt8(ascii: " ") }.count
            let blank = bytes.allSatisfy { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") || $0 == UInt8(ascii: "\r") }
            if let column = blockScalarIndent {
                if blank || indent > column { return indents.count + flowDepth }
                blockScalarIndent = nil
            }
            var position = indent
            if openQuote == nil, flowDepth == 0, !blank, bytes[indent] != UInt8(ascii: "#") {
                while let last = indents.last, last >= indent { indents.removeLast() }
                indents.append(indent)
            }
            var deepest = indents.count + flowDepth
            // Compact nesting: each `- ` or `? ` that opens the line's content is a level more.
            if openQuote == nil, flowDepth == 0 {
                while position + 1 < bytes.count, bytes[position] == UInt8(ascii: "-") || bytes[position] == UInt8(ascii: "?"),
                    bytes[position + 1] == UInt8(ascii: " ")
                {
                    position += 2
                    while position < bytes.count, bytes[position] == UInt8(ascii: " ") { position += 1 }
                    deepest += 1
                }
            }
            var previous: UInt8 = UInt8(ascii: " ")
            while position < bytes.count {
                let byte = bytes[position]
                position += 1
                if let quote = openQuote {
                    if byte == UInt8(ascii: "\\"), quote == UInt8(ascii: "\"") {
                        position += 1
                    } else if byte == quote {
                        // '' inside single quotes is a quote, not the end.
                        if quote == UInt8(ascii: "'"), position < bytes.count, bytes[position] == quote { position += 1 } else { openQuote = nil }
                    }
                    previous = byte
                    continue
                }
                switch byte {
                case UInt8(ascii: "#") where previous == UInt8(ascii: " ") || previous == UInt8(ascii: "\t"):
                    position = bytes.count
                    continue
                case UInt8(ascii: "\""), UInt8(ascii: "'"):
                    if Self.startsToken(after: previous) { openQuote = byte }
                case UInt8(ascii: "["), UInt8(ascii: "{"):
                    if flowDepth > 0 || Self.startsToken(after: previous) {
                        flowDepth += 1
                        deepest = max(deepest, indents.count + flowDepth)
                    }
                case UInt8(ascii: "]"), UInt8(ascii: "}"):
                    if flowDepth > 0 { flowDepth -= 1 }
                default:
                    break
                }
                previous = byte
            }
            // A line ending in a block scalar's indicator (`|`, `>`, with `-`, `+` or a digit after
            // it) makes the more indented lines after it text.
            if openQuote == nil, flowDepth == 0, Self.endsWithBlockIndicator(bytes) { blockScalarIndent = indent }
            return deepest
        }

        /// Whether a quote or bracket after `previous` begins a token rather than sitting inside
        /// a plain scalar.
        private static func startsToken(after previous: UInt8) -> Bool {
            switch previous {
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: ":"), UInt8(ascii: ","), UInt8(ascii: "["), UInt8(ascii: "{"),
                UInt8(ascii: "-"), UInt8(ascii: "?"):
                true
            default: false
            }
        }

        private static func endsWithBlockIndicator(_ bytes: [UInt8]) -> Bool {
            var end = bytes.count
            while end > 0, bytes[end - 1] == UInt8(ascii: " ") || bytes[end - 1] == UInt8(ascii: "\r") { end -= 1 }
            var position = end
            while position > 0, bytes[position - 1] == UInt8(ascii: "-") || bytes[position - 1] == UInt8(ascii: "+")
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[position - 1])
            {
                position -= 1
            }
            guard position > 0, bytes[position - 1] == UInt8(ascii: "|") || bytes[position - 1] == UInt8(ascii: ">") else { return false }
            return position == 1 || bytes[position - 2] == UInt8(ascii: " ")
        }
    }
}
