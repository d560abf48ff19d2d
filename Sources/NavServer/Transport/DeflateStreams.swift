import CWebSockets

extension PermessageDeflate {
    /// One direction of a `permessage-deflate` connection as the sender sees it: a raw deflate
    /// stream kept from message to message (context takeover), each message ended with a sync
    /// flush whose closing `00 00 FF FF` is cut off (RFC 7692 §7.2.1). With the defaults it
    /// compresses exactly as libwebsockets does on this server, so the benchmark can time it and
    /// tests can play a compressing client. Not used by the server itself.
    public final class Deflater {
        private let stream = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
        private var output = [UInt8](repeating: 0, count: 16 * 1024)

        public init(
            level: Int32 = PermessageDeflate.compressionLevel, windowBits: Int32 = PermessageDeflate.windowBits,
            memoryLevel: Int32 = PermessageDeflate.memoryLevel
        ) {
            stream.initialize(to: z_stream())
            // Negative window bits: raw deflate, no zlib header or checksum.
            let status = cws_deflate_init(stream, level, -windowBits, memoryLevel)
            precondition(status == Z_OK, "deflateInit2 failed: \(status)")
        }

        deinit {
            deflateEnd(stream)
            stream.deallocate()
        }

        /// The compressed payload of one message.
        public func compress(_ message: [UInt8]) -> [UInt8] {
            var result: [UInt8] = []
            var message = message
            message.withUnsafeMutableBufferPointer { input in
                stream.pointee.next_in = input.baseAddress
                stream.pointee.avail_in = UInt32(input.count)
                repeat {
                    output.withUnsafeMutableBufferPointer { out in
                        stream.pointee.next_out = out.baseAddress
                        stream.pointee.avail_out = UInt32(out.count)
                        deflate(stream, Z_SYNC_FLUSH)
                        result.append(contentsOf: out[..<(out.count - Int(stream.pointee.avail_out))])
                    }
                } while stream.pointee.avail_out == 0
            }
            stream.pointee.next_in = nil
            // A sync flush always ends with an empty stored block: 00 00 FF FF.
            precondition(result.suffix(4) == [0, 0, 0xFF, 0xFF], "a sync flush ends with 00 00 FF FF")
            return Array(result.dropLast(4))
        }
    }

    /// The receiving side of `Deflater`: inflates one message at a time, context kept.
    public final class Inflater {
        private let stream = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
        private var output = [UInt8](repeating: 0, count: 16 * 1024)

        public init(windowBits: Int32 = PermessageDeflate.windowBits) {
            stream.initialize(to: z_stream())
            let status = cws_inflate_init(stream, -windowBits)
            precondition(status == Z_OK, "inflateInit2 failed: \(status)")
        }

        deinit {
            inflateEnd(stream)
            stream.deallocate()
        }

        /// The message whose compressed payload is `payload`; nil when zlib finds it corrupt.
        public func decompress(_ payload: [UInt8]) -> [UInt8]? {
            var input = payload + [0, 0, 0xFF, 0xFF]
            var result: [UInt8] = []
            var failed = false
            input.withUnsafeMutableBufferPointer { input in
                stream.pointee.next_in = input.baseAddress
                stream.pointee.avail_in = UInt32(input.count)
                repeat {
                    output.withUnsafeMutableBufferPointer { out in
                        stream.pointee.next_out = out.baseAddress
                        stream.pointee.avail_out = UInt32(out.count)
                        let status = inflate(stream, Z_SYNC_FLUSH)
                        if status != Z_OK && status != Z_BUF_ERROR { failed = true }
                        result.append(contentsOf: out[..<(out.count - Int(stream.pointee.avail_out))])
                    }
                } while !failed && (stream.pointee.avail_in > 0 || stream.pointee.avail_out == 0)
            }
            stream.pointee.next_in = nil
            return failed ? nil : result
        }
    }
}
