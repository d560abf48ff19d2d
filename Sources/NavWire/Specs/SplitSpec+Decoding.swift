import NavKit

extension SplitSpec {
    /// `{"kind":"split","id":"library","root":SCREEN}`; `id` defaults to `split`.
    @Sendable static func decode(_ reader: FieldReader, kinds: ContainerKinds) throws(WireError) -> any ContainerSpec {
        SplitSpec(id: try reader.optionalName("id") ?? "split", root: try SpecDecoder.screen(try reader.reader("root")))
    }
}
