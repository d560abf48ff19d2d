/// Where flattening a node tree puts the items it draws, in paint order.
protocol DisplayItemSink {
    mutating func append(_ item: DisplayItem)
}

extension Array: DisplayItemSink where Element == DisplayItem {}

/// Takes a display list's items one by one, rounds each to a precision and packs it: the list
/// is never held whole. An item with a number too large to pack turns the list whole.
struct DisplayItemPacker: DisplayItemSink {
    let precision: LayerPrecision
    private var packed: [PackedDisplayItem] = []
    private var whole: [DisplayItem]?

    init(precision: LayerPrecision, capacity: Int) {
        self.precision = precision
        packed.reserveCapacity(capacity)
    }

    mutating func append(_ item: DisplayItem) {
        var item = item
        item.roundStyle(to: precision)
        if whole == nil, let small = PackedDisplayItem(item, at: precision) {
            packed.append(small)
            return
        }
        if whole == nil {
            whole = packed.map { $0.unpacked(at: precision) }
            packed = []
        }
        item.round(to: precision)
        whole?.append(item)
    }

    /// The list: packed, unless an item could not be. The packed items are copied into an array
    /// of their own size when the reserved one has much room to spare, as the list may be kept
    /// for as long as a session lives.
    func list(viewport: Size) -> DisplayList {
        guard whole == nil else { return DisplayList(packed: [], at: precision, orWhole: whole, viewport: viewport) }
        let spare = packed.capacity > packed.count + packed.count / 8 + 4
        let items = spare ? packed.withUnsafeBufferPointer { Array($0) } : packed
        return DisplayList(packed: items, at: precision, orWhole: nil, viewport: viewport)
    }
}
