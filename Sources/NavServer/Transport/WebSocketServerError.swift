import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Why `WebSocketServer.start()` could not start. The description is a sentence meant for the
/// person who started the server.
public enum WebSocketServerError: Error, Equatable, CustomStringConvertible, LocalizedError {
    /// A setting is out of range (`name` is the configuration property).
    case invalidSetting(name: String, reason: String)
    /// Only one of `tlsCertificatePath` / `tlsKeyPath` was given.
    case tlsPathsIncomplete
    /// A file the server needs (`role` says which) cannot be read.
    case fileUnreadable(role: String, path: String)
    /// libwebsockets / OpenSSL rejected the certificate or key (not PEM, or they do not match).
    case tlsSetupFailed(certificatePath: String, keyPath: String)
    /// The web root is not an absolute path to an existing folder.
    case webRootMissing(path: String)
    /// Another process already listens on the port.
    case portInUse(host: String, port: Int)
    /// The listening socket could not be created for another reason (address not local, …).
    case cannotListen(host: String, port: Int, reason: String)
    /// `start()` was called on a server that has already been started.
    case alreadyStarted
    /// The system gave no timer for the frame clock, or libwebsockets could not watch it.
    case timerUnavailable

    public var description: String {
        switch self {
        case .invalidSetting(let name, let reason):
            return "invalid server setting \(name): \(reason)"
        case .tlsPathsIncomplete:
            return "TLS needs both a certificate path and a key path, or neither"
        case .fileUnreadable(let role, let path):
            return "cannot read the \(role) at \(path)"
        case .tlsSetupFailed(let certificatePath, let keyPath):
            return "TLS setup failed: the certificate \(certificatePath) or the key \(keyPath) "
                + "is not valid PEM, or they do not belong together"
        case .webRootMissing(let path):
            return "the web root \(path) is not an absolute path to an existing folder"
        case .portInUse(let host, let port):
            return "port \(port) on \(host) is already in use (is another server running?)"
        case .cannotListen(let host, let port, let reason):
            return "cannot listen on \(host) port \(port): \(reason)"
        case .alreadyStarted:
            return "the server has already been started; create a new WebSocketServer to start again"
        case .timerUnavailable:
            return "cannot make the timer that paces frames (is the process out of file descriptors?)"
        }
    }

    public var errorDescription: String? { description }
}

extension WebSocketServerError {
    /// Why the server could not listen on `address` and `port`, found by trying the same bind;
    /// nil when the bind works.
    static func listenProblem(_ address: ListenAddress, port: Int) -> WebSocketServerError? {
        switch address.bindError(port: port) {
        case 0: return nil
        case EADDRINUSE: return .portInUse(host: address.host, port: port)
        case let error: return .cannotListen(host: address.host, port: port, reason: String(cString: strerror(error)))
        }
    }

    /// `lws_create_context` returned NULL, which it does for any failure. The listen address was
    /// checked just before, so unless the port was taken in between, with TLS the certificate or
    /// key is to blame.
    static func diagnoseFailedStart(_ configuration: WebSocketServerConfiguration) -> WebSocketServerError {
        if let address = ListenAddress(configuration.host),
            let problem = listenProblem(address, port: configuration.port)
        {
            return problem
        }
        if let certificate = configuration.tlsCertificatePath, let key = configuration.tlsKeyPath {
            return .tlsSetupFailed(certificatePath: certificate, keyPath: key)
        }
        return .cannotListen(
            host: configuration.host, port: configuration.port, reason: "libwebsockets could not start (see its log)")
    }
}
