import NavKit

/// A display list at wire precision, indexed by id: the form v1 deltas are diffed from. Made once
/// per frame and shared by every viewer diffing against it.
///
/// Every v1 session keeps its latest list for as long as it lives, so the list is kept packed
/// (`DisplayList.pack(at:)`), as a server's scenes build it.
public struct DisplayListSnapshot: Sendable, Equatable {
    private let list: DisplayList
    /// The positions of the items, in the order of their ids: ids are found by binary search.
    /// Four bytes an item where a dictionary took about 24.
    private let positionsByID: [Int32]

    public init(_ list: consuming DisplayList) {
        var list = list
        list.pack(at: .wire)
        var positions = (0..<Int32(list.count)).map { $0 }
        // A scene numbers its nodes in the order it first draws them, so the order is mostly
        // already the ids' order.
        if list.count > 1, !(1..<list.count).allSatisfy({ list.id(at: $0 - 1) < list.id(at: $0) }) {
            positions.sort { list.id(at: Int($0)) < list.id(at: Int($1)) }
        }
        self.list = list
        positionsByID = positions
    }

    /// The number of items.
    public var count: Int { list.count }

    /// The items in paint order, rounded as frames carry them.
    public var items: [DisplayItem] { list.items }

    /// The item at `position` in paint order.
    public func item(at position: Int) -> DisplayItem { list.item(at: position) }

    /// The id of the item at `position` in paint order.
    public func id(at position: Int) -> Int { list.id(at: position) }

    /// True when the item at `position` is the same as `other`'s at `otherPosition`, id included.
    func holdsTheSame(at position: Int, as other: DisplayListSnapshot, at otherPosition: Int) -> Bool {
        list.holdsTheSame(at: position, as: other.list, at: otherPosition)
    }

    /// Where the item with `id` is in paint order; nil when the list has none. `guess` (a
    /// position the item often has, such as its place in the other list of a diff) is checked first.
    func position(of id: Int, guess: Int? = nil) -> Int? {
        if let guess, guess >= 0, guess < count, list.id(at: guess) == id { return guess }
        var low = 0
        var high = positionsByID.count
        while low < high {
            let middle = (low + high) / 2
            let position = Int(positionsByID[middle])
            let found = list.id(at: position)
            if found == id { return position }
            if found < id { low = middle + 1 } else { high = middle }
        }
        return nil
    }

    /// True when the list has an item with `id`.
    func contains(_ id: Int, guess: Int? = nil) -> Bool {
        position(of: id, guess: guess) != nil
    }

    /// True when both lists hold the same items in the same order.
    public static func == (lhs: DisplayListSnapshot, rhs: DisplayListSnapshot) -> Bool {
        lhs.list.count == rhs.list.count && (0..<lhs.count).allSatisfy { lhs.holdsTheSame(at: $0, as: rhs, at: $0) }
    }
}
