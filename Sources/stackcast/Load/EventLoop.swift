#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One epoll instance plus a timer, for a single thread that drives many non-blocking sockets.
///
/// Sockets are registered with a token (the session's index) that comes back with each event.
/// The timer is a `timerfd` armed at absolute `LoadClock` times; its events carry `timerToken`.
/// Registrations are level-triggered: a socket stays readable until it is drained, and is
/// watched for writability only while it has bytes the kernel would not take.
///
/// Swift's Glibc module does not export `<sys/epoll.h>` and `<sys/timerfd.h>`, and this target
/// has no C shim, so the five calls are looked up in the C library once, with `dlsym`. Linux
/// only: elsewhere (macOS) it compiles, and `init` throws.
final class EventLoop {
    /// One readiness report.
    struct Ready {
        let token: UInt64
        let readable: Bool
        let writable: Bool
        /// EPOLLERR or EPOLLHUP: the socket failed or the peer hung up.
        let failed: Bool
    }

    /// The token of the timer's events.
    static let timerToken = UInt64.max

    private let calls: Calls
    private let epoll: Int32
    private let timer: Int32
    private let capacity: Int
    private let events: UnsafeMutableRawPointer
    /// Nanoseconds spent blocked in `epoll_wait` so far: the loop's idle time.
    private(set) var blockedNanoseconds: UInt64 = 0

    /// Creates the epoll instance and the timer; `capacity` is the most events one wait returns.
    init(capacity: Int = 1024) throws(LoadError) {
        calls = try Calls()
        self.capacity = capacity
        epoll = calls.epollCreate1(Self.cloexec)
        guard epoll >= 0 else { throw .system(call: "epoll_create1", code: errno) }
        timer = calls.timerfdCreate(Self.monotonicClock, Self.nonblock | Self.cloexec)
        guard timer >= 0 else {
            let code = errno
            close(epoll)
            throw .system(call: "timerfd_create", code: code)
        }
        events = UnsafeMutableRawPointer.allocate(byteCount: capacity * Self.eventSize, alignment: 8)
        do throws(LoadError) {
            try control(Self.add, fd: timer, token: Self.timerToken, writable: false)
        } catch {
            close(timer)
            close(epoll)
            events.deallocate()
            throw error
        }
    }

    deinit {
        close(timer)
        close(epoll)
        events.deallocate()
    }

    /// Watches `fd` for reading, and for writing when `writable`.
    func watch(_ fd: Int32, token: UInt64, writable: Bool) throws(LoadError) {
        try control(Self.add, fd: fd, token: token, writable: writable)
    }

    /// Changes whether `fd` is watched for writing.
    func update(_ fd: Int32, token: UInt64, writable: Bool) {
        try? control(Self.modify, fd: fd, token: token, writable: writable)
    }

    /// Stops watching `fd` (closing it does this too; this is for clarity and before reuse).
    func unwatch(_ fd: Int32) {
        _ = calls.epollCtl(epoll, Self.delete, fd, nil)
    }

    /// Arms the timer to fire once at `time` (a `LoadClock` reading).
    func arm(at time: UInt64) {
        var spec = itimerspec()
        spec.it_value = timespec(tv_sec: Int(time / 1_000_000_000), tv_nsec: Int(time % 1_000_000_000))
        _ = calls.timerfdSettime(timer, Self.absoluteTime, &spec, nil)
    }

    /// Consumes the timer's expiry so that it stops being readable.
    func acknowledgeTimer() {
        var expirations: UInt64 = 0
        _ = read(timer, &expirations, MemoryLayout<UInt64>.size)
    }

    /// Waits up to `timeoutMilliseconds` (-1: no limit) and calls `body` for each ready
    /// descriptor. Returns how many there were (0 on timeout or a signal).
    @discardableResult
    func wait(timeoutMilliseconds: Int32, _ body: (Ready) -> Void) -> Int {
        let start = LoadClock.now()
        let count = Int(calls.epollWait(epoll, events, Int32(capacity), timeoutMilliseconds))
        blockedNanoseconds += LoadClock.now() - start
        guard count > 0 else { return 0 }
        for index in 0..<count {
            let base = events + index * Self.eventSize
            let flags = base.loadUnaligned(as: UInt32.self)
            let token = base.loadUnaligned(fromByteOffset: Self.dataOffset, as: UInt64.self)
            body(Ready(
                token: token, readable: flags & Self.readableFlag != 0, writable: flags & Self.writableFlag != 0,
                failed: flags & (Self.errorFlag | Self.hangupFlag) != 0
            ))
        }
        return count
    }

