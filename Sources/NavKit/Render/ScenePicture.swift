/// One picture of a scene in the forms its viewers need: the flattened display list (protocol
/// v1), the layer tree (protocol v2), or both. Made by `Scene.picture(now:kinds:)`.
public struct ScenePicture: Equatable, Sendable {
    /// Which forms to make.
    public struct Kinds: OptionSet, Hashable, Sendable {
        public let rawValue: UInt8
        public init(rawValue: UInt8) { self.rawValue = rawValue }

        public static let list = Kinds(rawValue: 1)
        public static let tree = Kinds(rawValue: 2)
    }

    public var list: DisplayList?
    public var tree: LayerTree?

    public init(list: DisplayList? = nil, tree: LayerTree? = nil) {
        self.list = list
        self.tree = tree
    }

    /// The forms this picture has.
    public var kinds: Kinds {
        var kinds: Kinds = []
        if list != nil { kinds.insert(.list) }
        if tree != nil { kinds.insert(.tree) }
        return kinds
    }
}
