"""Gestures through `pointer` messages (interactive pop and push, docs/behaviour.md), on a
390 x 844 viewport (W/3 = 130, W/2 = 195, fling threshold W/s = 390 pt/s).

Pointer messages are sent back to back; only their `t` values (ms) say how fast the finger
moved, so a test whose outcome depends on speed also checks that the server measures velocity
from `t`, not from arrival times."""

import asyncio

from stackcast_client import W, centre, lifecycle, run, session

DETAIL = {"name": "Detail", "title": "Detail"}
Y = 400  # below every row of the pushed pages


async def pushed(url, screen=DETAIL, **push_fields):
    """A subscribed session with `screen` pushed (slide) and settled."""
    client = await session(url, subscribe=True)
    await client.ok("push", screen=screen, **push_fields)
    await client.settle()
    return client


async def drag(client, xs, y=Y, t0=1000.0, step=16.0, up=True, pointer_id=1):
    """Down at xs[0], one move per further x (each a one-sample `samples` message, `step` ms
    apart), then up where it ended. Returns the last t."""
    t = t0
    await client.pointer("down", xs[0], y, t, pointer_id=pointer_id)
    for x in xs[1:]:
        t += step
        await client.pointer("move", x, y, t, pointer_id=pointer_id, samples=[[x, y, t]])
    if up:
        await client.pointer("up", xs[-1], y, t, pointer_id=pointer_id)
    return t


def slow(start, end, step=3):
    """Positions from start to end, `step` pt apart (3 pt per 16 ms = 187 pt/s: no fling)."""
    direction = 1 if end >= start else -1
    xs = list(range(start, end, direction * step))
    return xs + [end]


async def tap(client, x, y, t0=5000.0):
    await client.pointer("down", x, y, t0)
    await client.pointer("up", x, y, t0 + 80)


async def gesture_done(client, since):
    """Waits for the gesture's end and for the picture to settle; returns its events."""
    await client.wait_event("gestureEnded", since=since, timeout=10)
    await client.wait_event("transitionEnd", since=since, timeout=10)
    await client.settle()
    return client.events(since)


def flow(events):
    """Lifecycle and gesture events as (name, screen) pairs; gesture events as (name, None)."""
    return [(e["name"], e.get("screen") if e["name"] not in ("gestureBegan", "gestureEnded") else None)
            for e in events if e["name"] not in ("transitionStart", "transitionEnd")]


COMPLETED_POP = [
    ("gestureBegan", None),
    ("viewWillDisappear", "Detail"),
    ("viewWillAppear", "Home"),
    ("viewDidDisappear", "Detail"),
    ("viewDidAppear", "Home"),
    ("released", "Detail"),
    ("gestureEnded", None),
]

CANCELLED_POP = [
    ("gestureBegan", None),
    ("viewWillDisappear", "Detail"),
    ("viewWillAppear", "Home"),
    ("viewWillDisappear", "Home"),
    ("viewDidDisappear", "Home"),
    ("viewWillAppear", "Detail"),
    ("viewDidAppear", "Detail"),
    ("gestureEnded", None),
]


async def stack_of(client):
    return [e["screen"] for e in (await client.state())["stack"]]


def at_rest(client):
    return [(p["name"], p["frame"][0], p["frame"][1]) for p in client.pages()]


def transition_events(events):
    start = next(e for e in events if e["name"] == "transitionStart")
    end = next(e for e in events if e["name"] == "transitionEnd")
    return start, end


