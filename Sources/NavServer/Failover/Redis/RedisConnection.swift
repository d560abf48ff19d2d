import CHiredis
import Foundation

/// One blocking connection to Redis through hiredis, with timeouts on connecting and on every
/// reply, so a Redis that stopped answering costs its caller at most `replyTimeout`.
///
/// Belongs to one thread at a time (a store's writing thread, or one takeover's worker): never a
/// service thread. Once a call throws, the connection is broken: make a new one.
final class RedisConnection {
    private let context: UnsafeMutablePointer<redisContext>

    /// Connects to `address` and selects its database.
    init(to address: RedisAddress, connectTimeout: Double = 1, replyTimeout: Double = 1) throws(RedisConnectionError) {
        guard let context = redisConnectWithTimeout(address.host, Int32(address.port), Self.timeval(connectTimeout)) else {
            throw RedisConnectionError("cannot connect to \(address): out of memory")
        }
        if context.pointee.err != 0 {
            let reason = Self.errorText(of: context)
            redisFree(context)
            throw RedisConnectionError("cannot connect to \(address): \(reason)")
        }
        self.context = context
        redisSetTimeout(context, Self.timeval(replyTimeout))
        redisEnableKeepAlive(context)
        if let password = address.password {
            if case .error(let message) = try run(["AUTH"] + (address.user.map { [$0] } ?? []) + [password]) {
                throw RedisConnectionError("\(address) refused the password: \(message)")
            }
        }
        if address.database != 0, case .error(let message) = try run(["SELECT", String(address.database)]) {
            throw RedisConnectionError("\(address): \(message)")
        }
    }

    deinit { redisFree(context) }

    /// Sends `command` and waits for its reply.
    func run(_ command: [String]) throws(RedisConnectionError) -> RedisReply {
        try pipeline([command])[0]
    }

    /// Sends every command of `commands` at once, then reads their replies in order: one round
    /// trip for all of them. A reply that is an error is returned as `.error`; the connection
    /// failing (a timeout, a reset) throws.
    func pipeline(_ commands: [[String]]) throws(RedisConnectionError) -> [RedisReply] {
        for command in commands {
            let status = Self.withArgv(command) { argc, argv, lengths in redisAppendCommandArgv(context, argc, argv, lengths) }
            guard status == REDIS_OK else { throw RedisConnectionError(Self.errorText(of: context)) }
        }
        var replies: [RedisReply] = []
        replies.reserveCapacity(commands.count)
        for _ in commands {
            var raw: UnsafeMutableRawPointer?
            guard redisGetReply(context, &raw) == REDIS_OK, let raw else { throw RedisConnectionError(Self.errorText(of: context)) }
            let reply = raw.assumingMemoryBound(to: redisReply.self)
            replies.append(Self.convert(reply))
            freeReplyObject(raw)
        }
        return replies
    }

    private static func convert(_ reply: UnsafeMutablePointer<redisReply>) -> RedisReply {
        let value = reply.pointee
        func bytes() -> [UInt8] {
            guard let str = value.str else { return [] }
            return Array(UnsafeRawBufferPointer(start: str, count: value.len))
        }
        switch value.type {
        case REDIS_REPLY_STRING: return .string(bytes())
        case REDIS_REPLY_STATUS: return .status(String(decoding: bytes(), as: UTF8.self))
        case REDIS_REPLY_INTEGER: return .integer(Int(value.integer))
        case REDIS_REPLY_ERROR: return .error(String(decoding: bytes(), as: UTF8.self))
        case REDIS_REPLY_ARRAY:
            guard let elements = value.element else { return .array([]) }
            return .array((0..<value.elements).map { convert(elements[$0]!) })
        default: return .null
        }
    }

    /// Calls `body` with `command` as hiredis's argc, argv and argument lengths (arguments may
    /// hold any bytes, NUL included).
    private static func withArgv(
        _ command: [String], _ body: (Int32, UnsafeMutablePointer<UnsafePointer<CChar>?>, UnsafePointer<Int>) -> Int32
    ) -> Int32 {
        var bytes: [UInt8] = []
        var lengths: [Int] = []
        for argument in command {
            bytes.append(contentsOf: argument.utf8)
            lengths.append(argument.utf8.count)
        }
        // One byte more, so an empty command line still has an address.
        bytes.append(0)
        return bytes.withUnsafeBufferPointer { buffer in
            let base = UnsafeRawPointer(buffer.baseAddress!).assumingMemoryBound(to: CChar.self)
            var offset = 0
            var argv: [UnsafePointer<CChar>?] = lengths.map { length in
                defer { offset += length }
                return base + offset
            }
            return argv.withUnsafeMutableBufferPointer { argvBuffer in
                lengths.withUnsafeBufferPointer { body(Int32(command.count), argvBuffer.baseAddress!, $0.baseAddress!) }
            }
        }
    }

    private static func errorText(of context: UnsafeMutablePointer<redisContext>) -> String {
        let text = withUnsafeBytes(of: context.pointee.errstr) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
        return text.isEmpty ? "the connection failed" : text
    }

    private static func timeval(_ seconds: Double) -> Glibc.timeval {
        Glibc.timeval(tv_sec: Int(seconds), tv_usec: Int((seconds - seconds.rounded(.down)) * 1e6))
    }
}

/// Redis could not be reached, or stopped answering within the timeout.
public struct RedisConnectionError: Error, CustomStringConvertible, Sendable {
    public var description: String

    init(_ description: String) { self.description = description }
}
