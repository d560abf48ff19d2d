import NavKit

/// A display list at wire precision, indexed by id: the form v1 deltas are diffed from. Made once
/// per frame and shared by every viewer diffing against it.
public struct DisplayListSnapshot: Sendable {
    /// The items in paint order, rounded as frames carry them.
    public let items: [DisplayItem]
    /// Where each id is in `items`.
    let index: [Int: Int]

    public init(_ exact: consuming DisplayList) {
        var items = exact.items
        exact.items = []  // so the rounding below writes in place instead of copying
        var index: [Int: Int] = [:]
        index.reserveCapacity(items.count)
        for position in items.indices {
            items[position].round(to: .wire)
            index[items[position].id] = position
        }
        self.items = items
        self.index = index
    }
}
