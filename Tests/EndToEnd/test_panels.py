"""Panels through the protocol (docs/protocol.md §5.8): VCStack's half-height floating layer, a
sheet with detents. Present at medium, drag to large and fling back, scroll inside at large,
dismiss by a drag, a tap on the mask and Escape, push and pop inside, with UIKit's appearance
order for every page and the detents the events name.

The phone's tab app with a safe area (390 x 844, top 47, bottom 34): medium is 422 pt high (its
top at y = 422), large 787 (its top at y = 57)."""

from stackcast_client import lifecycle, run, session

VIEWPORT = {"width": 390, "height": 844, "scale": 3, "safeArea": {"top": 47, "bottom": 34}}
QUEUE = {"kind": "stack", "id": "queue", "root": {"name": "Queue", "title": "Up Next", "rows": [
    {"title": f"Track {n}", "action": {"op": "push", "screen": {"name": f"Track {n}"}}} for n in range(1, 31)]}}
MEDIUM_Y, LARGE_Y = 422, 57


def error(reply, code):
    assert reply["type"] == "error" and reply["code"] == code, reply
    return reply["message"]


def detents(events):
    return [e["detent"] for e in events if e["name"] == "detentChanged"]


def panel_y(client):
    return client.find(role="panel")[0]["frame"][1]


async def tab_app(url):
    client = await session(url, viewport=VIEWPORT, app="phone")
    await client.ok("subscribe", events=["lifecycle", "transition", "gesture"])
    await client.settle()
    return client


async def present(client):
    start = client.mark()
    await client.ok("present", content=QUEUE, style="panel")
    await client.wait_event("detentChanged", since=start)
    await client.settle()
    return start


class Finger:
    """Pointer messages with their own clock (`t`, in ms): a drag is a down, moves, an up."""

    def __init__(self, client, t=1000.0):
        self.client, self.t = client, t

    async def drag(self, x, y, dy, steps=20, step_ms=16, hold_ms=200):
        self.t += 1000
        await self.client.pointer("down", x, y, self.t)
        for step in range(1, steps + 1):
            self.t += step_ms
            at = y + dy * step / steps
            await self.client.pointer("move", x, at, self.t, samples=[[x, at, self.t]])
        self.t += hold_ms
        await self.client.pointer("up", x, y + dy, self.t)

    async def tap(self, x, y):
        self.t += 1000
        await self.client.pointer("down", x, y, self.t)
        await self.client.pointer("up", x, y, self.t + 60)


def test_a_panel_rises_to_medium_moves_between_detents_and_its_list_scrolls_at_large(server):
    async def body():
        client = await tab_app(server.ws_url)
        start = await present(client)
        assert lifecycle(client.events(start)) == [
            ("viewDidLoad", "Queue"), ("viewWillAppear", "Queue"), ("viewDidAppear", "Queue")]
        assert detents(client.events(start)) == ["medium"]
        assert panel_y(client) == MEDIUM_Y
        mask = client.find(role="mask")[0]
        assert (mask["name"], mask["frame"], mask["alpha"]) == ("Dismiss", [0, 0, 390, 844], 0.4)
        order = [n["role"] for n in client.find() if n.get("role") in ("tabbar", "mask", "panel")]
        assert order == ["tabbar", "mask", "panel"]
        state = await client.state()
        assert [(p["style"], p["detent"]) for p in state["presented"]] == [("panel", "medium")]

        # Up slowly to large; a list drag at medium moved the panel, not the list.
        finger = Finger(client)
        start = client.mark()
        await finger.drag(200, 600, -300, steps=30, step_ms=30)
        await client.wait_event("detentChanged", since=start)
        await client.settle()
        assert detents(client.events(start)) == ["large"]
        assert panel_y(client) == LARGE_Y
        first = client.find(role="row", name="Track 1")[0]["frame"][1]

        # At large the list scrolls, and the panel stays.
        await finger.drag(200, 600, -250, steps=25, step_ms=30)
        await client.settle()
        assert panel_y(client) == LARGE_Y
        assert client.find(role="row", name="Track 1") == [] or client.find(role="row", name="Track 1")[0]["frame"][1] < first - 100
        # Back to the list's top, then a fling down hands over to the panel: it rests at medium.
        await finger.drag(200, 200, 600, steps=30, step_ms=30)
        await client.settle()
        start = client.mark()
        await finger.drag(200, 300, 60, steps=4, step_ms=16, hold_ms=8)
        await client.wait_event("detentChanged", since=start)
        await client.settle()
        assert detents(client.events(start)) == ["medium"]
        assert lifecycle(client.events(start)) == []
        assert panel_y(client) == MEDIUM_Y
        await client.close()
    run(body())


