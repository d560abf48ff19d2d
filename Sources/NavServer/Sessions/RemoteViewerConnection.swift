/// The owner's side of a `RemoteLink`: the connection of a viewer whose socket is on another
/// shard. Text messages and closes are queued to the home shard; frames are made on request, one
/// in flight at a time (`SessionShard.requestRemoteFrame`).
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

    func requestWrite() {
        guard link.isOpen else { return }
        link.owner.requestRemoteFrame(link)
    }

    func close(code: UInt16, reason: String) {
        guard link.isOpen else { return }
        link.isOpen = false
        let link = link
        link.home.transport.perform { link.connection.close(code: code, reason: reason) }
    }
}
