import NavKit

/// Appends the primitives of the v2 binary encoding (docs/protocol.md §3.6): LEB128 varints,
/// zig-zag signed varints, fixed-point hundredths and RGBA colours.
struct BinaryWriter {
    var bytes: [UInt8] = []

    init(capacity: Int = 64) {
        bytes.reserveCapacity(capacity)
    }

    mutating func byte(_ value: UInt8) {
        bytes.append(value)
    }

    /// Unsigned LEB128: 7 bits per byte, low bits first, the high bit on every byte but the last.
    /// Inlined for the one-byte case (most ids, counts and masks of a delta), which was a call.
    @inline(__always) mutating func varint(_ value: UInt64) {
        if value < 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: value))
        } else {
            longVarint(value)
        }
    }

    @inline(never) private mutating func longVarint(_ value: UInt64) {
        var value = value
        while value >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: value) | 0x80)
            value >>= 7
        }
        bytes.append(UInt8(value))
    }

    mutating func varint(_ value: Int) {
        varint(UInt64(max(0, value)))
    }

    /// Zig-zag: 0, -1, 1, -2 … as 0, 1, 2, 3 …, so small negatives stay short.
    mutating func zigzag(_ value: Int64) {
        varint(Self.zigzag(value))
    }

    /// The zig-zag form of `value`, for a caller that packs a flag beside it.
    static func zigzag(_ value: Int64) -> UInt64 {
        UInt64(bitPattern: (value << 1) ^ (value >> 63))
    }

    /// A length or coordinate in hundredths of a point (the value is already at wire precision).
    mutating func hundredths(_ value: Double) {
        zigzag(Int64((value * 100).rounded()))
    }

    mutating func color(_ color: Color) {
        bytes.append(color.red)
        bytes.append(color.green)
        bytes.append(color.blue)
        bytes.append(color.alpha)
    }

    mutating func string(_ string: String) {
        varint(string.utf8.count)
        bytes.append(contentsOf: string.utf8)
    }

    mutating func append(_ other: BinaryWriter) {
        bytes.append(contentsOf: other.bytes)
    }
}