def test_a_push_inside_the_panel_and_a_pop_back_leave_the_app_beneath_alone(server):
    async def body():
        client = await tab_app(server.ws_url)
        await present(client)
        start = client.mark()
        await client.ok("push", screen={"name": "Lyrics"})
        assert lifecycle(client.events(start)) == [
            ("viewDidLoad", "Lyrics"), ("viewWillDisappear", "Queue"), ("viewWillAppear", "Lyrics"),
            ("viewDidDisappear", "Queue"), ("viewDidAppear", "Lyrics")]
        await client.settle()
        assert panel_y(client) == MEDIUM_Y
        start = client.mark()
        await client.ok("pop")
        assert lifecycle(client.events(start)) == [
            ("viewWillDisappear", "Lyrics"), ("viewWillAppear", "Queue"), ("viewDidDisappear", "Lyrics"),
            ("viewDidAppear", "Queue"), ("released", "Lyrics")]
        state = await client.state()
        assert [p["screen"] for p in state["presented"][0]["stack"]] == ["Queue"]
        assert [p["screen"] for p in state["tabs"][0]["stack"]] == ["Library"]
        await client.close()
    run(body())


def test_a_drag_the_mask_and_escape_dismiss_and_a_short_drag_springs_back(server):
    async def body():
        client = await tab_app(server.ws_url)
        finger = Finger(client)
        gone = [("viewWillDisappear", "Queue"), ("viewDidDisappear", "Queue"), ("released", "Queue")]

        await present(client)
        start = client.mark()
        await finger.drag(200, 600, 100, steps=20, step_ms=30)
        await client.wait_event("transitionEnd", since=start)
        assert lifecycle(client.events(start)) == [
            ("viewWillDisappear", "Queue"), ("viewWillAppear", "Queue"), ("viewDidAppear", "Queue")]
        ends = [e for e in client.events(start) if e["name"] == "transitionEnd"]
        assert [(e["op"], e["interactive"], e["cancelled"]) for e in ends] == [("dismiss", True, True)]
        await client.settle()
        assert panel_y(client) == MEDIUM_Y

        start = client.mark()
        await finger.drag(200, 500, 320, steps=20, step_ms=30)
        await client.wait_event("released", since=start, screen="Queue")
        assert lifecycle(client.events(start)) == gone

        await present(client)
        start = client.mark()
        await finger.tap(195, 200)
        await client.wait_event("released", since=start, screen="Queue")
        assert lifecycle(client.events(start)) == gone

        await present(client)
        start = client.mark()
        await client.send({"type": "key", "key": "Escape"})
        await client.wait_event("released", since=start, screen="Queue")
        await client.settle()
        assert "presented" not in await client.state()
        assert client.find(role="mask") == [] and client.find(role="panel") == []
        await client.close()
    run(body())


def test_detents_that_do_not_fit_are_refused_and_nothing_is_presented(server):
    async def body():
        client = await tab_app(server.ws_url)
        assert error(await client.command("present", content=QUEUE, style="panel", detents=[900]), "bad_message") == (
            "detent 900: a panel is above 0 and at most 797 points high on this screen (844 high, 47 of it the safe "
            "area's top), this one would be 900")
        assert error(await client.command("present", content=QUEUE, style="panel", detents=["small"]), "bad_message") == (
            'detents[0]: expected "medium", "large", a height in points above 0, or {"fraction":…} above 0 and at most 1, '
            'got "small"')
        assert error(await client.command("present", content=QUEUE, detents=["medium"]), "bad_message") == \
            'detents: only a panel has detents; give "style":"panel"'
        assert "presented" not in await client.state()
        # A fraction and points, the mask inert: a tap on it changes nothing.
        await client.ok("present", content=QUEUE, style="panel", detents=[{"fraction": 0.25}, 600], dismissOnMaskTap=False)
        await client.settle()
        assert panel_y(client) == 844 - 211
        assert client.find(role="mask") == [] and client.find(role="dim")
        await Finger(client).tap(195, 200)
        await client.settle()
        state = await client.state()
        assert [(p["style"], p["detent"]) for p in state["presented"]] == [("panel", {"fraction": 0.25})]
        await client.close()
    run(body())
