import Foundation
import NavServer

// `swift run PlayerApp [PORT]` in this folder serves the player app, and the repository's viewer,
// at http://127.0.0.1:PORT/ (8080 by default; 0 picks a free port).
let port = CommandLine.arguments.dropFirst().first.flatMap(Int.init) ?? 8080
let web = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../../../Web").standardizedFileURL.path

let server = try StackcastServer(
    configuration: ServerConfiguration(transport: WebSocketServerConfiguration(port: port, webRoot: web)),
    apps: [PlayerApp()]
)
try server.run()
