import CWebSockets
import NavKit

/// Session tokens: 128 random bits from the system's secure generator, as 32 hex digits, after
/// the node's id and a dot when the server has one (`serve --node-id s1`: `s1.3f9a…`), so a
/// balancer can send a resume to the process that made the token (HAProxy:
/// `use-server %[urlp(session),field(1,.)]`). The node id is public; the secret is the hex part.
///
/// Tokens are bearer secrets: logs name a session by `logName(_:)`, and the session stores name
/// its files and keys by `stateKey(_:)`, a one-way hash, never by the token itself (Redis keeps
/// the tokens inside a session's hash, to rebuild a session a watcher's token found).
public enum SessionToken {
    /// What a node id may be: 1 to 32 letters, digits, `-` and `_` (no dot: the dot ends it).
    public static let nodeIDRule = "a node id is 1 to 32 letters, digits, - and _"

    /// True when `id` may be a node id (`nodeIDRule`).
    public static func isValidNodeID(_ id: String) -> Bool {
        PlainName.isValid(id, maxBytes: 32)
    }

    /// A new token; with `node`, routable to it (`node.` then the secret).
    static func make(node: String? = nil) -> String {
        let secret = randomHex(words: 2)
        return node.map { "\($0).\(secret)" } ?? secret
    }

    /// `words` random 64-bit words as hex digits (16 per word).
    static func randomHex(words: Int) -> String {
        var generator = SystemRandomNumberGenerator()
        let digits = Array("0123456789abcdef".utf8)
        var bytes: [UInt8] = []
        for _ in 0..<words {
            var word = generator.next() as UInt64
            for _ in 0..<16 {
                bytes.append(digits[Int(word & 0xF)])
                word >>= 4
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The node id a token names, if it has one.
    static func node(of token: String) -> Substring? {
        guard let dot = token.firstIndex(of: ".") else { return nil }
        return token[..<dot]
    }

    /// How logs name the session of `token`: its node id and 4 hex digits of its secret (16 of
    /// its 128 bits, enough to follow one session through a log, far too few to guess the rest).
    static func logName(_ token: String) -> String {
        let secret = node(of: token).map { token[token.index(after: $0.endIndex)...] } ?? Substring(token)
        let prefix = node(of: token).map { "\($0)." } ?? ""
        return "\(prefix)\(secret.prefix(4))…"
    }

    /// The name of `token`'s files in the state folder: SHA-1 of the whole token as 40 hex
    /// digits. A one-way function of a 128-bit random secret, so listing the folder tells nobody
    /// a token, while the process asked to resume a token finds its file.
    static func stateKey(_ token: String) -> String {
        var digest = [UInt8](repeating: 0, count: 20)
        let bytes = Array(token.utf8)
        _ = bytes.withUnsafeBufferPointer { lws_SHA1($0.baseAddress, bytes.count, &digest) }
        let digits = Array("0123456789abcdef".utf8)
        return String(decoding: digest.flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 0xF)]] }, as: UTF8.self)
    }
}
