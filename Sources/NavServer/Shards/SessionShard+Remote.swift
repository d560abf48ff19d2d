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
        let owner = link.owner
        owner.transport.perform { owner.unlink(link) }
    }

    /// The frame the owner sent for a linked connection, if one waits; tells the owner it has
    /// gone, so it can make the next.
    func nextRemoteFrame(_ link: RemoteLink) -> WebSocketPayload? {
        guard let frame = link.frame else { return nil }
        link.frame = nil
        let owner = link.owner
        owner.transport.perform { owner.remoteFrameWritten(link) }
        return frame
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

    /// Asks for the link's next frame: made on this shard's next loop pass, or once the frame in
    /// flight has been written.
    func requestRemoteFrame(_ link: RemoteLink) {
        if link.frameInFlight {
            link.frameWanted = true
            return
        }
        guard !link.frameScheduled else { return }
        link.frameScheduled = true
        transport.perform { [self] in
            link.frameScheduled = false
            sendRemoteFrame(link)
        }
    }

    private func sendRemoteFrame(_ link: RemoteLink) {
        guard link.isOpen, let viewer = link.viewer, let frame = nextFrame(for: viewer) else { return }
        link.frameInFlight = true
        link.home.transport.perform {
            link.frame = frame
            link.connection.requestWrite()
        }
    }

    private func remoteFrameWritten(_ link: RemoteLink) {
        link.frameInFlight = false
        guard link.frameWanted else { return }
        link.frameWanted = false
        requestRemoteFrame(link)
    }
}
