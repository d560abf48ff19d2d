"""List scrolling through `pointer` and `scroll` messages (docs/protocol.md §4).

The viewport is a phone with a safe area (390 x 844, top 47, bottom 34). A SCREEN with 40 rows
has a list 35 + 40 x 44 + 20 = 1815 pt high (an inset grouped section with its header and footer
spacing) in a content area that starts under the bar at y = 91; the list may scroll until its end
(with the 20 pt footer) reaches the safe area, or the tab bar in a tab app. So row i is at
y = 126 + 44 i - offset, and the largest offset is 1815 - (844 - 91 - 34) = 1096 in a stack app,
1815 - (844 - 91 - 83) = 1145 above a tab bar.

Pointer messages go back to back; only their `t` values say how fast the finger moved."""

import asyncio

from stackcast_client import W, H, centre, run, session

SAFE_TOP, SAFE_BOTTOM = 47, 34
VIEWPORT = {"width": W, "height": H, "scale": 3, "safeArea": {"top": SAFE_TOP, "bottom": SAFE_BOTTOM}}
HEADER, FOOTER = 35, 20                        # the section's spacing above and below
LIST_TOP = SAFE_TOP + 44 + HEADER              # 126: the first row's y at offset 0
ROW = 44
ROWS = 40
MAX_OFFSET = HEADER + ROWS * ROW + FOOTER - (H - 91 - SAFE_BOTTOM)            # 1096
TAB_MAX_OFFSET = HEADER + ROWS * ROW + FOOTER - (H - 91 - 49 - SAFE_BOTTOM)   # 1145
EPS = 0.02
EVENTS = ["lifecycle", "transition", "gesture"]


def rows_screen(name="List", actions=False):
    rows = []
    for i in range(ROWS):
        row = {"title": f"Row {i}"}
        if actions:
            row["action"] = {"op": "push", "screen": {"name": f"Detail {i}"}}
        rows.append(row)
    return {"name": name, "rows": rows}


async def list_app(url, screen=None):
    """A stack app whose root is Home, with the 40-row list pushed (slide, so a rightward drag
    could pop it), subscribed to every event group and settled."""
    client = await session(url, viewport=VIEWPORT)
    await client.ok("setRoot", root={"kind": "stack", "root": {"name": "Home"}})
    await client.ok("push", screen=screen or rows_screen())
    await client.ok("subscribe", events=EVENTS)
    await client.settle()
    return client


def row_y(client, i):
    found = client.find(role="row", name=f"Row {i}")
    assert found, f"Row {i} is not drawn; rows drawn: {[n['name'] for n in client.find(role='row')]}"
    return found[0]["frame"][1]


async def offset(client, depth=-1):
    """The scroll offset the state reports for a page of the stack (absent means 0)."""
    page = (await client.state())["stack"][depth]
    return page.get("scrollOffset", 0)


async def stack_of(client):
    return [page["screen"] for page in (await client.state())["stack"]]


async def vertical_drag(client, x, ys, t0, step=16.0, hold=True, up=True):
    """Down at ys[0], one move per further y, `step` ms apart. With `hold`, the finger then stays
    still for 150 ms, so the release has no speed (no fling). Returns the last t."""
    t = t0
    await client.pointer("down", x, ys[0], t)
    for y in ys[1:]:
        t += step
        await client.pointer("move", x, y, t, samples=[[x, y, t]])
    if hold:
        still = [[x, ys[-1], t + 50], [x, ys[-1], t + 100], [x, ys[-1], t + 150]]
        t += 150
        await client.pointer("move", x, ys[-1], t, samples=still)
    if up:
        await client.pointer("up", x, ys[-1], t)
    return t


def steps(start, end, step=3):
    direction = 1 if end >= start else -1
    return list(range(start, end, direction * step)) + [end]


async def wheel(client, dy, x=200, y=400, t=0):
    await client.send({"type": "scroll", "x": x, "y": y, "dx": 0, "dy": dy, "t": t})


async def rests(client, timeout=10):
    """Polls the state until the offset stops changing; returns every offset seen."""
    seen = [await offset(client)]
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while True:
        await asyncio.sleep(0.05)
        seen.append(await offset(client))
        if len(seen) >= 6 and len(set(seen[-6:])) == 1:
            return seen
        assert loop.time() < deadline, f"the list never came to rest: {seen[-10:]}"


