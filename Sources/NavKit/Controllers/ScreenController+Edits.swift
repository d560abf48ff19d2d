/// What changed a page's spec since it was made, kept so that a snapshot can name the spec as it
/// was made and the changes after it: a client's `update`, a row deleted by a swipe, a switch
/// flipped. Past `maxKeptEdits` only the fact that there were more is kept (the snapshot then
/// refuses the page), so a page updated forever holds a bounded record.
extension ScreenController {
    /// One change to the spec.
    public enum SpecEdit: Equatable, Sendable {
        case update(ScreenUpdate)
        case delete(RowPath)
        case toggle(RowPath, on: Bool)
    }

    /// The most changes a page keeps a record of.
    public static let maxKeptEdits = 32

    /// Notes `edit`, made to the spec just now; the spec it was made with is kept at the first.
    func record(_ edit: SpecEdit, madeFrom before: ScreenSpec) {
        if specEdits.isEmpty && !editsOverflowed { madeSpec = before }
        guard !editsOverflowed else { return }
        // A switch flipped again where nothing else changed since is one change.
        if case .toggle(let path, _) = edit, case .toggle(let last, _)? = specEdits.last, last == path {
            specEdits[specEdits.count - 1] = edit
            return
        }
        guard specEdits.count < Self.maxKeptEdits else {
            specEdits = []
            editsOverflowed = true
            return
        }
        specEdits.append(edit)
    }

    /// Makes `edit` again on a page whose view is not loaded: the spec (and a title) change and
    /// the edit is noted, as when it was first made.
    ///
    /// - Throws: `doesNotFit` when the edit names a row the spec does not have.
    func replay(_ edit: SpecEdit) throws(SceneSnapshotError) {
        let before = spec
        let counts = spec.sections.map(\.rows.count)
        switch edit {
        case .update(let update):
            do { try update.check(rowCounts: counts) } catch { throw .doesNotFit("an update of \(id) does not fit its rows: \(error.message)") }
            keptCost = keptCost + ContentCost.kept(in: update.insertedRows)
            apply(update, animated: false) {}
            return
        case .delete(let path):
            guard counts.element(at: path.section).map({ path.row >= 0 && path.row < $0 }) == true else { throw .doesNotFit("\(id) has no row \(path) to delete") }
            editSections { $0[path.section].rows.remove(at: path.row) }
        case .toggle(let path, let on):
            guard counts.element(at: path.section).map({ path.row >= 0 && path.row < $0 }) == true else { throw .doesNotFit("\(id) has no row \(path) to flip") }
            editSections { $0[path.section].rows[path.row].isOn = on }
        }
        record(edit, madeFrom: before)
    }
}
