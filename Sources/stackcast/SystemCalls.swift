#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The C library as this target uses it, where Glibc and Darwin spell it differently: Glibc's
/// constants are imported as enums or other integer types, and only Linux has `SOCK_NONBLOCK`,
/// `SOCK_CLOEXEC` and `MSG_NOSIGNAL` (Darwin gets `fcntl` and `SO_NOSIGPIPE` instead). Only the
/// Linux side is built and tested here; the Darwin side is there so the package compiles on macOS.
enum SystemCalls {
    #if canImport(Glibc)
    static let streamSocket = Int32(SOCK_STREAM.rawValue)
    static let openFiles = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
    static let thisProcess = __rusage_who_t(RUSAGE_SELF.rawValue)
    static let noSignal = Int32(MSG_NOSIGNAL)
    #else
    static let streamSocket = SOCK_STREAM
    static let openFiles = RLIMIT_NOFILE
    static let thisProcess = RUSAGE_SELF
    static let noSignal: Int32 = 0
    #endif

    /// A non-blocking, close-on-exec TCP socket of `family` that never raises SIGPIPE, or -1.
    static func nonBlockingStreamSocket(family: Int32) -> Int32 {
        #if canImport(Glibc)
        return socket(family, streamSocket | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        #else
        let fd = socket(family, streamSocket, 0)
        guard fd >= 0 else { return fd }
        var one: Int32 = 1
        _ = setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &one, socklen_t(MemoryLayout<Int32>.size))
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        return fd
        #endif
    }

    /// `close(2)`, for types with a `close` of their own.
    static func close(_ fd: Int32) {
        #if canImport(Glibc)
        _ = Glibc.close(fd)
        #else
        _ = Darwin.close(fd)
        #endif
    }

    /// `send(2)` without SIGPIPE, for types with a `send` of their own.
    static func send(_ fd: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
        #if canImport(Glibc)
        Glibc.send(fd, bytes, count, noSignal)
        #else
        Darwin.send(fd, bytes, count, noSignal)
        #endif
    }

    /// `write(2)`, for types with a `write` of their own.
    static func write(_ fd: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
        #if canImport(Glibc)
        Glibc.write(fd, bytes, count)
        #else
        Darwin.write(fd, bytes, count)
        #endif
    }
}
