/// Where the JSON frame encoders write a node's fields (`JSONWriter.appendStyle` and the v1 and v2
/// field writers): each field is a key, then its value written into `bytes`. One field writer
/// serves both layouts a frame uses: a node's fields inside its object (`ObjectFields`), and a v2
/// delta's patches grouped by field (`ColumnFields`).
protocol JSONFieldSink {
    var bytes: [UInt8] { get set }
    /// Starts field `key`; its value follows in `bytes`.
    mutating func key(_ key: String)
}

/// Fields inside a JSON object: `,"key":value` each, after the object's `{"id":N`.
struct ObjectFields: JSONFieldSink {
    var bytes: [UInt8]

    mutating func key(_ key: String) {
        bytes.append(UInt8(ascii: ","))
        bytes.append(UInt8(ascii: "\""))
        bytes.append(contentsOf: key.utf8)
        bytes.append(contentsOf: "\":".utf8)
    }

    /// Runs `body` with fields that go straight onto the end of `out` (the buffer is moved in and
    /// back out, not copied).
    static func appending(to out: inout [UInt8], _ body: (inout ObjectFields) -> Void) {
        var fields = ObjectFields(bytes: [])
        swap(&fields.bytes, &out)
        body(&fields)
        swap(&fields.bytes, &out)
    }
}

/// One node's fields as values alone, with where each starts: for a v2 JSON delta's `set`, which
/// lists the patches by field (`TreeEncoder`).
struct ColumnFields: JSONFieldSink {
    var bytes: [UInt8] = []
    /// Each field's key and where its value starts in `bytes` (it ends where the next starts).
    private(set) var starts: [(key: String, at: Int)] = []

    mutating func key(_ key: String) {
        starts.append((key, bytes.count))
    }

    /// The fields written, in order, each with its value's bytes.
    var fields: some Sequence<(key: String, value: ArraySlice<UInt8>)> {
        starts.indices.lazy.map { index in
            let end = index + 1 < starts.count ? starts[index + 1].at : bytes.count
            return (starts[index].key, bytes[starts[index].at..<end])
        }
    }

    /// Empties it for the next node, keeping its memory.
    mutating func removeAll() {
        bytes.removeAll(keepingCapacity: true)
        starts.removeAll(keepingCapacity: true)
    }
}
