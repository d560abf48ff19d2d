import NavKit
import Testing

@testable import NavWire

/// Which layers an insert may be written like (docs/protocol.md §3.6): the newest the client holds
/// with the insert's kind, role and name, and the newest with its kind and role; this frame's
/// inserts are newer than the base frame's layers. The choice only changes how many bytes an
/// insert takes, so it is pinned here rather than left to the size benchmarks.
@Suite struct InsertModelsTests {
    static func text(_ id: Int, _ name: String, parent: Int? = 1) -> Layer {
        Layer(parent: parent, item: DisplayItem(id: id, kind: .text, frame: .zero, text: name, name: name))
    }

    static func row(_ id: Int, _ name: String) -> Layer {
        Layer(parent: 1, item: DisplayItem(id: id, kind: .rect, frame: .zero, role: .row, name: name))
    }

    /// The base frame: a root, then texts and rows; the client holds all but layer 5.
    static var old: LayerTreeSnapshot {
        LayerTreeSnapshot(LayerTree(
        layers: [
            Layer(item: DisplayItem(id: 1, kind: .rect, frame: .zero)), text(2, "title"), text(3, "detail"), row(4, "One"),
            text(5, "title"), row(6, "Two"),
        ],
        viewport: Size(width: 390, height: 844)))
    }
    static let held = [true, true, true, true, false, true]

    @Test func theNewestHeldWithTheNameAndTheNewestOfItsKind() {
        let models = InsertModels(old: Self.old, held: Self.held)
        // Newest first: 6 is a row, 5 is not held, 3 is a text of another name, 2 has the name.
        #expect(models.candidates(for: Self.text(9, "title")).map(\.id) == [2, 3])
        #expect(models.candidates(for: Self.text(9, "caption")).map(\.id) == [3])
        #expect(models.candidates(for: Self.row(9, "One")).map(\.id) == [4, 6])
        #expect(models.candidates(for: Self.row(9, "Two")).map(\.id) == [6])
        #expect(models.candidates(for: Layer(parent: 1, item: DisplayItem(id: 9, kind: .icon, frame: .zero))).isEmpty)
    }

    @Test func thisFramesInsertsComeBeforeTheBaseFrame() {
        var models = InsertModels(old: Self.old, held: Self.held)
        models.add(Self.text(7, "note"))
        #expect(models.candidates(for: Self.text(9, "title")).map(\.id) == [2, 7])
        models.add(Self.text(8, "title"))
        #expect(models.candidates(for: Self.text(9, "title")).map(\.id) == [8])
        // A layer sharing the insert's style storage has its name without a look.
        let shared = Self.text(10, "other")
        models.add(shared)
        var insert = shared
        insert.id = 11
        #expect(models.candidates(for: insert).map(\.id) == [10])
    }

    @Test func aFullFrameHasOnlyItsOwnLayers() {
        var models = InsertModels()
        #expect(models.candidates(for: Self.text(2, "title")).isEmpty)
        models.add(Self.row(2, "One"))
        models.add(Self.text(3, "title"))
        #expect(models.candidates(for: Self.row(4, "Two")).map(\.id) == [2])
        #expect(models.candidates(for: Self.text(5, "title")).map(\.id) == [3])
    }
}