def test_slow_drag_past_half_pops_and_the_pages_follow_the_finger(server):
    async def body():
        client = await pushed(server.ws_url)
        start = client.mark()
        # First half of the drag, held at x = 200: check the geometry.
        t = await drag(client, slow(20, 200), up=False)

        def moved():
            detail = client.find(role="page", name="Detail")
            return detail and detail[0]["frame"][0] >= 165
        deadline = asyncio.get_running_loop().time() + 5
        while not moved():
            assert asyncio.get_running_loop().time() < deadline, f"the page did not follow the finger: {client.pages()}"
            await asyncio.sleep(0.02)
        await client.settle(quiet=0.3)
        top = client.find(role="page", name="Detail")[0]["frame"][0]
        assert 165 <= top <= 181, f"finger moved 180 pt (10 pt slop), top page x = {top}"
        home = client.find(role="page", name="Home")
        assert home, "the covered page is not drawn during the drag"
        assert abs(home[0]["frame"][0] - (-W / 3 + top / 3)) <= 1, (home[0]["frame"], top)
        dims = client.find(role="dim")
        assert dims and abs(dims[0]["alpha"] - 0.1 * (1 - top / W)) <= 0.01, (dims, top)
        # Then on to x = 300 and release: slow, but past W/2, so it completes.
        xs = slow(203, 300)
        for x in xs:
            t += 16
            await client.pointer("move", x, Y, t, samples=[[x, Y, t]])
        await client.pointer("up", 300, Y, t)
        events = await gesture_done(client, start)
        assert flow(events) == COMPLETED_POP, flow(events)
        begin, end = transition_events(events)
        assert begin["op"] == "pop" and begin["interactive"] is True
        assert end["cancelled"] is False
        assert await stack_of(client) == ["Home"]
        assert at_rest(client) == [("Home", 0, 0)]
        await client.close()
    run(body())


def test_slow_release_before_half_cancels(server):
    async def body():
        client = await pushed(server.ws_url)
        start = client.mark()
        await drag(client, slow(20, 120))
        events = await gesture_done(client, start)
        assert flow(events) == CANCELLED_POP, flow(events)
        _, end = transition_events(events)
        assert end["cancelled"] is True
        assert [e for e in events if e["name"] == "gestureEnded"][0].get("cancelled") is True
        assert await stack_of(client) == ["Home", "Detail"]
        assert at_rest(client) == [("Detail", 0, 0)]
        # The page still works after a cancelled pop: a command pops it.
        await client.ok("pop")
        assert await stack_of(client) == ["Home"]
        await client.close()
    run(body())


def test_fast_fling_pops_though_short_and_velocity_comes_from_t(server):
    async def body():
        client = await pushed(server.ws_url)
        # 20 -> 140 in 3 samples over 32 ms: 3750 pt/s, far above W/s; x stays below W/2.
        start = client.mark()
        await client.pointer("down", 20, Y, 2000)
        await client.pointer("move", 140, Y, 2032, samples=[[80, Y, 2016], [140, Y, 2032]])
        await client.pointer("up", 140, Y, 2032)
        events = await gesture_done(client, start)
        assert flow(events) == COMPLETED_POP, flow(events)
        assert await stack_of(client) == ["Home"]
        assert at_rest(client) == [("Home", 0, 0)]

        # The same positions over 640 ms (187 pt/s), sent just as fast: no fling, so it cancels.
        await client.ok("push", screen=DETAIL)
        await client.settle()
        start = client.mark()
        await client.pointer("down", 20, Y, 3000)
        await client.pointer("move", 140, Y, 3640, samples=[[80, Y, 3320], [140, Y, 3640]])
        await client.pointer("up", 140, Y, 3640)
        events = await gesture_done(client, start)
        assert flow(events) == CANCELLED_POP, flow(events)
        assert await stack_of(client) == ["Home", "Detail"]
        await client.close()
    run(body())


def test_leftward_fling_cancels_a_pop_past_half(server):
    async def body():
        client = await pushed(server.ws_url)
        start = client.mark()
        # Dragged slowly to 300, then flung back left to 205 in 64 ms (about -1500 pt/s), still
        # past W/2: the leftward fling decides, not the position.
        t = await drag(client, slow(20, 300), up=False)
        back = [[275, Y, t + 16], [250, Y, t + 32], [225, Y, t + 48], [205, Y, t + 64]]
        await client.pointer("move", 205, Y, t + 64, samples=back)
        await client.pointer("up", 205, Y, t + 64)
        events = await gesture_done(client, start)
        assert flow(events) == CANCELLED_POP, flow(events)
        assert await stack_of(client) == ["Home", "Detail"]
        await client.close()
    run(body())


