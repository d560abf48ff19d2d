/// The time of one read that misses every cache on this machine: what a cold session's frame
/// waits for, read after read, when each address comes from the read before.
///
/// A chase through a random cycle of cache lines spread over far more memory than any cache
/// holds, allocated from the heap as a session's memory is: each read's address is the value of
/// the one before, so no two overlap and no prefetcher can guess the next.
enum MemoryLatency {
    /// The median over `samples` chases of the nanoseconds per read.
    static func nanosecondsPerRead(megabytes: Int = 64, reads: Int = 1 << 20, samples: Int = 5) -> Double {
        let intsPerLine = lineBytes / MemoryLayout<Int>.stride
        let lines = (megabytes << 20) / lineBytes
        // Sattolo's shuffle: one cycle through every line, so a chase never settles in a small loop.
        var order = Array(0..<lines)
        var random = SystemRandomNumberGenerator()
        for index in stride(from: lines - 1, to: 0, by: -1) {
            order.swapAt(index, Int.random(in: 0..<index, using: &random))
        }
        var next = [Int](repeating: 0, count: lines * intsPerLine)
        for position in 0..<lines {
            next[order[position] * intsPerLine] = order[(position + 1) % lines] * intsPerLine
        }
        var times: [Double] = []
        var at = 0
        next.withUnsafeBufferPointer { next in
            for _ in 0..<samples {
                times.append(measureNanoseconds { for _ in 0..<reads { at = next[at] } } / Double(reads))
            }
        }
        // Kept, so that the chase is not optimized away.
        precondition(at >= 0)
        return Stats(times).median
    }

    /// Bytes per cache line on the CPUs a server runs on: one read per line.
    private static let lineBytes = 64
}