def rubber_band(overscroll, dimension, c=0.55):
    return (1 - 1 / (overscroll * c / dimension + 1)) * dimension


def test_a_vertical_drag_scrolls_the_rows_one_to_one_and_never_pops(server):
    async def body():
        client = await list_app(server.ws_url)
        assert abs(row_y(client, 5) - (LIST_TOP + 5 * ROW)) <= EPS
        start = client.mark()
        # From x = 20, inside the pop range: vertical, so the list takes it.
        t = await vertical_drag(client, 20, steps(600, 400), t0=1000, up=False)
        await client.settle(quiet=0.3)
        # 200 pt up, less the 10 pt slop.
        assert abs(row_y(client, 5) - (LIST_TOP + 5 * ROW - 190)) <= EPS, row_y(client, 5)
        assert [(p["name"], p["frame"][0]) for p in client.pages()] == [("List", 0)]
        await client.pointer("up", 20, 400, t)
        await client.settle()
        assert abs(row_y(client, 5) - (LIST_TOP + 5 * ROW - 190)) <= EPS, "the list moved after a still release"
        assert await offset(client) == 190
        # Another drag continues from there: 100 pt down (90 after the slop).
        await vertical_drag(client, 200, steps(300, 400), t0=5000)
        await client.settle()
        assert await offset(client) == 100
        assert abs(row_y(client, 5) - (LIST_TOP + 5 * ROW - 100)) <= EPS
        assert client.events(start) == [], f"scrolling sent events: {client.events(start)}"
        assert await stack_of(client) == ["Home", "List"]
        # A horizontal drag over the same rows is the stack's: it pops.
        start = client.mark()
        t = 9000
        await client.pointer("down", 20, 400, t)
        for x in range(23, 301, 3):
            t += 16
            await client.pointer("move", x, 400, t, samples=[[x, 400, t]])
        await client.pointer("up", 300, 400, t)
        await client.wait_event("gestureEnded", since=start)
        await client.wait_event("transitionEnd", since=start)
        assert await stack_of(client) == ["Home"]
        await client.close()
    run(body())


def test_dragging_down_at_the_top_rubber_bands_and_settles_back(server):
    async def body():
        client = await list_app(server.ws_url)
        start = client.mark()
        t = await vertical_drag(client, 200, steps(300, 500), t0=1000, up=False)
        await client.settle(quiet=0.3)
        moved = row_y(client, 0) - LIST_TOP
        assert 0 < moved < 190, f"finger moved 190 pt past the top, rows moved {moved}"
        viewport = H - 91 - SAFE_BOTTOM
        assert abs(moved - rubber_band(190, viewport)) <= 0.05, (moved, rubber_band(190, viewport))
        assert await offset(client) < 0
        client.display.keep_snapshots = True
        released = client.mark()
        await client.pointer("up", 200, 500, t)
        await client.settle()
        assert abs(row_y(client, 0) - LIST_TOP) <= EPS, row_y(client, 0)
        page = (await client.state())["stack"][-1]
        assert "scrollOffset" not in page, page
        # It eased back over several frames, always moving up.
        ys = [n["frame"][1] for nodes in client.frames_since(released) for n in nodes
              if n.get("role") == "row" and n.get("name") == "Row 0"]
        assert len([y for y in ys if LIST_TOP + EPS < y < LIST_TOP + moved - EPS]) >= 5, ys
        assert ys == sorted(ys, reverse=True), ys
        assert client.events(start) == []
        await client.close()
    run(body())