    /// Sleeps until `time` (a `LoadClock` reading), counted as blocked like a wait: lets frames
    /// gather so that the next `wait` reads them all at once.
    func pause(until time: UInt64) {
        let start = LoadClock.now()
        guard time > start else { return }
        var request = timespec(tv_sec: Int(time / 1_000_000_000), tv_nsec: Int(time % 1_000_000_000))
        while clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &request, nil) == EINTR {}
        blockedNanoseconds += LoadClock.now() - start
    }

    private func control(_ operation: Int32, fd: Int32, token: UInt64, writable: Bool) throws(LoadError) {
        var event = [UInt8](repeating: 0, count: Self.eventSize)
        let result = event.withUnsafeMutableBytes { bytes in
            bytes.storeBytes(of: Self.readableFlag | (writable ? Self.writableFlag : 0), toByteOffset: 0, as: UInt32.self)
            bytes.storeBytes(of: token, toByteOffset: Self.dataOffset, as: UInt64.self)
            return calls.epollCtl(epoll, operation, fd, bytes.baseAddress)
        }
        guard result == 0 else { throw .system(call: "epoll_ctl", code: errno) }
    }

    // MARK: - The C interface

    // <sys/epoll.h> and <sys/timerfd.h> values (the same on every Linux architecture).
    private static let add: Int32 = 1, delete: Int32 = 2, modify: Int32 = 3
    private static let readableFlag: UInt32 = 0x001, writableFlag: UInt32 = 0x004
    private static let errorFlag: UInt32 = 0x008, hangupFlag: UInt32 = 0x010
    private static let cloexec: Int32 = 0o2000000, nonblock: Int32 = 0o4000
    private static let absoluteTime: Int32 = 1, monotonicClock: Int32 = 1

    // `struct epoll_event` is packed on x86-64 (12 bytes, data at 4) and naturally aligned
    // elsewhere (16 bytes, data at 8).
    #if arch(x86_64)
    private static let eventSize = 12, dataOffset = 4
    #else
    private static let eventSize = 16, dataOffset = 8
    #endif

    /// The C library's epoll and timerfd functions.
    private struct Calls {
        let epollCreate1: @convention(c) (Int32) -> Int32
        let epollCtl: @convention(c) (Int32, Int32, Int32, UnsafeMutableRawPointer?) -> Int32
        let epollWait: @convention(c) (Int32, UnsafeMutableRawPointer?, Int32, Int32) -> Int32
        let timerfdCreate: @convention(c) (Int32, Int32) -> Int32
        let timerfdSettime: @convention(c) (Int32, Int32, UnsafeRawPointer?, UnsafeMutableRawPointer?) -> Int32

        init() throws(LoadError) {
            #if !os(Linux)
            throw .system(call: "epoll_create1 (stackcast load needs Linux)", code: ENOSYS)
            #endif
            epollCreate1 = try Self.function("epoll_create1")
            epollCtl = try Self.function("epoll_ctl")
            epollWait = try Self.function("epoll_wait")
            timerfdCreate = try Self.function("timerfd_create")
            timerfdSettime = try Self.function("timerfd_settime")
        }

        private static func function<F>(_ name: String) throws(LoadError) -> F {
            // A null handle is RTLD_DEFAULT: the libraries the process already loaded.
            guard let symbol = dlsym(nil, name) else { throw .system(call: "dlsym(\(name))", code: ENOSYS) }
            return unsafeBitCast(symbol, to: F.self)
        }
    }
}

#if !os(Linux)
/// `<sys/timerfd.h>`'s timer setting, which Darwin does not have; `EventLoop.Calls` throws there
/// before one is made.
private struct itimerspec {
    var it_interval = timespec()
    var it_value = timespec()
}
#endif
