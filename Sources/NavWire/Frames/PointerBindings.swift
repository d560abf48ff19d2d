import NavKit

/// Where the layers a held pan moves would be for any translation of the pan along its axis
/// (docs/protocol.md §3.8): for each such layer and field, its value at a few translations, in
/// between linear. A viewer moves those layers with the finger before the server's frame comes.
///
/// Values are at wire precision (hundredths of a point, thousandths of alpha), so two bindings
/// compare as they would go on the wire.
public struct PointerBindings: Equatable, Sendable {
    public enum Axis: UInt8, Sendable {
        case x = 0
        case y = 1
    }

    public enum Field: UInt8, Sendable {
        case x = 0
        case y = 1
        case alpha = 2

        var name: String {
            switch self {
            case .x: "x"
            case .y: "y"
            case .alpha: "alpha"
            }
        }
    }

    /// One field of one layer: its value at each of `travel`.
    public struct Binding: Equatable, Sendable {
        public let id: Int
        public let field: Field
        public let values: [Double]
    }

    public let axis: Axis
    /// Where the pan's translation is zero, in viewport points.
    public let origin: Point
    /// Translations along the axis, ascending.
    public let travel: [Double]
    public let layers: [Binding]

    public init(axis: Axis, origin: Point, travel: [Double], layers: [Binding]) {
        self.axis = axis
        self.origin = Point(x: Self.hundredths(origin.x), y: Self.hundredths(origin.y))
        self.travel = travel.map(Self.hundredths)
        self.layers = layers
    }

    /// The bindings a probe of the pan shows: `trees` the layer trees at each of `travel`, for
    /// the layers of `current` (the frame being sent). A layer absent from some of the trees
    /// (culled at a bend, a title faded out) takes the value of the nearest tree that has it
    /// under the same parent. Nil when no layer's x, y or alpha follows the translation.
    public init?(axis: Axis, origin: Point, travel: [Double], trees: [LayerTreeSnapshot], current: LayerTreeSnapshot) {
        let positions = trees.map { tree in
            Dictionary(tree.layers.indices.map { (tree.layers[$0].id, $0) }, uniquingKeysWith: { first, _ in first })
        }
        var bindings: [Binding] = []
        for layer in current.layers {
            let found: [Layer?] = trees.indices.map { index in
                guard let position = positions[index][layer.id] else { return nil }
                let probed = trees[index].layers[position]
                return probed.parent == layer.parent ? probed : nil
            }
            guard found.count(where: { $0 != nil }) >= 2 else { continue }
            let filled = Self.filled(found)
            let xs = filled.map { Self.hundredths($0.frame.x) }, ys = filled.map { Self.hundredths($0.frame.y) }
            let alphas = filled.map { Self.thousandths($0.alpha) }
            if Set(xs).count > 1 { bindings.append(Binding(id: layer.id, field: .x, values: xs)) }
            if Set(ys).count > 1 { bindings.append(Binding(id: layer.id, field: .y, values: ys)) }
            if Set(alphas).count > 1 { bindings.append(Binding(id: layer.id, field: .alpha, values: alphas)) }
        }
        guard !bindings.isEmpty else { return nil }
        self.init(axis: axis, origin: origin, travel: travel, layers: bindings)
    }

    /// Each missing entry replaced by the nearest present one (the earlier on a tie).
    private static func filled(_ found: [Layer?]) -> [Layer] {
        found.indices.map { index in
            if let layer = found[index] { return layer }
            for distance in 1..<found.count {
                if index >= distance, let layer = found[index - distance] { return layer }
                if index + distance < found.count, let layer = found[index + distance] { return layer }
            }
            preconditionFailure("at least two entries are present")
        }
    }

    /// The translations a pan is probed at: a coarse spread, a hundredth either side of each
    /// bend (at the bend itself a transition at rest may show other layers, a dim gone, which
    /// leaves that travel out), and points near each bend so that a curve that starts there (a
    /// rubber band) is followed closely.
    public static func travel(bends: [Double]) -> [Double] {
        var points: Set<Double> = [-800, -400, -200, -100, -50, 0, 50, 100, 200, 400, 800]
        for bend in bends {
            for offset in [-100.0, -50, -25, -10, -0.01, 0.01, 10, 25, 50, 100] { points.insert(hundredths(bend + offset)) }
        }
        return points.sorted()
    }

    /// True when both lists hold the same layers under the same parents, in the same order.
    public static func sameLayers(_ one: LayerList, _ two: LayerList) -> Bool {
        guard one.count == two.count else { return false }
        for index in one.indices where one[index].id != two[index].id || one[index].parent != two[index].parent { return false }
        return true
    }

    /// Lengths and alphas as the wire keeps them (`LayerPrecision.wire`).
    static func hundredths(_ value: Double) -> Double { LayerPrecision.round(value, to: LayerPrecision.wire.geometry) }
    static func thousandths(_ value: Double) -> Double { LayerPrecision.round(value, to: LayerPrecision.wire.alpha) }
}