def test_the_end_rubber_bands_too_and_a_resize_moves_the_end(server):
    async def body():
        client = await list_app(server.ws_url)
        await wheel(client, 5000)
        await client.settle()
        assert await offset(client) == MAX_OFFSET
        # A taller viewport shows more rows: the list's end comes down to the new bottom.
        tall = {**VIEWPORT, "height": 1000}
        await client.send({"type": "resize", **tall})
        await client.settle()
        tall_max = HEADER + ROWS * ROW + FOOTER - (1000 - 91 - SAFE_BOTTOM)      # 940
        assert await offset(client) == tall_max
        # 300 pt up past the end (290 after the slop) shows as the rubber band of 290.
        t = await vertical_drag(client, 200, steps(600, 300), t0=1000, up=False)
        await client.settle(quiet=0.3)
        visible = 1000 - 91 - SAFE_BOTTOM
        assert abs(await offset(client) - (tall_max + rubber_band(290, visible))) <= 0.01
        await client.pointer("up", 200, 300, t)
        await client.settle()
        assert await offset(client) == tall_max
        last = client.find(role="row", name=f"Row {ROWS - 1}")[0]["frame"]
        assert abs(last[1] + last[3] - (1000 - SAFE_BOTTOM - 20)) <= EPS, last
        await client.close()
    run(body())


def test_a_flick_keeps_scrolling_after_release_and_comes_to_rest(server):
    async def body():
        client = await list_app(server.ws_url)
        start = client.mark()
        # A moderate flick: 45 pt in 48 ms (937.5 pt/s), released while moving.
        await vertical_drag(client, 200, [600, 585, 570, 555], t0=1000, hold=False)
        seen = await rests(client)
        assert seen == sorted(seen), f"the offset went back while decelerating: {seen}"
        final = seen[-1]
        assert 35 + 200 < final < MAX_OFFSET, f"released at offset 35, came to rest at {final}"
        assert len(set(seen)) >= 3, f"the deceleration was not seen in progress: {seen}"

        # A fast flick towards the end: it comes to rest exactly at the end, never beyond.
        await vertical_drag(client, 200, [700, 650, 600, 550, 500], t0=5000, step=8, hold=False)
        seen = await rests(client)
        assert seen[-1] == MAX_OFFSET, seen[-10:]
        last = client.find(role="row", name=f"Row {ROWS - 1}")[0]["frame"]
        assert abs(last[1] + last[3] - (H - SAFE_BOTTOM - 20)) <= EPS, last
        assert last[1] + last[3] <= H - SAFE_BOTTOM
        assert client.events(start) == []
        assert await stack_of(client) == ["Home", "List"]
        await client.close()
    run(body())


def test_wheel_scrolls_by_dy_clamped_at_both_ends(server):
    async def body():
        client = await list_app(server.ws_url)
        start = client.mark()
        await wheel(client, 120)
        await client.wait_until(lambda: abs(row_y(client, 5) - (LIST_TOP + 5 * ROW - 120)) <= EPS, what="the list at 120")
        assert await offset(client) == 120
        await wheel(client, -30)
        await client.wait_until(lambda: abs(row_y(client, 5) - (LIST_TOP + 5 * ROW - 90)) <= EPS, what="the list at 90")
        await wheel(client, -500)
        await client.settle()
        assert abs(row_y(client, 0) - LIST_TOP) <= EPS and await offset(client) == 0

        client.display.keep_snapshots = True
        far = client.mark()
        await wheel(client, 5000)
        await wheel(client, 120)
        await client.settle()
        assert await offset(client) == MAX_OFFSET
        bottoms = [n["frame"][1] + n["frame"][3] for nodes in client.frames_since(far) for n in nodes
                   if n.get("role") == "row" and n.get("name") == f"Row {ROWS - 1}"]
        assert bottoms and all(abs(b - (H - SAFE_BOTTOM - 20)) <= EPS for b in bottoms), \
            f"the wheel went past the end (no rubber band): {bottoms}"

        # Over the navigation bar the wheel does nothing.
        await wheel(client, -300, y=60)
        await client.quiet_for(0.3)
        assert await offset(client) == MAX_OFFSET
        assert client.events(start) == []
        await client.close()
    run(body())


def test_a_tap_on_a_row_runs_its_action_after_scrolling(server):
    async def body():
        client = await list_app(server.ws_url, screen=rows_screen(actions=True))
        await vertical_drag(client, 200, steps(700, 300, step=5), t0=1000)
        await client.settle()
        assert await offset(client) == 390
        start = client.mark()
        x, y = centre(client.find(role="row", name="Row 12")[0])
        await client.pointer("down", x, y, 9000)
        await client.pointer("up", x, y, 9080)
        await client.wait_event("viewDidAppear", since=start, screen="Detail 12")
        await client.ok("pop")

        await wheel(client, 5000)
        await client.settle()
        start = client.mark()
        x, y = centre(client.find(role="row", name="Row 35")[0])
        await client.pointer("down", x, y, 12000)
        await client.pointer("up", x, y, 12080)
        await client.wait_event("viewDidAppear", since=start, screen="Detail 35")
        assert await stack_of(client) == ["Home", "List", "Detail 35"]
        # The list kept its offset under the pushed page.
        assert await offset(client, depth=1) == MAX_OFFSET
        await client.close()
    run(body())


