import NavWire
import Testing
@testable import NavServer

/// Input numbers and pointer bindings (docs/protocol.md §3.8): frames name the last input they
/// show, and while a pan that follows the finger is held they say where its layers would be for
/// any translation, so that a viewer can move them before the server's frame arrives.
@Suite struct PointerBindingsTests {
    private static let timelines = #""protocol":2,"features":["timelines"]"#

    private func frames(_ connection: FakeConnection) -> [JSONValue] {
        connection.messages.filter { $0["type"]?.stringValue == "frame" }
    }

    /// The stack app with a page pushed and settled, and a controller numbering its input.
    private func pushed(_ fields: String = timelines) -> (ShardHarness, FakeConnection, Session) {
        let h = ShardHarness()
        let (c, token, _) = h.controller(fields)
        h.command("p", "push", #""screen":{"name":"Detail"}"#, on: c)
        h.settle()
        _ = c.take()
        return (h, c, h.shard.sessions[token]!)
    }

    private func pointer(_ phase: String, _ x: Double, input: Int, t: Double, on c: FakeConnection, _ h: ShardHarness) {
        h.send(#"{"type":"pointer","phase":"\#(phase)","id":1,"x":\#(x),"y":400,"t":\#(t),"input":\#(input)}"#, on: c)
    }

    /// x of layer `id` as a JSON frame's `set` patches it, if it does.
    private func patchedX(_ frame: JSONValue, _ id: Int) -> Double? {
        guard let pairs = frame["set"]?["x"]?.arrayValue else { return nil }
        for index in stride(from: 0, to: pairs.count - 1, by: 2) where pairs[index].numberValue == Double(id) {
            return pairs[index + 1].numberValue
        }
        return nil
    }

    @Test func framesNameTheLastInputTheyShow() {
        let (h, c, session) = pushed()
        pointer("down", 5, input: 1, t: 0, on: c, h)
        for step in 1...3 {
            h.advance(by: 0.016)
            pointer("move", 5 + Double(step) * 20, input: 1 + step, t: Double(step) * 16, on: c, h)
        }
        let inputs = frames(c).compactMap { $0["input"]?.numberValue }
        // The down moves nothing; each move does, and its frame names it.
        #expect(inputs == [2, 3, 4])
        #expect(session.lastInput == 4)
        // A frame that does not change the input leaves it out; a new controller starts afresh.
        let d = h.connect()
        h.hello(#""session":"\#(session.token)","protocol":2,"features":["timelines"]"#, on: d)
        #expect(session.lastInput == nil)
    }

    @Test func anInteractivePopBindsItsPagesOnceAndTheFramesThatFollowSayTheSame() throws {
        let (h, c, session) = pushed()
        pointer("down", 5, input: 1, t: 0, on: c, h)
        var sent: [(input: Int, x: Double)] = []
        for step in 1...6 {
            h.advance(by: 0.016)
            let x = 5 + Double(step) * 25
            pointer("move", x, input: 1 + step, t: Double(step) * 16, on: c, h)
            sent.append((1 + step, x))
        }
        let moved = frames(c).filter { $0["input"] != nil }
        let bind = try #require(moved.first?["bind"])
        #expect(bind["axis"] == "x")
        #expect(moved.dropFirst().allSatisfy { $0["bind"] == "same" }, "one pan, one set of bindings")
        // The pan started past the slop: translation 0 at x 15.
        #expect(bind["origin"] == [15, 400])
        let travel = (bind["travel"]?.arrayValue ?? []).compactMap(\.numberValue)
        let layers = bind["layers"]?.arrayValue ?? []
        // The page being popped: the one the drag moved right.
        let pages = session.latest.tree.map { tree in tree.layers.filter { $0.role == .page && $0.frame.x > 1 } } ?? []
        let page = try #require(pages.first)
        let pageBinding = layers.first { $0["id"]?.numberValue == Double(page.id) && $0["field"] == "x" }
        let values = (pageBinding?["values"]?.arrayValue ?? []).compactMap(\.numberValue)
        #expect(values.count == travel.count && !values.isEmpty)
        #expect(travel.contains { abs($0) <= 0.01 } && travel.contains { abs($0 - 390) <= 0.01 }, "a hundredth inside the bends where the pop's progress reaches its ends: \(travel)")
        // Every later frame puts the page where the bindings said it would be for that input's
        // translation: the viewer's local picture would not jump.
        func bound(_ translation: Double) -> Double {
            guard let upper = travel.firstIndex(where: { $0 >= translation }) else { return values.last! }
            guard upper > 0 else { return values[0] }
            let (t0, t1, v0, v1) = (travel[upper - 1], travel[upper], values[upper - 1], values[upper])
            return v0 + (v1 - v0) * (translation - t0) / (t1 - t0)
        }
        for frame in moved {
            guard let input = frame["input"]?.numberValue, let x = patchedX(frame, page.id),
                  let move = sent.first(where: { Double($0.input) == input })
            else { continue }
            #expect(abs(bound(move.x - 15) - x) < 0.01, "input \(input): the frame has \(x)")
        }
        // Once the finger lifts the pan's frames carry no bindings.
        h.advance(by: 0.016)
        pointer("up", 160, input: 8, t: 112, on: c, h)
        h.settle()
        #expect(frames(c).last?["bind"] == nil)
    }

    @Test func aListScrollBindsItsRowsAlongY() throws {
        let h = ShardHarness()
        let (c, _, _) = h.controller(Self.timelines)
        h.send(#"{"type":"pointer","phase":"down","x":200,"y":600,"t":0,"input":1}"#, on: c)
        h.advance(by: 0.016)
        h.send(#"{"type":"pointer","phase":"move","x":200,"y":560,"t":16,"input":2}"#, on: c)
        let bind = try #require(frames(c).last?["bind"])
        #expect(bind["axis"] == "y")
        #expect((bind["layers"]?.arrayValue?.count ?? 0) >= 1)
    }

    @Test func withoutTheFeatureFramesCarryNeither() {
        let (h, c, _) = pushed(#""protocol":2"#)
        pointer("down", 5, input: 1, t: 0, on: c, h)
        h.advance(by: 0.016)
        pointer("move", 60, input: 2, t: 16, on: c, h)
        #expect(!frames(c).isEmpty)
        #expect(frames(c).allSatisfy { $0["input"] == nil && $0["bind"] == nil })
    }

    @Test func binaryFramesFlagThemWithSixteen() throws {
        let (h, c, _) = pushed(#""protocol":2,"encoding":"binary","features":["timelines"]"#)
        pointer("down", 5, input: 1, t: 0, on: c, h)
        h.advance(by: 0.016)
        pointer("move", 60, input: 2, t: 16, on: c, h)
        let bytes = try #require(c.binaryFrames.last)
        #expect(bytes[0] & 16 == 16)
    }
}
