import NavWire

/// libFuzzer target: any text → `MessageDecoder.decode`, the server's only entry point for client
/// messages. It must return a message or a typed `DecodeFailure` (never crash or hang), the same
/// one every time (an ack or pointer message, or any plain JSON, read by the byte scans the same
/// as by the full reader), and
/// the error the server would send back must itself be valid JSON (error messages quote what the
/// client sent).
///
/// Bytes that are not UTF-8 never reach the decoder in the server (libwebsockets closes the
/// connection with 1007 first), so they are rejected here (-1: not kept in the corpus) rather
/// than repaired into text the server would never decode.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzMessageDecoder(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard let text = String(validating: UnsafeBufferPointer(start: data, count: size), as: UTF8.self) else { return -1 }
    let decoded = MessageDecoder.decode(text)
    precondition(MessageDecoder.decode(text) == decoded, "decoding the same text twice gave two answers")
    // The scans take what they can read and must read it as the full decoder does.
    let scanned = switch decoded {
    case .success(.pointer), .success(.numbered(_, .pointer)): true
    default: false
    }
    if scanned {
        precondition(MessageDecoder.decodeInFull(text) == decoded, "the pointer scan read \(decoded), the full decoder \(MessageDecoder.decodeInFull(text))")
    }
    // Plain JSON is read by a scan of its bytes (strings by the scan a recording's lines use).
    if let value = JSONValue(scanning: text) {
        precondition((try? JSONValue.parseInFull(text)) == value, "the scan read \(value), the full parser \(String(describing: try? JSONValue.parseInFull(text)))")
    }
    if let seq = MessageDecoder.ackSeq(in: text) {
        precondition(MessageDecoder.decodeInFull(text) == .success(.ack(seq: seq)), "the ack scan read \(seq), the full decoder \(MessageDecoder.decodeInFull(text))")
    }
    switch decoded {
    case .success(.command(let id, _)):
        precondition(id.stringValue != nil || id.numberValue != nil, "a command decoded with id \(id)")
    case .success:
        break
    case .failure(let failure):
        let codes: [ErrorCode] = [.badJSON, .badMessage, .unknownOp, .unsupported]
        precondition(codes.contains(failure.error.code), "a decode failure with code \(failure.error.code)")
        precondition(!failure.error.message.isEmpty, "a decode failure without a message")
        if let id = failure.commandID {
            precondition(id.stringValue != nil || id.numberValue != nil, "a failure with command id \(id)")
        }
        // What the server sends back must be JSON: decoding it gives anything but bad_json.
        let reply = ServerMessage.error(failure.error, id: failure.commandID)
        if case .failure(let replyFailure) = MessageDecoder.decode(reply), replyFailure.error.code == .badJSON {
            preconditionFailure("the error reply is not JSON: \(replyFailure.error.message): \(reply)")
        }
    }
    return 0
}
