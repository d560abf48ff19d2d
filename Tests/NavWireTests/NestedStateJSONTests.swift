import Testing
import NavKit
@testable import NavWire

/// A TAB of the STATE object names its stack's kind only when it is not the bar's own, and its
/// stack's id only when it is not the tab's, so the state of today's apps is unchanged.
@Suite struct NestedStateJSONTests {
    private func tabs(_ spec: RootSpec) throws -> [JSONValue] {
        let scene = Scene(viewport: .tablet)
        scene.setRoot(try spec.makeController(scene))
        return try #require(scene.state?.json["tabs"]?.arrayValue)
    }

    @Test func aTabNamesAStackOfAnotherKindAndAnIDOfItsOwn() throws {
        let bottom = try tabs(.tabs([
            TabSpec(id: "music", title: "Music", content: .container(SplitSpec(id: "music", root: ScreenSpec(name: "Artists")))),
            TabSpec(id: "me", title: "Me", content: .container(StackSpec(id: "profile", root: ScreenSpec(name: "Me")))),
            TabSpec(id: "more", title: "More", root: ScreenSpec(name: "More")),
        ]))
        #expect(bottom.map { $0["kind"]?.stringValue } == ["split", nil, nil])
        #expect(bottom.map { $0["stackId"]?.stringValue } == [nil, "profile", nil])
        #expect(bottom[0]["offset"] != nil, "a split's own fields come with it")
        let side = try tabs(.sideTabs([
            TabSpec(id: "library", title: "Library", root: ScreenSpec(name: "Library")),
            TabSpec(id: "settings", title: "Settings", content: .container(StackSpec(id: "settings", root: ScreenSpec(name: "Settings")))),
        ]))
        #expect(side.map { $0["kind"]?.stringValue } == [nil, "stack"])
        #expect(side.map { $0["stackId"]?.stringValue } == [nil, nil])
        #expect(side[1]["offset"] == nil)
    }
}
