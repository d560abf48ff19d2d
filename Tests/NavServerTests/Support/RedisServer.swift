import Foundation
@testable import NavServer

/// A real `redis-server` (Debian's) on a free loopback port, for the Redis session store's tests;
/// killed when released. Nil where redis-server is not installed (`Scripts/setup --test` installs it).
final class RedisServer {
    static let binary = ["/usr/bin/redis-server", "/usr/local/bin/redis-server"].first { FileManager.default.isExecutableFile(atPath: $0) }
    static var isInstalled: Bool { binary != nil }

    let port: Int
    let directory = NSTemporaryDirectory() + "stackcast-redis-" + UUID().uuidString
    /// The password it asks for (`--requirepass`), if any.
    let password: String?
    private var process: Process?

    var address: RedisAddress { RedisAddress(host: "127.0.0.1", port: port, password: password) }

    /// Starts a server (asking for `password`, if given); throws when none answers within 10 s.
    init(password: String? = nil) throws {
        self.password = password
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        // A port found free may be taken before redis binds it: another is tried.
        var lastError: Error?
        for _ in 0..<3 {
            let candidate = Self.freePort()
            do {
                let started = try Self.start(port: candidate, directory: directory, password: password)
                port = candidate
                process = started
                return
            } catch {
                lastError = error
            }
        }
        throw lastError!
    }

    deinit {
        kill()
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// Kills the server at once (SIGKILL); what it held is gone unless `restart` finds it on disk.
    func kill() {
        guard let process, process.isRunning else { return }
        process.interrupt()
        Glibc.kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    /// Starts the server again on the same port and folder (its append-only file reloaded).
    func restart() throws {
        kill()
        process = try Self.start(port: port, directory: directory, password: password)
    }

    /// Runs one command on a connection of its own.
    func run(_ command: String...) throws -> RedisReply {
        try RedisConnection(to: address).run(command)
    }

    private static func start(port: Int, directory: String, password: String?) throws -> Process? {
        guard let binary else { return nil }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = [
            "--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "yes", "--appendfsync", "always",
            "--dir", directory, "--daemonize", "no", "--loglevel", "warning",
        ] + (password.map { ["--requirepass", $0] } ?? [])
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let address = RedisAddress(host: "127.0.0.1", port: port, password: password)
        let answers = waitUntil(timeout: 10) { (try? RedisConnection(to: address).run(["PING"])) == .status("PONG") }
        guard answers, process.isRunning else {
            process.terminate()
            throw RedisConnectionError("redis-server did not answer on port \(port)")
        }
        return process
    }

    private static func freePort() -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
        }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
