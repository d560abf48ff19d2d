import Foundation

/// Runs command-line tools from tests (openssl, curl, python3), each bounded by `timeout`.
enum TestProcess {
    struct Output {
        let status: Int32
        let standardOutput: String
        let standardError: String
    }

    /// Runs `command` with `arguments` (found on PATH) under coreutils' `timeout`, waits for it,
    /// and returns its exit status and output. Status 124 means it was killed by the timeout.
    static func run(_ command: String, _ arguments: [String], timeout: Int = 30) throws -> Output {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["timeout", String(timeout), command] + arguments
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        // Read before waiting, so a chatty process cannot block on a full pipe.
        let outData = output.fileHandleForReading.readDataToEndOfFile()
        let errData = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Output(
            status: process.terminationStatus,
            standardOutput: String(decoding: outData, as: UTF8.self),
            standardError: String(decoding: errData, as: UTF8.self))
    }
}
