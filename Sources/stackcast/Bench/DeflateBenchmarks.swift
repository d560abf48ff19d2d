import Dispatch
import NavApps
import NavKit
import NavServer
import NavWire

/// What permessage-deflate costs and saves per frame: the phone app's full frame and the deltas
/// of slide pushes and pops, in each wire format, compressed with zlib exactly as libwebsockets
/// does on this server (level 1, 2^15 window, memLevel 8, one stream per connection kept across
/// messages). No sockets: only the compression work, and the client's inflating for comparison.
struct DeflateBenchmarks {
    let rounds: Int
    private let step = 1.0 / 60

    func run(into report: inout BenchReport) {
        report.add("deflate.stream_setup_us", Stats((0..<max(rounds, 10)).map { _ in
            measureNanoseconds { _ = PermessageDeflate.Deflater() } / 1000
        }).median, "µs")
        for format in [WireFormat.v1, .v2JSON, .v2Binary] {
            let (full, deltas) = frames(format)
            let name = format.rawValue
            // The full frame: the first message of a fresh stream, as on a new connection.
            var compressedFull = 0
            let fullTimes = (0..<rounds).map { _ in
                let deflater = PermessageDeflate.Deflater()
                return measureNanoseconds { compressedFull = deflater.compress(full).count } / 1000
            }
            report.add("deflate.\(name)_full_frame_bytes", Double(full.count), "B")
            report.add("deflate.\(name)_full_frame_compressed_bytes", Double(compressedFull), "B")
            report.add("deflate.\(name)_full_frame_ratio", Double(full.count) / Double(compressedFull), "×")
            report.add("deflate.\(name)_full_frame_us", Stats(fullTimes).median, "µs")

            // The deltas, one stream through all of them (context takeover), as on one connection.
            var deltaTimes: [Double] = []
            var inflateTimes: [Double] = []
            var compressedSizes: [Double] = []
            for _ in 0..<max(rounds / 20, 3) {
                let deflater = PermessageDeflate.Deflater()
                let inflater = PermessageDeflate.Inflater()
                _ = inflater.decompress(deflater.compress(full))
                for delta in deltas {
                    var compressed: [UInt8] = []
                    deltaTimes.append(measureNanoseconds { compressed = deflater.compress(delta) } / 1000)
                    inflateTimes.append(measureNanoseconds { _ = inflater.decompress(compressed) } / 1000)
                    compressedSizes.append(Double(compressed.count))
                }
            }
            let original = deltas.map { Double($0.count) }
            let totalIn = original.reduce(0, +) * Double(max(rounds / 20, 3))
            report.add("deflate.\(name)_delta_bytes_median", Stats(original).median, "B")
            report.add("deflate.\(name)_delta_compressed_bytes_median", Stats(compressedSizes).median, "B")
            report.add("deflate.\(name)_delta_ratio", totalIn / compressedSizes.reduce(0, +), "×")
            report.add("deflate.\(name)_delta_us_median", Stats(deltaTimes).median, "µs")
            report.add("deflate.\(name)_delta_us_p99", Stats(deltaTimes).p99, "µs")
            report.add("deflate.\(name)_delta_inflate_us_median", Stats(inflateTimes).median, "µs")
        }
    }

    /// The phone app's full frame, then every delta of ten slide pushes and pops at 60 fps.
    private func frames(_ format: WireFormat) -> (full: [UInt8], deltas: [[UInt8]]) {
        let scene = Scene(viewport: BuiltInApps.defaultViewport(for: "phone"))
        // A built-in app: valid by construction.
        scene.setRoot(try! BuiltInApps.root(named: "phone")!.makeController(scene))
        var encoder = WireEncoder(format)
        var now = 0.0
        var seq = 1
        let full = encoder.encode(scene.currentPicture(kinds: encoder.kinds), seq: seq, time: now) ?? []
        let detail = ScreenSpec(name: "Detail", rows: [RowSpec(title: "One"), RowSpec(title: "Two", detail: "2")])
        var deltas: [[UInt8]] = []
        for round in 0..<10 {
            scene.handle(round % 2 == 0 ? .push(detail) : .pop()) { _ in }
            while scene.needsTick {
                now += step
                guard let picture = scene.picture(now: now, kinds: encoder.kinds) else { continue }
                seq += 1
                if let delta = encoder.encode(picture, seq: seq, time: now) { deltas.append(delta) }
            }
        }
        return (full, deltas)
    }
}
