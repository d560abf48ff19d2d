extension Array {
    /// The element at `index`, or nil when there is none.
    func element(at index: Int) -> Element? {
        indices.contains(index) ? self[index] : nil
    }
}
