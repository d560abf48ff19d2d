import Testing
@testable import NavKit

/// A node's yes-or-no properties share one byte and its rarely set ones live out of line
/// (`Node.RareState`): each still reads back what was set, alone, and a change marks the node
/// and its ancestors for the next layer tree only when it changes something.
@Suite struct NodeTests {
    @Test func eachFlagStartsAtItsDefaultAndChangesAlone() {
        let node = Node()
        #expect(!node.isHidden && !node.isOnStandby && !node.clipsToBounds)
        #expect(node.drawsChildren && node.isUserInteractionEnabled && node.layersChanged)
        let flags: [(String, ReferenceWritableKeyPath<Node, Bool>)] = [
            ("isHidden", \.isHidden), ("isOnStandby", \.isOnStandby), ("clipsToBounds", \.clipsToBounds),
            ("drawsChildren", \.drawsChildren), ("isUserInteractionEnabled", \.isUserInteractionEnabled),
            ("layersChanged", \.layersChanged),
        ]
        for (name, flag) in flags {
            let before = flags.map { node[keyPath: $0.1] }
            node[keyPath: flag].toggle()
            let after = flags.map { node[keyPath: $0.1] }
            #expect(zip(before, after).enumerated().filter { $0.element.0 != $0.element.1 }.map { flags[$0.offset].0 } == [name])
            node[keyPath: flag].toggle()
        }
    }

    @Test func aChangedFlagMarksTheAncestorsAndAnUnchangedOneDoesNot() {
        let root = Node(), child = Node()
        root.addChild(child)
        root.layersChanged = false
        child.layersChanged = false
        child.isHidden = false
        #expect(!root.layersChanged, "setting the value it has changes nothing")
        child.isHidden = true
        #expect(root.layersChanged && child.layersChanged)
        root.layersChanged = false
        child.isUserInteractionEnabled = false
        #expect(!root.layersChanged, "hit testing is not on the wire")
    }

    @Test func theOwnerIsHeldWeakly() {
        let node = Node()
        #expect(node.owner == nil)
        var page: ViewController? = ViewController(name: "Page")
        node.owner = page
        #expect(node.owner === page)
        page = nil
        #expect(node.owner == nil)
    }

    @Test func aRootKeepsNoListOfMovesUntilATreeIsBuiltFromIt() {
        let root = Node(frame: Rect(x: 0, y: 0, width: 100, height: 100))
        let child = Node(frame: Rect(x: 0, y: 0, width: 10, height: 10), fill: .black)
        root.addChild(child)
        child.frame.origin.x = 5
        #expect(root.movedSinceLayers == nil)
        var cache: LayerTree.Cache?
        var ids = 0
        _ = LayerTree.build(root: root, viewport: Size(width: 100, height: 100), ids: &ids, cache: &cache)
        #expect(root.movedSinceLayers?.isEmpty == true)
        child.frame.origin.x = 6
        #expect(root.movedSinceLayers?.map { $0.takeUnretainedValue() === child } == [true])
        root.forgetMoves()
        #expect(root.movedSinceLayers?.isEmpty == true)
        let adopted = Node()
        adopted.addChild(root)
        #expect(root.movedSinceLayers == nil, "a node that stops being a root drops its list")
    }
}
