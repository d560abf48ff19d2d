import Testing
@testable import NavWire

/// A session's string table names each string by the order it first came in, finds it again
/// however many strings share its first slot, and starts from 0 after `removeAll`.
@Suite struct StringTableTests {
    @Test func indicesFollowFirstUseAndRepeatsFindTheSameIndex() {
        var table = StringTable()
        #expect(table.index(of: "row") == 0)
        #expect(table.index(of: "Library") == 1)
        #expect(table.index(of: "row") == 0)
        #expect(table.index(of: "") == 2)
        #expect(table.index(of: "A title long enough to live on the heap, not inline") == 3)
        #expect(table.index(of: "A title long enough to live on the heap, not inline") == 3)
        #expect(table.strings == ["row", "Library", "", "A title long enough to live on the heap, not inline"])
    }

    @Test func thousandsOfStringsGrowTheIndexAndEachKeepsItsIndex() {
        var table = StringTable()
        let strings = (0..<5000).map { "string \($0)" }
        for (expected, string) in strings.enumerated() { #expect(table.index(of: string) == expected) }
        for (expected, string) in strings.enumerated().reversed() { #expect(table.index(of: string) == expected) }
        #expect(table.count == 5000)
        #expect(table.strings == strings)
    }

    @Test func removeAllStartsAgainFromZero() {
        var table = StringTable()
        _ = table.index(of: "a")
        _ = table.index(of: "b")
        table.removeAll()
        #expect(table.count == 0)
        #expect(table.index(of: "b") == 0)
        #expect(table.index(of: "a") == 1)
    }
}
