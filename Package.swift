// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "Stackcast",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "NavKit", targets: ["NavKit"]),
        .library(name: "NavWire", targets: ["NavWire"]),
        .executable(name: "stackcast", targets: ["stackcast"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
    ],
    targets: [
        // The engine: pure, deterministic, no I/O, no threads, no wall clock.
        .target(name: "NavKit"),
        // Protocol v1: JSON, message decoding with precise errors, frame diffs.
        .target(name: "NavWire", dependencies: ["NavKit"]),
        // A small blocking WebSocket client over raw sockets, for benchmarks and tests.
        .target(name: "NavClient"),
        // The built-in apps a viewer can ask for by name.
        .target(name: "NavApps", dependencies: ["NavKit"]),
        // libwebsockets as a system library, with a header shim for macros Swift cannot import.
        .systemLibrary(
            name: "CWebSockets",
            pkgConfig: "libwebsockets",
            providers: [.apt(["libwebsockets-dev", "libssl-dev"])]
        ),
        // The server: one libwebsockets loop, static files and the WebSocket endpoint on one port.
        .target(
            name: "NavServer",
            dependencies: [
                "NavKit", "NavWire", "NavApps", "CWebSockets",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .executableTarget(
            name: "stackcast",
            dependencies: [
                "NavKit", "NavWire", "NavApps", "NavServer", "NavClient",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(name: "NavKitTests", dependencies: ["NavKit", "NavApps"]),
        .testTarget(name: "NavWireTests", dependencies: ["NavWire", "NavKit"]),
        .testTarget(name: "NavServerTests", dependencies: ["NavServer", "NavClient", "NavWire", "NavKit", "NavApps"]),
    ]
)
