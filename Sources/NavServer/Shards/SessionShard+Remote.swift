import NavWire

/// Serving a connection on this shard for a session held by another (`RemoteLink`).
extension SessionShard {
    // MARK: Home side (this shard holds the socket)

    /// Sends `viewer`'s `hello` for a session held by `owner`, which takes it from there; the
    /// connection leaves whatever session it was in first.
    func route(_ hello: Hello, from viewer: Viewer, to owner: SessionShard, now: Double) {
        unlink(viewer)
        leave(viewer, forHelloTo: nil, now: now)
        let link = RemoteLink(home: self, owner: owner, connection: viewer.connection)
        viewer.remote = link
        let peer = viewer.connection.peer
        owner.transport.perform { owner.attach(link, hello: hello, peer: peer) }
    }

    /// Hands one of a linked connection's messages (`text` as it came) to the shard holding its
    /// session.
    func forward(_ message: ClientMessage, text: String, through link: RemoteLink) {
        let owner = link.owner
        owner.transport.perform { owner.receive(message, text: text, through: link) }
    }

    /// Takes `viewer` out of its session, here or on another shard.
    func leaveAnywhere(_ viewer: Viewer, now: Double) {
        unlink(viewer)
        if viewer.session != nil { leave(viewer, now: now) }
    }

    /// Ends `viewer`'s link to a session on another shard, if it has one.
    func unlink(_ viewer: Viewer) {
        guard let link = viewer.remote else { return }
        viewer.remote = nil
        link.isLinkedAtHome = false
        // The link's frame still waiting for the socket is not for what the connection does next.
        viewer.connection.replaceLatest(nil)
        let owner = link.owner
        owner.transport.perform { owner.unlink(link) }
    }

    /// A linked connection's socket took the frame the owner sent: the owner may send the next.
    func remoteFrameSent(_ link: RemoteLink) {
        let owner = link.owner
        owner.transport.perform { owner.remoteFrameWritten(link) }
    }

    // MARK: Owner side (this shard holds the session)

    /// A `hello` routed here by the link's home: this shard's viewer for it takes it as its own.
    private func attach(_ link: RemoteLink, hello: Hello, peer: String) {
        guard link.isOpen else { return }
        // The home rate-limits the connection's messages before forwarding them.
        let viewer = makeViewer(connection: RemoteViewerConnection(link: link, peer: peer), limiter: .unlimited)
        link.viewer = viewer
        receive(.hello(hello), text: "", through: link)
    }

    private func receive(_ message: ClientMessage, text: String, through link: RemoteLink) {
        guard link.isOpen, let viewer = link.viewer else { return }
        serve(message, text: text, from: viewer, now: transport.now)
    }

    /// The link's home closed its socket or moved it to another session.
    private func unlink(_ link: RemoteLink) {
        link.isOpen = false
        if let viewer = link.viewer { leave(viewer, now: transport.now) }
        link.viewer = nil
    }

    /// The home wrote the link's frame: the viewer gets the newest at the end of this turn, if it
    /// is behind, and input the session held back for want of a viewer to show it is rendered.
    private func remoteFrameWritten(_ link: RemoteLink) {
        link.frameInFlight = false
        guard link.isOpen, let session = link.viewer?.session else { return }
        schedule(session)
    }
}
