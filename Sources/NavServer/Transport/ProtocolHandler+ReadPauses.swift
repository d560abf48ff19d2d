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
        // Many connections can pause in one turn: the timer moves only for an earlier end.
        if let due = readPauseTimerDue, due <= until { return }
        scheduleReadPauseTimer(at: until, context: lws_get_context(wsi))
    }

    /// The pause timer fired: reads again every connection whose pause is over.
    func resumeDueReads() {
        readPauseTimerDue = nil
        let now = server.now
        var next = Double.infinity
        for (wsi, until) in readPauses {
            if until <= now {
                readPauses[wsi] = nil
                lws_rx_flow_control(wsi, 1)
            } else {
                next = min(next, until)
            }
        }
        if next < .infinity, let wsi = readPauses.keys.first { scheduleReadPauseTimer(at: next, context: lws_get_context(wsi)) }
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

    private func scheduleReadPauseTimer(at time: Double, context: OpaquePointer?) {
        guard let context else { return }
        readPauseTimerDue = time
        readPauseTimer.schedule(in: time - server.now, context: context)
    }
}