def test_drag_starting_outside_the_range_does_not_pop(server):
    async def body():
        client = await pushed(server.ws_url)
        start = client.mark()
        # Down at 250 > W/3, then a fast fling that would pop had the gesture begun.
        await client.pointer("down", 250, Y, 1000)
        await client.pointer("move", 380, Y, 1032, samples=[[300, Y, 1016], [380, Y, 1032]])
        await client.pointer("up", 380, Y, 1032)
        await client.quiet_for(0.6)
        assert client.events(start) == [], client.events(start)
        assert await stack_of(client) == ["Home", "Detail"]
        assert at_rest(client) == [("Detail", 0, 0)]
        await client.close()
    run(body())


def test_vertical_drag_does_not_pop(server):
    async def body():
        client = await pushed(server.ws_url)
        start = client.mark()
        await client.pointer("down", 20, 300, 1000)
        await client.pointer("move", 40, 600, 1032, samples=[[30, 450, 1016], [40, 600, 1032]])
        await client.pointer("up", 40, 600, 1032)
        await client.quiet_for(0.6)
        assert [e["name"] for e in client.events(start)] == []
        assert await stack_of(client) == ["Home", "Detail"]
        await client.close()
    run(body())


def test_pop_gesture_disabled_per_page_and_per_session(server):
    async def body():
        client = await pushed(server.ws_url, screen={"name": "Locked", "interactivePop": False})
        start = client.mark()
        await drag(client, slow(20, 300, step=20))
        await client.quiet_for(0.6)
        assert client.events(start) == []
        assert await stack_of(client) == ["Home", "Locked"]

        await client.ok("push", screen=DETAIL)
        await client.ok("configure", popGesture={"enabled": False})
        start = client.mark()
        await drag(client, slow(20, 300, step=20))
        await client.quiet_for(0.6)
        assert client.events(start) == []
        assert await stack_of(client) == ["Home", "Locked", "Detail"]

        await client.ok("configure", popGesture={"enabled": True, "range": 50})
        start = client.mark()
        await drag(client, slow(80, 300, step=20))  # down at 80 > 50: outside the session's range
        await client.quiet_for(0.6)
        assert client.events(start) == []
        start = client.mark()
        await drag(client, slow(40, 300))  # inside it
        events = await gesture_done(client, start)
        assert ("released", "Detail") in flow(events)
        assert await stack_of(client) == ["Home", "Locked"]
        await client.close()
    run(body())


def test_pointer_cancel_mid_drag_cancels_even_past_half(server):
    async def body():
        client = await pushed(server.ws_url)
        start = client.mark()
        t = await drag(client, slow(20, 300), up=False)
        await client.pointer("cancel", 300, Y, t + 16)
        events = await gesture_done(client, start)
        assert flow(events) == CANCELLED_POP, flow(events)
        assert await stack_of(client) == ["Home", "Detail"]
        assert at_rest(client) == [("Detail", 0, 0)]
        await client.close()
    run(body())


def test_tap_on_a_row_pushes_and_tap_on_back_pops(server):
    async def body():
        client = await session(server.ws_url, subscribe=True)
        row = client.find(role="row", name="General")
        assert row, client.find(role="row")
        x, y = centre(row[0])
        start = client.mark()
        await tap(client, x, y)
        await client.wait_event("viewDidAppear", since=start, screen="General")
        await client.settle()
        assert await stack_of(client) == ["Home", "General"]
        assert at_rest(client) == [("General", 0, 0)]
        assert ("viewDidLoad", "General") in lifecycle(client.events(start))

        back = client.find(role="back")
        assert back, "no back button on a pushed page"
        x, y = centre(back[0])
        start = client.mark()
        await tap(client, x, y, t0=9000)
        await client.wait_event("released", since=start, screen="General")
        await client.settle()
        assert lifecycle(client.events(start)) == [
            ("viewWillDisappear", "General"), ("viewWillAppear", "Home"),
            ("viewDidDisappear", "General"), ("viewDidAppear", "Home"), ("released", "General")]
        assert await stack_of(client) == ["Home"]
        assert at_rest(client) == [("Home", 0, 0)]

        # A tap where nothing is does nothing.
        start = client.mark()
        await tap(client, 200, 800, t0=12000)
        await client.quiet_for(0.5)
        assert client.events(start) == []
        assert await stack_of(client) == ["Home"]
        await client.close()
    run(body())


