// swift-tools-version:6.0
import Foundation
import PackageDescription

// Stackcast is this repository, two folders up. A path dependency's package is named after its
// folder, which is whatever the checkout was cloned into: read it rather than guess it.
let stackcast = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().lastPathComponent

let package = Package(
    name: "PlayerApp",
    platforms: [.macOS(.v15)],
    dependencies: [.package(path: "../..")],
    targets: [
        .executableTarget(
            name: "PlayerApp",
            dependencies: [
                .product(name: "NavKit", package: stackcast),
                .product(name: "NavServer", package: stackcast),
            ]
        )
    ]
)
