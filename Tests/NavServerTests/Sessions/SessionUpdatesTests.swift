import NavWire
import Testing
@testable import NavServer

/// What every viewer learns of the session it shows (docs/protocol.md §2): the settings and the
/// apps in `welcome`, and with the `sessionUpdates` feature a `viewport` or `settings` message
/// whenever the controller changes them. Viewers that did not ask get exactly what they did before.
@Suite struct SessionUpdatesTests {
    private static let updates = #""features":["sessionUpdates"]"#

    @Test func theWelcomeCarriesTheSettingsTheAppsAndTheFeature() throws {
        let h = ShardHarness()
        let c = h.connect()
        h.hello(Self.updates, on: c)
        #expect(c.take() == ["welcome control resumed=false", "frame 1 full"])
        let welcome = try #require(c.last("welcome"))
        #expect(welcome["features"] == ["sessionUpdates"])
        #expect(welcome["apps"] == ["phone", "tablet", "stack"])
        #expect(welcome["settings"] == [
            "busyPolicy": "queue", "slowMotion": 1, "popGesture": ["enabled": true, "range": nil], "transition": "slide",
        ])
    }

    @Test func aWatcherJoiningLaterSeesTheSettingsInForce() throws {
        let h = ShardHarness()
        let (a, _, watchToken) = h.controller()
        h.command("c1", "configure", #""slowMotion":10,"busyPolicy":"reject""#, on: a)
        let w = h.connect()
        h.hello(#""session":"\#(watchToken)""#, on: w)
        let settings = try #require(w.last("welcome")?["settings"])
        #expect(settings["slowMotion"] == 10 && settings["busyPolicy"] == "reject")
    }

    @Test func aResizeReachesEveryViewerThatAskedTheResizingControllerIncluded() throws {
        let h = ShardHarness()
        let (a, _, watchToken) = h.controller(Self.updates)
        let asked = h.connect(), plain = h.connect()
        h.hello(#""session":"\#(watchToken)",\#(Self.updates)"#, on: asked)
        h.hello(#""session":"\#(watchToken)""#, on: plain)
        _ = asked.take()
        _ = plain.take()

        h.send(#"{"type":"resize","width":400,"height":700,"scale":2,"safeArea":{"top":20}}"#, on: a)
        // The message comes before the frame laid out for the new viewport.
        #expect(asked.take() == ["viewport 400x700", "frame 2 base=1"])
        #expect(a.take(frames: false) == ["viewport 400x700"])
        #expect(plain.take(frames: false) == [])
        #expect(asked.last("viewport")?["viewport"] == ["width": 400, "height": 700, "scale": 2, "safeArea": ["top": 20, "left": 0, "bottom": 0, "right": 0]])

        // The same viewport again changes nothing and tells nobody.
        h.send(#"{"type":"resize","width":400,"height":700,"scale":2,"safeArea":{"top":20}}"#, on: a)
        #expect(asked.take(frames: false) == [] && a.take(frames: false) == [])
    }

    @Test func aControllerTakingOverWithAnotherViewportTellsTheWatchersNotItself() throws {
        let h = ShardHarness()
        let (_, token, watchToken) = h.controller()
        let w = h.watcher(watchToken, Self.updates)

        let b = h.connect()
        h.hello(#""session":"\#(token)","viewport":{"width":1024,"height":768},\#(Self.updates)"#, on: b)
        #expect(b.take(frames: false) == ["welcome control resumed=true"])
        #expect(b.last("welcome")?["viewport"]?["width"] == 1024)
        #expect(w.take(frames: false) == ["viewport 1024x768"])
    }

    @Test func aConfigureThatChangesSomethingIsAnsweredThenToldToEveryViewerThatAsked() throws {
        let h = ShardHarness()
        let (a, _, watchToken) = h.controller(Self.updates)
        let w = h.connect(), plain = h.connect()
        h.hello(#""session":"\#(watchToken)",\#(Self.updates)"#, on: w)
        h.hello(#""session":"\#(watchToken)""#, on: plain)
        _ = w.take()
        _ = plain.take()

        h.command("c1", "configure", #""slowMotion":10"#, on: a)
        #expect(a.take(frames: false) == ["result c1", "settings"])
        #expect(w.take(frames: false) == ["settings"])
        #expect(plain.take(frames: false) == [])
        let settings = try #require(w.last("settings")?["settings"])
        #expect(settings == a.last("result")?["value"])
        #expect(settings["slowMotion"] == 10)

        // Setting what is already set is answered, and tells nobody.
        h.command("c2", "configure", #""slowMotion":10"#, on: a)
        #expect(a.take(frames: false) == ["result c2"])
        #expect(w.take(frames: false) == [])
        // A refused configure changes nothing either.
        h.command("c3", "configure", #""slowMotion":1000"#, on: a)
        #expect(a.take(frames: false) == ["error bad_message c3"])
        #expect(w.take(frames: false) == [])
    }

    @Test func anUnknownAppIsRefusedWithTheListOfApps() throws {
        let h = ShardHarness()
        let c = h.connect()
        h.hello(#""app":"nope""#, on: c)
        #expect(c.take() == ["error not_found"])
        let error = try #require(c.last("error"))
        #expect(error["apps"] == ["phone", "tablet", "stack"])
        #expect(error["message"] == "no app named nope; available: phone, tablet, stack")
    }
}
