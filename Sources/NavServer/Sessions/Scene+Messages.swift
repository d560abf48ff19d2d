import NavKit
import NavWire

extension Scene {
    /// Applies a message that changes the scene: `resize`, `pointer`, `scroll`, `key` or a
    /// navigation command (answered through `completion`, as `handle(_:submitter:bytes:completion:)`
    /// does; `bytes` is the message's size). Others (`hello`, `ping`, `ack`, `subscribe`, `record`) are the
    /// session's business and do nothing here. The one place a live session and a replay turn
    /// messages into scene calls, so a replay does exactly what the server did.
    func apply(_ message: ClientMessage, submitter: AnyObject, bytes: Int, completion: @escaping CommandCompletion) {
        switch message {
        case .hello, .ping, .ack, .command(_, .subscribe), .command(_, .record):
            break
        case .resize(let viewport):
            resize(viewport)
        case .pointer(let event):
            handle(event)
        case .scroll(let event):
            handle(event)
        case .key(let key):
            handleKey(key)
        case .command(_, .navigation(let command)):
            handle(command, submitter: submitter, bytes: bytes, completion: completion)
        case .numbered(_, let input):
            apply(input, submitter: submitter, bytes: bytes, completion: completion)
        }
    }
}
