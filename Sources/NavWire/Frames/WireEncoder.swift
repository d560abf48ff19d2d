import NavKit

/// The frames one viewer gets in one wire format, for code that serves a single viewer (tests,
/// benchmarks, tools): it remembers the frame the viewer holds and, for binary, the tables.
///
/// The server does not use it: it shares each encoded frame among the viewers of a session that
/// hold the same base (`FrameEncoder`, `TreeEncoder` and `BinaryTreeEncoder` directly).
///
/// A binary frame notes on the `WireFrame` how far the tables that encoded it first had grown, so
/// a `WireFrame` goes to one binary `WireEncoder` only (several v1 and JSON ones may share it).
public struct WireEncoder {
    public let format: WireFormat
    /// The viewer asked for binary layer templates (feature `templates`).
    public let templates: Bool
    /// The frame the viewer holds, nil before the first.
    public private(set) var base: WireFrame?
    private var tables = BinaryTables()

    public init(_ format: WireFormat, templates: Bool = false) {
        self.format = format
        self.templates = templates
    }

    /// The seq of the frame the viewer holds (the next delta's `base`).
    public var baseSeq: Int? { base?.seq }

    /// Notes the tables' storage in `footprint`: encoding looks strings and templates up in them.
    ///
    /// Mutating only so that an owner that is a class passes it in place: a copy, to call a
    /// method on, retains and releases all it holds.
    public mutating func addFootprint(to footprint: inout MemoryFootprint) {
        tables.addFootprint(to: &footprint)
    }

    /// The forms of the picture this format needs.
    public var kinds: ScenePicture.Kinds { format.usesLayerTree ? .tree : .list }

    /// The frame taking the viewer to `frame` (which it then holds); nil when it already shows it.
    public mutating func encode(_ frame: WireFrame) -> [UInt8]? {
        guard let bytes = WireEncoder.encode(frame, from: base, as: format, templates: templates, tables: &tables) else { return nil }
        base = frame
        return bytes
    }

    /// Encodes `picture` as frame `seq` at session time `time`.
    public mutating func encode(_ picture: ScenePicture, seq: Int, time: Double) -> [UInt8]? {
        encode(WireFrame(seq: seq, time: time, picture: picture))
    }

    /// Encodes a display list (v1) as frame `seq`.
    public mutating func encode(_ list: DisplayList, seq: Int, time: Double) -> [UInt8]? {
        encode(ScenePicture(list: list), seq: seq, time: time)
    }

    /// Encodes a layer tree (v2) as frame `seq`.
    public mutating func encode(_ tree: LayerTree, seq: Int, time: Double) -> [UInt8]? {
        encode(ScenePicture(tree: tree), seq: seq, time: time)
    }

    /// Takes `frame` as what the viewer already has (a resumed viewer).
    public mutating func assume(_ frame: WireFrame) {
        base = frame
    }

    /// One frame in `format` (binary with layer templates when `templates`): the one place that
    /// picks the encoder for a format.
    /// With `echoes`, a v2 frame also carries its input number and pointer bindings (feature
    /// `timelines`). With `continuesTimeline`, a v2 frame follows `base` in a timeline message
    /// (§3.7): it leaves out the seq and base that implies, and is never nil.
    public static func encode(
        _ frame: WireFrame, from base: WireFrame?, as format: WireFormat, templates: Bool = false, echoes: Bool = false,
        continuesTimeline: Bool = false, tables: inout BinaryTables
    ) -> [UInt8]? {
        switch format {
        case .v1:
            precondition(!continuesTimeline, "v1 has no timelines")
            return FrameEncoder.encode(frame, from: base)
        case .v2JSON:
            return TreeEncoder.encode(frame, from: base, echoes: echoes, continuesTimeline: continuesTimeline)
        case .v2Binary:
            return BinaryTreeEncoder.encode(
                frame, from: base, tables: &tables, templates: templates, echoes: echoes, continuesTimeline: continuesTimeline)
        }
    }
}
