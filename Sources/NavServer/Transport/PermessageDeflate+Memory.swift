import CWebSockets

/// What an idle compressed connection keeps of lws' permessage-deflate state: its deflater is
/// reset after the message that ends a run of activity (`ProtocolHandler.writeable`), and the
/// deflater's memory and its output buffer are pages of their own (`PageMemory`), given back
/// then, with the inflater's output buffer. What stays is lws' small state.
///
/// The output buffer is the server's, not lws': made before lws would make it, let go when the
/// connection idles, and freed before lws frees its state (`LWS_EXT_CB_DESTROY`), so lws never
/// frees it.
extension PermessageDeflate {
    /// The bytes lws writes into the deflater's output buffer at most: its headroom, a frame
    /// header and 2^`sendBufferPowerOfTwo` of deflated data.
    static let outputBufferBytes = Int(CWS_PRE) + 7 + 5 + (1 << sendBufferPowerOfTwo)

    /// Before lws deflates a message with `state`: a deflater that lws is about to make gets its
    /// memory from `PageMemory`, so that resetting it gives its pages back, and a missing output
    /// buffer is made. zlib keeps the functions a deflater was made with until it is reset, so
    /// they are set only while there is none. False when the system has no pages to give.
    static func prepareToDeflate(_ state: UnsafeMutablePointer<cws_pmd_state_t>) -> Bool {
        if state.pointee.deflater.state == nil {
            state.pointee.deflater.zalloc = allocateDeflaterPages
            state.pointee.deflater.zfree = freeDeflaterPages
        }
        if state.pointee.deflated == nil {
            guard let buffer = PageMemory.allocate(byteCount: outputBufferBytes) else { return false }
            state.pointee.deflated = buffer.assumingMemoryBound(to: UInt8.self)
        }
        return true
    }

    /// Once the connection is idle: lets the output buffer go unless a deflater is still
    /// needed, and the inflater's unless a message is being read. lws has written all it
    /// deflated by then (its writes copy what the socket does not take). It makes an inflater
    /// for each message it reads and frees it after (`client_no_context_takeover`), once the
    /// message's last chunk is inflated, which it hands to the protocol callback before it
    /// returns; with no inflater, nothing is left to read in the buffer, and lws makes the buffer
    /// again with the next inflater.
    static func letGoOfBuffers(_ state: UnsafeMutablePointer<cws_pmd_state_t>) {
        if state.pointee.deflater.state == nil { freeOutputBuffer(state) }
        if state.pointee.inflater.state == nil, let buffer = state.pointee.inflated {
            _ = lws_realloc(buffer, 0, "pmd rx inflate buf")
            state.pointee.inflated = nil
        }
    }

    /// Frees the output buffer, if any: when the connection idles, or as lws frees its state.
    static func freeOutputBuffer(_ state: UnsafeMutablePointer<cws_pmd_state_t>) {
        guard let buffer = state.pointee.deflated else { return }
        PageMemory.deallocate(buffer)
        state.pointee.deflated = nil
    }
}

/// zlib's allocation function for a deflater (`alloc_func`).
private func allocateDeflaterPages(_ opaque: voidpf?, _ items: uInt, _ size: uInt) -> voidpf? {
    let (bytes, overflow) = Int(items).multipliedReportingOverflow(by: Int(size))
    return overflow ? nil : PageMemory.allocate(byteCount: bytes)
}

/// zlib's free function for a deflater (`free_func`).
private func freeDeflaterPages(_ opaque: voidpf?, _ address: voidpf?) {
    if let address { PageMemory.deallocate(address) }
}