def test_long_press_with_movement_is_not_a_tap(server):
    async def body():
        client = await session(server.ws_url, subscribe=True)
        x, y = centre(client.find(role="row", name="General")[0])
        start = client.mark()
        await client.pointer("down", x, y, 1000)
        await client.pointer("move", x, y + 60, 1100, samples=[[x, y + 30, 1050], [x, y + 60, 1100]])
        await client.pointer("up", x, y + 60, 1120)
        await client.quiet_for(0.6)
        assert client.events(start) == []
        assert await stack_of(client) == ["Home"]
        await client.close()
    run(body())


def test_gallery_leftward_drag_pushes_the_swipe_page(server):
    async def body():
        client = await session(server.ws_url, subscribe=True)
        x, y = centre(client.find(role="row", name="Gallery")[0])
        start = client.mark()
        await tap(client, x, y)
        await client.wait_event("viewDidAppear", since=start, screen="Gallery")
        await client.settle()
        assert await stack_of(client) == ["Home", "Gallery"]

        # A short leftward drag (50 pt < 0.3 W) released slowly: back to Gallery.
        start = client.mark()
        await drag(client, slow(300, 250), y=300)
        events = await gesture_done(client, start)
        assert await stack_of(client) == ["Home", "Gallery"]
        assert at_rest(client) == [("Gallery", 0, 0)]
        assert transition_events(events)[1]["cancelled"] is True

        # A long one (200 pt > 0.3 W): the swipe page is pushed.
        start = client.mark()
        await drag(client, slow(300, 100), y=300, t0=20000)
        events = await gesture_done(client, start)
        assert await stack_of(client) == ["Home", "Gallery", "Picture"]
        assert at_rest(client) == [("Picture", 0, 0)]
        sequence = [pair for pair in flow(events) if pair[0] != "viewDidLoad"]
        assert sequence == [
            ("gestureBegan", None),
            ("viewWillDisappear", "Gallery"),
            ("viewWillAppear", "Picture"),
            ("viewDidDisappear", "Gallery"),
            ("viewDidAppear", "Picture"),
            ("gestureEnded", None),
        ], flow(events)
        begin, end = transition_events(events)
        assert begin["op"] == "push" and begin["interactive"] is True and end["cancelled"] is False

        # A rightward drag on a page without swipePush... pops Picture (a slide page) as usual.
        start = client.mark()
        await drag(client, slow(20, 300), t0=40000)
        await gesture_done(client, start)
        assert await stack_of(client) == ["Home", "Gallery"]
        await client.close()
    run(body())


def test_gesture_is_ignored_during_a_programmatic_transition(server):
    async def body():
        client = await pushed(server.ws_url)
        await client.ok("configure", slowMotion=5)
        start = client.mark()
        push = await client.send_command("push", screen={"name": "Second"})
        await client.wait_event("transitionStart", since=start)
        # A fling that would pop, while the push animates.
        await client.pointer("down", 20, Y, 1000)
        await client.pointer("move", 200, Y, 1032, samples=[[100, Y, 1016], [200, Y, 1032]])
        await client.pointer("up", 200, Y, 1032)
        assert (await client.reply(push, timeout=15))["type"] == "result"
        await client.settle()
        assert "gestureBegan" not in [e["name"] for e in client.events(start)]
        assert await stack_of(client) == ["Home", "Detail", "Second"]
        await client.close()
    run(body())