def test_a_list_in_a_tab_ends_above_the_tab_bar_and_keeps_its_offset(server):
    async def body():
        client = await session(server.ws_url, viewport=VIEWPORT)
        tabs = [{"id": "list", "title": "List", "root": rows_screen(actions=True)},
                {"id": "other", "title": "Other", "root": {"name": "Other"}}]
        await client.ok("setRoot", root={"kind": "tabs", "tabs": tabs, "selected": 0})
        await client.ok("subscribe", events=EVENTS)
        await client.settle()
        bar_y = H - 49 - SAFE_BOTTOM
        # Rows run on under the translucent tab bar, which takes the input there: a tap on the
        # bar over Row 14 (y = 126 + 14 x 44 = 742 to 786) is a tap on the selected tab (nothing
        # to pop), and the wheel or a drag that starts on the bar does not scroll.
        under = client.find(role="row", name="Row 14")[0]["frame"]
        assert under[1] == LIST_TOP + 14 * ROW and under[1] < bar_y + 20 < under[1] + under[3], under
        start = client.mark()
        await client.pointer("down", 50, bar_y + 20, 1000)
        await client.pointer("up", 50, bar_y + 20, 1050)
        await wheel(client, 300, y=bar_y + 20)
        await vertical_drag(client, 300, steps(bar_y + 20, bar_y - 300), t0=2000)
        await client.quiet_for(0.5)
        assert client.events(start) == [], client.events(start)
        state = await client.state()
        assert "scrollOffset" not in state["tabs"][0]["stack"][0] and len(state["tabs"][0]["stack"]) == 1, state
        await wheel(client, 5000)
        await client.settle()
        state = await client.state()
        assert state["tabs"][0]["stack"][0]["scrollOffset"] == TAB_MAX_OFFSET, state
        last = client.find(role="row", name=f"Row {ROWS - 1}")[0]["frame"]
        assert abs(last[1] + last[3] - (bar_y - 20)) <= EPS, last
        await client.ok("selectTab", index=1)
        await client.ok("selectTab", index=0)
        await client.settle()
        assert (await client.state())["tabs"][0]["stack"][0]["scrollOffset"] == TAB_MAX_OFFSET
        assert abs(client.find(role="row", name=f"Row {ROWS - 1}")[0]["frame"][1] - last[1]) <= EPS
        await client.close()
    run(body())


def test_a_large_title_collapses_into_the_bar_as_the_list_scrolls(server):
    async def body():
        screen = rows_screen("Settings")
        screen["bar"] = {"largeTitle": True}
        client = await session(server.ws_url, viewport=VIEWPORT)
        await client.ok("setRoot", root={"kind": "stack", "root": screen})
        await client.settle()
        bar = client.find(role="navbar")[0]
        titles = client.find(role="title")
        assert bar["frame"] == [0, 0, W, SAFE_TOP + 44 + 52]
        assert [(t["text"], t["font"], t["frame"]) for t in titles] == \
            [("Settings", {"size": 34, "weight": 700}, [16, SAFE_TOP + 44 + 52 - 8 - 41, 358, 41])]
        assert row_y(client, 0) == LIST_TOP + 52
        # A wheel over the large title scrolls the list; the bar shrinks with it.
        await wheel(client, 30, y=SAFE_TOP + 44 + 20)
        await client.settle()
        assert client.find(role="navbar")[0]["frame"][3] == SAFE_TOP + 44 + 22
        assert row_y(client, 0) == LIST_TOP + 52 - 30
        await wheel(client, 100, t=100)
        await client.settle()
        assert client.find(role="navbar")[0]["frame"][3] == SAFE_TOP + 44
        assert [(t["text"], t["font"]["size"]) for t in client.find(role="title")] == [("Settings", 17)]
        await client.close()
    run(body())
