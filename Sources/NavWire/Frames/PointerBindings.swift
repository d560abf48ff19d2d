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

    /// The bindings a probe of the pan shows: `trees` the layer trees at each of `travel`. The
    /// travels whose trees hold the layers most of them hold are kept (at a bend a transition at
    /// rest may show a layer fewer, a dim gone); the frame being sent may be one of the others,
    /// a client then binds the layers it has. Nil when no layer's x, y or alpha follows the
    /// translation.
    public init?(axis: Axis, origin: Point, travel: [Double], trees: [LayerTreeSnapshot]) {
        var groups: [[Int]] = []
        for index in trees.indices {
            if let group = groups.firstIndex(where: { Self.sameLayers(trees[$0[0]].layers, trees[index].layers) }) {
                groups[group].append(index)
            } else {
                groups.append([index])
            }
        }
        // The largest group in which something moves: at either end of a pop nothing does.
        for same in groups.sorted(by: { $0.count > $1.count }) where same.count >= 2 {
            let layers = Self.bindings(of: same.map { trees[$0].layers })
            if !layers.isEmpty {
                self.init(axis: axis, origin: origin, travel: same.map { travel[$0] }, layers: layers)
                return
            }
        }
        return nil
    }

    /// The x, y and alpha of each layer that changes from one of `lists` to another (lists with
    /// the same layers in the same order).
    private static func bindings(of lists: [LayerList]) -> [Binding] {
        let reference = lists[0]
        var bindings: [Binding] = []
        for position in reference.indices {
            let id = reference[position].id
            let layers = lists.map { $0[position] }
            let xs = layers.map { hundredths($0.frame.x) }, ys = layers.map { hundredths($0.frame.y) }
            let alphas = layers.map { thousandths($0.alpha) }
            if Set(xs).count > 1 { bindings.append(Binding(id: id, field: .x, values: xs)) }
            if Set(ys).count > 1 { bindings.append(Binding(id: id, field: .y, values: ys)) }
            if Set(alphas).count > 1 { bindings.append(Binding(id: id, field: .alpha, values: alphas)) }
        }
        return bindings
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

    static func hundredths(_ value: Double) -> Double { (value * 100).rounded() / 100 }
    static func thousandths(_ value: Double) -> Double { (value * 1000).rounded() / 1000 }
}
