/// The owner's side of a `RemoteLink`: the connection of a viewer whose socket is on another
/// shard. Text messages, frames and closes are queued to the home shard, which puts each frame in
/// its socket's slot; the owner sends one frame at a time (`SessionShard.fillSlot(for:)`).
///
/// Owner's service thread only.
final class RemoteViewerConnection: ViewerConnection {
    let link: RemoteLink
    let peer: String

    init(link: RemoteLink, peer: String) {
        self.link = link
        self.peer = peer
    }

    var isOpen: Bool { link.isOpen }

    func send(_ text: String) {
        guard link.isOpen else { return }
        let link = link
        link.home.transport.perform { link.connection.send(text) }
    }

    func replaceLatest(_ payload: WebSocketPayload?) {
        guard link.isOpen else { return }
        let link = link
        link.home.transport.perform {
            // A frame that comes after the home ended the link is not for what its socket does now.
            guard link.isLinkedAtHome else { return }
            link.connection.replaceLatest(payload)
        }
    }

    func close(code: UInt16, reason: String) {
        guard link.isOpen else { return }
        link.isOpen = false
        let link = link
        link.home.transport.perform { link.connection.close(code: code, reason: reason) }
    }
}
