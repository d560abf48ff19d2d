import NavKit

extension StackSpec {
    /// `{"kind":"stack","id":"main","root":SCREEN}`; `id` defaults to `main`.
    @Sendable static func decode(_ reader: FieldReader, kinds: ContainerKinds) throws(WireError) -> any ContainerSpec {
        StackSpec(id: try reader.optionalName("id") ?? "main", root: try SpecDecoder.screen(try reader.reader("root")))
    }
}
