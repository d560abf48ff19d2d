import Testing

/// Whether `python3` can import the `websockets` package, which a few tests connect with as
/// Python clients and browsers do (permessage-deflate offered, TLS). `Scripts/setup --test` and
/// `Scripts/test` install it; a bare `swift test` on a machine without it skips those tests.
enum PythonWebsockets {
    static let isInstalled = (try? TestProcess.run("python3", ["-c", "import websockets"]))?.status == 0
    static let reason: Comment = "python3 cannot import websockets (Scripts/setup --test installs it)"
}