def test_commands_wait_for_a_gesture_in_progress(server):
    async def body():
        client = await pushed(server.ws_url)
        start = client.mark()
        t = await drag(client, slow(20, 250), up=False)
        await client.wait_event("gestureBegan", since=start)
        pop = await client.send_command("pop")
        waited = await client.quiet_for(0.4)
        assert [m for m in waited if m.get("id") == pop] == [], "the command ran during the gesture"
        await client.pointer("up", 250, Y, t)  # slow, past W/2: completes
        reply = await client.reply(pop)
        # The gesture popped Detail; the queued pop then found Home at the root.
        assert reply["type"] == "error" and reply["code"] == "invalid_state", reply
        messages = client.messages(start)
        assert messages.index(reply) > messages.index(next(m for m in messages if m.get("name") == "gestureEnded"))
        assert await stack_of(client) == ["Home"]

        # With reject, a command during a gesture is refused at once.
        await client.ok("push", screen=DETAIL)
        await client.settle()
        await client.ok("configure", busyPolicy="reject")
        start = client.mark()
        t = await drag(client, slow(20, 120), up=False, t0=50000)
        await client.wait_event("gestureBegan", since=start)
        reply = await client.command("push", screen={"name": "Nope"})
        assert reply["type"] == "error" and reply["code"] == "busy", reply
        await client.pointer("up", 120, Y, t)
        await gesture_done(client, start)
        assert await stack_of(client) == ["Home", "Detail"]
        await client.close()
    run(body())


def test_escape_key_pops_and_a_modal_page_leaves_downwards(server):
    async def body():
        client = await session(server.ws_url, subscribe=True)
        await client.ok("push", screen={"name": "Sheet"}, transition="modal")
        await client.settle()
        client.display.keep_snapshots = True
        start = client.mark()
        await client.send({"type": "key", "key": "Escape"})
        await client.wait_event("released", since=start, screen="Sheet")
        await client.settle()
        # Follow the Sheet page through the pop's frames: it goes down (modal), never sideways.
        positions = []
        for frame in client.messages(start, "frame"):
            sheet = [n for n in client.snapshots[frame["seq"]] if n.get("role") == "page" and n.get("name") == "Sheet"]
            if sheet:
                positions.append(tuple(sheet[0]["frame"][:2]))
        assert positions, "the Sheet page was not in any frame of its pop"
        assert all(x == 0 for x, _ in positions), positions
        assert max(y for _, y in positions) > 200, positions
        assert await stack_of(client) == ["Home"]
        assert at_rest(client) == [("Home", 0, 0)]
        # Escape at the root does nothing.
        start = client.mark()
        await client.send({"type": "key", "key": "Escape"})
        await client.quiet_for(0.5)
        assert client.events(start) == []
        await client.close()
    run(body())


def test_second_pointer_is_ignored_during_a_drag(server):
    async def body():
        client = await pushed(server.ws_url, screen={"name": "Detail", "rows": [{"title": "Tap me", "action": {"op": "push", "screen": {"name": "Tapped"}}}]})
        row = client.find(role="row", name="Tap me")[0]
        start = client.mark()
        t = await drag(client, slow(20, 150), up=False)
        # A second finger taps the row and drags elsewhere meanwhile.
        x, y = centre(row)
        await client.pointer("down", x, y, t + 1, pointer_id=2)
        await client.pointer("up", x, y, t + 50, pointer_id=2)
        await client.pointer("down", 300, 600, t + 60, pointer_id=3)
        await client.pointer("move", 10, 600, t + 80, pointer_id=3, samples=[[10, 600, t + 80]])
        await client.pointer("up", 10, 600, t + 80, pointer_id=3)
        # The first finger goes on to 300 and lifts: the pop completes, nothing else happened.
        for x in slow(153, 300):
            t += 16
            await client.pointer("move", x, Y, t, samples=[[x, Y, t]])
        await client.pointer("up", 300, Y, t)
        events = await gesture_done(client, start)
        assert flow(events) == COMPLETED_POP, flow(events)
        await client.quiet_for(0.4)
        assert await stack_of(client) == ["Home"]
        await client.close()
    run(body())


