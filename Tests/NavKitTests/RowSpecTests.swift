import Testing
import NavKit

/// A row's action lives out of line (`RowSpec.action`) but reads, compares and copies as a plain
/// value: a copy changed later does not change the row it came from.
@Suite struct RowSpecTests {
    @Test func anActionReadsBackAndComparesByValue() {
        let push = Command.push(ScreenSpec(name: "Detail"))
        let row = RowSpec(title: "Open", action: push)
        #expect(row.action == push)
        #expect(row == RowSpec(title: "Open", action: .push(ScreenSpec(name: "Detail"))))
        #expect(row != RowSpec(title: "Open", action: .push(ScreenSpec(name: "Other"))))
        #expect(row != RowSpec(title: "Open"))
        #expect(RowSpec(title: "Open").action == nil)
        #expect(row != RowSpec(title: "Open", detail: "more", action: push))
    }

    @Test func aCopyThatChangesItsActionLeavesTheOriginal() {
        let original = RowSpec(title: "Open", action: .pop())
        var copy = original
        copy.action = .popToRoot()
        #expect(original.action == .pop())
        #expect(copy.action == .popToRoot())
        copy.action = nil
        #expect(copy.action == nil && original.action == .pop())
    }
}
