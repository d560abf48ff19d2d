import Foundation
import NavClient
import Testing

@testable import NavServer

/// https and wss on one port through OpenSSL, with a self-signed certificate made per test.
@Suite struct TLSTests {
    /// A self-signed certificate for 127.0.0.1 / localhost in a temporary folder.
    final class Certificate {
        let folder: URL
        var certificatePath: String { folder.appendingPathComponent("cert.pem").path }
        var keyPath: String { folder.appendingPathComponent("key.pem").path }
        var webRoot: String { folder.appendingPathComponent("web").path }

        init() throws {
            folder = FileManager.default.temporaryDirectory.appendingPathComponent("tls-\(UUID().uuidString)")
            try FileManager.default.createDirectory(
                at: folder.appendingPathComponent("web"), withIntermediateDirectories: true)
            try "<h1>secure viewer</h1>".write(
                toFile: folder.appendingPathComponent("web/index.html").path, atomically: true, encoding: .utf8)
            let openssl = try TestProcess.run("openssl", [
                "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=localhost",
                "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1",
                "-keyout", keyPath, "-out", certificatePath,
            ])
            guard openssl.status == 0 else {
                throw ClientSocket.Failure(description: "openssl req failed: \(openssl.standardError)")
            }
        }

        deinit {
            try? FileManager.default.removeItem(at: folder)
        }
    }

    private func startServer(_ certificate: Certificate) throws -> TestServer {
        try TestServer {
            $0.tlsCertificatePath = certificate.certificatePath
            $0.tlsKeyPath = certificate.keyPath
            $0.webRoot = certificate.webRoot
        }
    }

    @Test func servesHTTPSOverHTTP1() throws {
        let certificate = try Certificate()
        let harness = try startServer(certificate)
        defer { harness.stop() }
        let curl = try TestProcess.run("curl", [
            "--silent", "--show-error", "--cacert", certificate.certificatePath,
            "--write-out", "\n%{http_code} %{http_version}", "https://127.0.0.1:\(harness.port)/",
        ])
        #expect(curl.status == 0, "\(curl.standardError)")
        // HTTP/1.1 although curl offers h2: ALPN is pinned so WebSockets always use the h1 upgrade.
        #expect(curl.standardOutput == "<h1>secure viewer</h1>\n200 1.1")
    }

    @Test(.enabled(if: PythonWebsockets.isInstalled, PythonWebsockets.reason))
    func exchangesMessagesOverWSS() throws {
        let certificate = try Certificate()
        let harness = try startServer(certificate)
        defer { harness.stop() }
        let script = """
            import asyncio, ssl, sys, websockets
            async def main():
                context = ssl.create_default_context(cafile=sys.argv[1])
                async with websockets.connect(sys.argv[2], ssl=context, subprotocols=["stackcast.v1"]) as ws:
                    await ws.send("over tls")
                    print(await asyncio.wait_for(ws.recv(), 10), ws.subprotocol)
            asyncio.run(main())
            """
        let python = try TestProcess.run("python3", [
            "-c", script, certificate.certificatePath, "wss://127.0.0.1:\(harness.port)/ws",
        ])
        #expect(python.status == 0, "\(python.standardError)")
        #expect(python.standardOutput == "over tls stackcast.v1\n")
        #expect(harness.delegate.record.withLock { $0.received } == ["over tls"])
    }

    @Test func refusesPlainTextOnTheTLSPort() throws {
        let certificate = try Certificate()
        let harness = try startServer(certificate)
        defer { harness.stop() }
        #expect(throws: (any Error).self) { _ = try WebSocketClient.connect(port: harness.port, timeout: 2) }
        #expect(harness.delegate.record.withLock { $0.opened }.isEmpty)
    }

    @Test func explainsAnUnusableCertificate() throws {
        let certificate = try Certificate()
        try "not a certificate".write(toFile: certificate.certificatePath, atomically: true, encoding: .utf8)
        #expect(
            throws: WebSocketServerError.tlsSetupFailed(
                certificatePath: certificate.certificatePath, keyPath: certificate.keyPath)
        ) {
            try startServer(certificate).stop()
        }
    }
}
