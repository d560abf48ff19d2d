import Testing
import NavKit
@testable import NavWire

/// `TreeDiff` compares trees from both ends and looks up by id only the window between what
/// they start and end with: whatever a change does to the shape (adds, removes, moves,
/// reorders, at the start, the end or in the middle), both v2 encodings' deltas rebuild the new
/// tree exactly (`TreeDiffMoveTests.delta` applies them with independent viewers).
@Suite struct TreeDiffWindowTests {
    typealias Spec = TreeDiffMoveTests.Spec

    /// A layer and its subtree, to edit before it is flattened into pre-order specs.
    struct Branch {
        var id: Int
        var x: Double
        var children: [Branch] = []

        func specs(parent: Int? = nil) -> [Spec] {
            [(id, parent, x)] + children.flatMap { $0.specs(parent: id) }
        }

        var ids: [Int] { [id] + children.flatMap(\.ids) }
    }

    /// A generator that gives the same trees and edits on every run.
    struct SeededGenerator: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return state ^ (state >> 29)
        }
    }

    @Test func aLayerAddedInTheMiddleIsTheWholeDelta() throws {
        let old: [Spec] = [(1, nil, 0), (2, 1, 0), (3, 2, 0), (4, 2, 0), (5, 1, 0), (6, 5, 0)]
        let new: [Spec] = [(1, nil, 0), (2, 1, 0), (3, 2, 0), (7, 2, 0), (4, 2, 0), (5, 1, 0), (6, 5, 0)]
        #expect(try TreeDiffMoveTests.delta(old, new) == ##"{"type":"frame","seq":2,"time":0,"base":1,"insert":[{"id":7,"parent":2,"index":1,"kind":"rect","frame":[0,0,10,10],"fill":"#FFFFFF"}]}"##)
    }

    @Test func aSubtreeRemovedAtTheEndAndFieldsChangedOnBothSidesOfIt() throws {
        let old: [Spec] = [(1, nil, 0), (2, 1, 0), (3, 2, 0), (4, 1, 0), (5, 4, 0), (6, 1, 0)]
        let new: [Spec] = [(1, nil, 0), (2, 1, 1), (3, 2, 0), (6, 1, 2)]
        #expect(try TreeDiffMoveTests.delta(old, new) == #"{"type":"frame","seq":2,"time":0,"base":1,"set":{"x":[2,1,6,2]},"remove":[4]}"#)
    }

    @Test func siblingsSwappedInTheWindowAreAnOrder() throws {
        let old: [Spec] = [(1, nil, 0), (2, 1, 0), (3, 1, 0), (4, 3, 0), (5, 1, 0)]
        let new: [Spec] = [(1, nil, 0), (3, 1, 0), (4, 3, 0), (2, 1, 0), (5, 1, 0)]
        let delta = try TreeDiffMoveTests.delta(old, new)
        #expect(delta == #"{"type":"frame","seq":2,"time":0,"base":1,"order":[{"id":1,"children":[3,2,5]}]}"#)
    }

    @Test func randomEditsAreRebuiltExactly() throws {
        var random = SeededGenerator(state: 20_261_128)
        var checked = 0
        for _ in 0..<300 {
            var nextID = 1
            func grow(depth: Int) -> Branch {
                var branch = Branch(id: nextID, x: Double(Int.random(in: 0...3, using: &random)))
                nextID += 1
                if depth < 3 {
                    for _ in 0..<Int.random(in: 0...3, using: &random) { branch.children.append(grow(depth: depth + 1)) }
                }
                return branch
            }
            let old = grow(depth: 0)
            var new = old
            for _ in 0..<Int.random(in: 1...3, using: &random) { Self.edit(&new, nextID: &nextID, using: &random) }
            // Edits that undo each other leave nothing to send.
            if old.specs().elementsEqual(new.specs(), by: ==) { continue }
            _ = try TreeDiffMoveTests.delta(old.specs(), new.specs())
            checked += 1
        }
        #expect(checked > 250)
    }

    /// One random change of `tree` below its root: a subtree removed, a layer added, a subtree
    /// moved under another parent, two siblings swapped, or a layer's x changed.
    static func edit(_ tree: inout Branch, nextID: inout Int, using random: inout SeededGenerator) {
        let paths = Self.paths(in: tree, at: [])
        let path = paths.randomElement(using: &random)!
        switch Int.random(in: 0..<5, using: &random) {
        case 0 where !path.isEmpty:
            _ = tree.remove(at: path)
        case 1:
            tree[path].children.insert(Branch(id: nextID, x: 1), at: Int.random(in: 0...tree[path].children.count, using: &random))
            nextID += 1
        case 2 where !path.isEmpty:
            let moved = tree.remove(at: path)
            let targets = Self.paths(in: tree, at: [])
            let target = targets.randomElement(using: &random)!
            tree[target].children.insert(moved, at: Int.random(in: 0...tree[target].children.count, using: &random))
        case 3 where tree[path].children.count >= 2:
            tree[path].children.swapAt(0, tree[path].children.count - 1)
        default:
            tree[path].x += 1
        }
    }

    /// Every path (child positions from the root) in `tree`.
    static func paths(in tree: Branch, at path: [Int]) -> [[Int]] {
        [path] + tree.children.indices.flatMap { paths(in: tree.children[$0], at: path + [$0]) }
    }
}

extension TreeDiffWindowTests.Branch {
    subscript(path: [Int]) -> Self {
        get { path.isEmpty ? self : children[path[0]][Array(path.dropFirst())] }
        set {
            if path.isEmpty { self = newValue } else { children[path[0]][Array(path.dropFirst())] = newValue }
        }
    }

    /// Takes out the subtree at `path` (not empty) and returns it.
    mutating func remove(at path: [Int]) -> Self {
        path.count == 1 ? children.remove(at: path[0]) : children[path[0]].remove(at: Array(path.dropFirst()))
    }
}
