import NavKit

/// A display list at wire precision, indexed by id: the form v1 deltas are diffed from. Made once
/// per frame and shared by every viewer diffing against it.
public struct DisplayListSnapshot: Sendable {
    /// The items in paint order, rounded as frames carry them.
    public let items: [DisplayItem]
    /// The positions in `items`, in the order of their ids: ids are found by binary search. Four
    /// bytes an item where a dictionary took about 24, and every session keeps its latest list.
    private let positionsByID: [Int32]

    public init(_ exact: consuming DisplayList) {
        var items = exact.items
        exact.items = []  // so the rounding below writes in place instead of copying
        for position in items.indices { items[position].round(to: .wire) }
        var positions = items.indices.map { Int32($0) }
        // A scene numbers its nodes in the order it first draws them, so the order is mostly
        // already the ids' order.
        if !zip(items, items.dropFirst()).allSatisfy({ $0.id < $1.id }) {
            positions.sort { items[Int($0)].id < items[Int($1)].id }
        }
        self.items = items
        positionsByID = positions
    }

    /// Where the item with `id` is in `items`; nil when the list has none. `guess` (a position
    /// the item often has, such as its place in the other list of a diff) is checked first.
    func position(of id: Int, guess: Int? = nil) -> Int? {
        if let guess, guess >= 0, guess < items.count, items[guess].id == id { return guess }
        var low = 0
        var high = positionsByID.count
        while low < high {
            let middle = (low + high) / 2
            let position = Int(positionsByID[middle])
            let found = items[position].id
            if found == id { return position }
            if found < id { low = middle + 1 } else { high = middle }
        }
        return nil
    }

    /// True when the list has an item with `id`.
    func contains(_ id: Int, guess: Int? = nil) -> Bool {
        position(of: id, guess: guess) != nil
    }
}