def test_dropped_connection_cancels_the_gesture(server):
    async def body():
        client = await pushed(server.ws_url)
        token = client.messages(type="welcome")[0]["session"]
        start = client.mark()
        await drag(client, slow(20, 300), up=False)
        await client.wait_event("gestureBegan", since=start)
        await client.wait_message(lambda m: m["type"] == "frame" and any(
            p.get("id") == client.find(role="page", name="Detail")[0]["id"] and p.get("frame", [0])[0] > 100
            for p in m.get("set", [])), since=start)
        client.abort()
        await asyncio.sleep(1.0)
        back = await session(server.ws_url, session=token)
        await back.settle()
        assert await stack_of(back) == ["Home", "Detail"], "a drop mid-drag must cancel the pop, not finish it"
        assert at_rest(back) == [("Detail", 0, 0)]
        # The session takes gestures again.
        start = back.mark()
        await back.ok("subscribe", events=["lifecycle", "transition", "gesture"])
        await drag(back, slow(20, 300), t0=70000)
        events = await gesture_done(back, start)
        assert flow(events) == COMPLETED_POP, flow(events)
        await back.close()
    run(body())


def test_new_hello_cancels_the_gesture(server):
    async def body():
        client = await pushed(server.ws_url)
        token = client.messages(type="welcome")[0]["session"]
        start = client.mark()
        await drag(client, slow(20, 300), up=False)
        await client.wait_event("gestureBegan", since=start)
        hello_at = client.mark()
        welcome = await client.hello(session=token)
        assert welcome["type"] == "welcome" and welcome["resumed"] is True, welcome
        await client.wait_frame(since=hello_at)
        await client.settle()
        assert await stack_of(client) == ["Home", "Detail"]
        assert at_rest(client) == [("Detail", 0, 0)]
        # The old finger lifting now changes nothing.
        await client.pointer("up", 300, Y, 99999)
        await client.quiet_for(0.5)
        assert await stack_of(client) == ["Home", "Detail"]
        await client.close()
    run(body())


def test_movement_in_the_first_sample_past_the_slop_is_not_lost(server):
    """The page follows the finger 1:1 once the pan has started: a first move that jumps from
    x = 20 to x = 300 in one sample (a coalesced or low-rate pointer) must move the page by about
    280 pt (at most the 10 pt slop less), not by nothing. Held still there and lifted, the pop
    completes: slow release past W/2."""

    async def body():
        client = await pushed(server.ws_url)
        start = client.mark()
        await client.pointer("down", 20, Y, 1000)
        await client.pointer("move", 300, Y, 1100, samples=[[300, Y, 1100]])
        await client.wait_event("gestureBegan", since=start)
        await client.settle(quiet=0.3)
        top = client.find(role="page", name="Detail")[0]["frame"][0]
        assert 269 <= top <= 281, f"finger moved 280 pt in one sample; the top page is at x = {top}"
        # Held still for 200 ms, then lifted.
        await client.pointer("move", 300, Y, 1300, samples=[[300, Y, 1200], [300, Y, 1300]])
        await client.pointer("up", 300, Y, 1300)
        events = await gesture_done(client, start)
        assert flow(events) == COMPLETED_POP, flow(events)
        assert await stack_of(client) == ["Home"]
        await client.close()
    run(body())


def test_tap_during_a_transition_is_ignored(server):
    async def body():
        client = await pushed(server.ws_url, screen={
            "name": "Detail", "rows": [{"title": "Go", "action": {"op": "push", "screen": {"name": "Tapped"}}}]})
        await client.ok("configure", slowMotion=5)
        start = client.mark()
        pop = await client.send_command("pop")
        await client.wait_frame(since=start)
        await asyncio.sleep(0.2)
        row = client.find(role="row", name="Go")
        assert row, "the popping page is not drawn during its pop"
        x, y = centre(row[0])
        await tap(client, x, y)
        assert (await client.reply(pop, timeout=15))["type"] == "result"
        await client.settle()
        assert await stack_of(client) == ["Home"]
        assert "Tapped" not in [e.get("screen") for e in client.events(start)]
        await client.close()
    run(body())
