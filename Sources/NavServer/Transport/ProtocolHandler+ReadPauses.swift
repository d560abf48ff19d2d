import CWebSockets

/// Connections whose reading is paused (`WebSocketConnection.pauseReading`): lws stops polling
/// them for input (rx flow control), keeps what it had read but not delivered, and delivers it
/// once they are read again. A flood then waits in the kernel's buffers and the sender's, and a
/// loop turn never spends itself refusing one address's backlog.
extension ProtocolHandler {
    /// Pauses reading `connection` for `seconds` (at least a millisecond, at most a second: the
    /// deadline sweep and the heartbeat must still hear it).
    func pauseReading(_ connection: WebSocketConnection, for seconds: Double) {
        guard let wsi = connection.wsi, connections[wsi] === connection else { return }
        let until = server.now + min(max(seconds, 0.001), 1)
        if readPauses[wsi] == nil { lws_rx_flow_control(wsi, 0) }
        readPauses[wsi] = max(readPauses[wsi] ?? 0, until)
        scheduleReadPauseTimer(context: lws_get_context(wsi))
    }

    /// The pause timer fired: reads again every connection whose pause is over.
    func resumeDueReads() {
        let now = server.now
        for (wsi, until) in readPauses where until <= now {
            readPauses[wsi] = nil
            lws_rx_flow_control(wsi, 1)
        }
        if let wsi = readPauses.keys.first { scheduleReadPauseTimer(context: lws_get_context(wsi)) }
    }

    /// Reads `wsi` again at once: a connection closing must hear the peer's close frame.
    func resumeReading(_ wsi: OpaquePointer) {
        guard readPauses.removeValue(forKey: wsi) != nil else { return }
        lws_rx_flow_control(wsi, 1)
    }

    /// A closed connection's pause ends with it.
    func forgetReadPause(of wsi: OpaquePointer) {
        readPauses[wsi] = nil
    }

    private func scheduleReadPauseTimer(context: OpaquePointer?) {
        guard let context, let next = readPauses.values.min() else { return }
        readPauseTimer.schedule(in: next - server.now, context: context)
    }
}
