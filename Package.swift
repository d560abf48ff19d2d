// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "Stackcast",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "NavKit", targets: ["NavKit"]),
        .library(name: "NavWire", targets: ["NavWire"]),
        .library(name: "NavServer", targets: ["NavServer"]),
        .executable(name: "stackcast", targets: ["stackcast"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
        // YAML flow files (NavFlows); libyaml compiled in, about 20 s of a clean build.
        .package(url: "https://github.com/jpsim/Yams", from: "5.0.1"),
    ],
    targets: [
        // The CPU's prefetch hint, which Swift cannot spell (`MemoryFootprint`).
        .target(name: "CPrefetch"),
        // The engine: pure, deterministic, no I/O, no threads, no wall clock.
        // libm is named here: a consumer package links NavKit's rounding (rint, floor, ceil, trunc)
        // whether or not its own code imports Foundation.
        .target(name: "NavKit", dependencies: ["CPrefetch"], linkerSettings: [.linkedLibrary("m", .when(platforms: [.linux]))]),
        // Protocol v1: JSON, message decoding with precise errors, frame diffs.
        .target(name: "NavWire", dependencies: ["NavKit"]),
        // A small blocking WebSocket client over raw sockets, for benchmarks and tests.
        .target(name: "NavClient"),
        // The built-in apps a viewer can ask for by name.
        .target(name: "NavApps", dependencies: ["NavKit"]),
        // Flow tests: flow files (JSON or YAML) run headless on the scene's virtual clock.
        .target(
            name: "NavFlows",
            dependencies: ["NavKit", "NavWire", "NavApps", .product(name: "Yams", package: "Yams")]
        ),
        // libwebsockets as a system library, with a header shim for macros Swift cannot import.
        .systemLibrary(
            name: "CWebSockets",
            pkgConfig: "libwebsockets",
            providers: [.apt(["libwebsockets-dev", "libssl-dev"])]
        ),
        // hiredis, Redis's C client, as a system library: the session store in Redis (`serve --state`).
        .systemLibrary(name: "CHiredis", providers: [.apt(["libhiredis-dev"])]),
        // The server: one libwebsockets loop, static files and the WebSocket endpoint on one port.
        .target(
            name: "NavServer",
            dependencies: [
                "NavKit", "NavWire", "NavApps", "CWebSockets", "CHiredis",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .executableTarget(
            name: "stackcast",
            dependencies: [
                "NavKit", "NavWire", "NavApps", "NavServer", "NavClient", "NavFlows",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(name: "NavKitTests", dependencies: ["NavKit", "NavApps"]),
        .testTarget(name: "NavWireTests", dependencies: ["NavWire", "NavKit"]),
        .testTarget(name: "NavFlowsTests", dependencies: ["NavFlows", "NavKit", "NavWire"]),
        .testTarget(name: "NavServerTests", dependencies: ["NavServer", "NavClient", "NavWire", "NavKit", "NavApps"]),
    ]
)
