import NavKit

/// The container kinds a ROOT may name (`"kind":"split"`), each with the decoder that reads its
/// spec. A container joins the protocol with its spec type, its decoder and one line in `builtIn`.
///
/// A value; any thread.
public struct ContainerKinds: Sendable {
    /// Reads one container's spec; `kinds` decodes the containers it holds.
    public typealias Decode = @Sendable (_ reader: FieldReader, _ kinds: ContainerKinds) throws(WireError) -> any ContainerSpec

    /// Every kind the protocol knows, in the order error messages list them.
    public static let builtIn = ContainerKinds()
        .registering("stack", StackSpec.decode)
        .registering("tabs") { reader, kinds throws(WireError) in try TabsSpec.decode(reader, style: .bottom, kinds: kinds) }
        .registering("sideTabs") { reader, kinds throws(WireError) in try TabsSpec.decode(reader, style: .side, kinds: kinds) }
        .registering("split", SplitSpec.decode)

    private var decoders: [String: Decode] = [:]
    /// The kinds, in registration order.
    public private(set) var names: [String] = []

    public init() {}

    /// These kinds and `kind`, read by `decode` (replacing a kind of that name).
    public func registering(_ kind: String, _ decode: @escaping Decode) -> ContainerKinds {
        var kinds = self
        if kinds.decoders.updateValue(decode, forKey: kind) == nil { kinds.names.append(kind) }
        return kinds
    }

    /// The kinds as a message lists them: `stack, tabs, sideTabs or split`.
    var listed: String {
        names.count < 2 ? names.joined() : names.dropLast().joined(separator: ", ") + " or " + names[names.count - 1]
    }

    /// Decodes the container `reader` holds, by its `kind`.
    public func container(_ reader: FieldReader) throws(WireError) -> any ContainerSpec {
        guard let kind = try reader.optionalString("kind") else { throw reader.missing("kind", listed) }
        guard let decode = decoders[kind] else {
            throw .badMessage("\(reader.fieldPath("kind")): expected \(listed), got \"\(kind)\"")
        }
        return try decode(reader, self)
    }
}
