"""Side tabs and SPStackedNav's stacked split through the protocol (docs/protocol.md §5.6, §5.7).

Every test sets its own app with `setRoot` on an iPad landscape viewport without a safe area:
1024 x 768, so the side bar is 80 pt wide and the split fills x = 80 to 1024 (W = 944, two half
pages of 472 exactly). Expected numbers are what SPStackedNav ("the reference" below) draws,
worked out by hand from its rules:

- a page's scroll range starts at the sum of the widths before it; a push right-aligns the new
  page: offset = start + width - 944;
- a page is drawn at 80 + start - offset, rubber-banded by half past 0 and past the last page's
  right alignment, and stacked at 80 + 0, 3, 6 when it is left of its slot min(i,3)*3 (older
  stacked pages hidden);
- the scroll animation moves trunc|d| * 14 pt/s (20 to 4000) per 1/60 s tick of the session clock
  (times slowMotion) and stops within 1 pt.

Geometry is read from the display list the client builds from the frames (rounded to 0.01 on
the wire); moving things are checked frame by frame in slow motion with every frame's list kept.
Every page of a split lives in a container node (role `container`, named by the page, fill
#ECECE8, the page's frame, the edge shadow off x = 0) that is drawn from the push on, as
SPStackedNav's page containers are; the page's own node (role `page`) is the container's child
at its origin while the page is shown and not covered but for the stack's 3 pt step. `drawn`
lists the containers, `with_content` the pages drawn in them; both check the model first."""

import math

from stackcast_client import lifecycle, names, run, session

W, H = 1024, 768
VIEWPORT = {"width": W, "height": H, "scale": 2}
BAR = 80                      # the side tab bar's width; the split starts here
SPLIT_W = W - BAR             # 944
HALF = 472
EPS = 0.011                   # frames are rounded to 0.01 on the wire
CLIP = [BAR, 0, SPLIT_W, H]


# MARK: helpers


def half(name, rows=0, **fields):
    screen = {"name": name, "width": "half", **fields}
    if rows:
        screen["rows"] = [{"title": f"{name} {i}"} for i in range(rows)]
    return screen


def full(name, **fields):
    return {"name": name, **fields}


def side_root(first, second=None, badges=(None, None), selected=0):
    tabs = [
        {"id": "lib", "title": "Library", "icon": "library", "root": first},
        {"id": "srch", "title": "Search", "icon": "search", "root": second or half("S")},
    ]
    for tab, badge in zip(tabs, badges):
        if badge is not None:
            tab["badge"] = badge
    return {"kind": "sideTabs", "tabs": tabs, "selected": selected}


async def split_app(url, first, pushes=(), events=("lifecycle", "transition", "gesture"), second=None):
    """A session on the iPad viewport with side tabs whose first tab's split holds `first` and
    then each screen of `pushes` (pushed with animation, one after the other), settled."""
    client = await session(url, viewport=VIEWPORT)
    assert await client.ok("setRoot", root=side_root(first, second)) == {"root": "sideTabs"}
    for screen in pushes:
        await client.ok("push", screen=screen)
    if events:
        await client.ok("subscribe", events=list(events))
    await client.settle()
    return client


def reference_ticks(start, target, margin=1.0):
    """The offsets the reference's display link draws from `start` to `target` (SV.m:260-284):
    one entry per 1/60 s callback, the last one the stop at the target."""
    actual, offsets = start, []
    while True:
        if abs(target - actual) < margin:
            offsets.append(target)
            return offsets
        diff = target - actual
        sign = (diff > 0) - (diff < 0)
        move = min(max(math.trunc(abs(diff)) * 14, 20), 4000) * sign / 60
        if math.trunc(abs(move)) > math.trunc(abs(diff)):
            move = diff
        actual += move
        offsets.append(actual)


def near(a, b, eps=EPS):
    return abs(a - b) <= eps


CONTAINER_FILL = "#ECECE8"
EDGE_SHADOW = {"color": "#0000004D", "blur": 12, "x": -3, "y": 0}


def check_split_nodes(nodes):
    """Checks the split's part of a display list against the container model: each container is
    a #ECECE8 rect with a page's frame, clipped to the split, with the edge shadow exactly when it
    is not at the split's left edge; a `page` node comes right after the container of the same
    name, with its frame and clip and no shadow of its own; a `dim` (black; its alpha may be
    written 0 below 0.0005, §3.2) has the frame of the container before it, at most one per
    container, and comes before the next one."""
    last, dimmed = None, False
    for index, node in enumerate(nodes):
        role = node.get("role")
        if role == "container":
            x, y, width, height = node["frame"]
            assert (node["kind"], node["fill"], node["alpha"], node["clip"], y, height) == \
                ("rect", CONTAINER_FILL, 1, CLIP, 0, H), node
            assert width in (HALF, SPLIT_W), node
            assert node.get("shadow") == (EDGE_SHADOW if x != BAR else None), node
            assert set(node) <= {"id", "kind", "frame", "alpha", "fill", "clip", "shadow", "role", "name"}, node
            last, dimmed = node, False
        elif role == "page":
            assert index > 0 and nodes[index - 1] is last, ("a page not right after its container", node, last)
            assert (node["name"], node["frame"], node["clip"]) == (last["name"], last["frame"], CLIP), (node, last)
            assert "shadow" not in node, node
        elif role == "dim":
            assert last is not None and not dimmed, ("a dim without its container", node, last)
            assert (node["kind"], node["fill"], node["frame"], node["clip"]) == \
                ("rect", "#000000", last["frame"], CLIP), (node, last)
            assert 0 <= node["alpha"] <= 1, node
            dimmed = True
    return nodes


def container_xs(nodes):
    """(name, x) of the containers of a display list, in paint order (push order)."""
    return [(n["name"], n["frame"][0]) for n in check_split_nodes(nodes) if n.get("role") == "container"]


def page_xs(nodes):
    """(name, x) of the page nodes of a display list: the pages drawn with their content."""
    return [(n["name"], n["frame"][0]) for n in check_split_nodes(nodes) if n.get("role") == "page"]


def drawn(client):
    """(name, x) of every container drawn: every page of the split but the hidden stacked ones,
    whether its page is shown or not."""
    return container_xs(client.display_list())


def with_content(client):
    """(name, x) of the pages drawn in their containers, with their content: each one's
    navigation bar title is drawn (every screen in these tests has one)."""
    nodes = client.display_list()
    xs = page_xs(nodes)
    titles = [n["name"] for n in nodes if n.get("role") == "title"]
    assert [name for name, _ in xs] == titles, (xs, titles)
    return xs


def dims(client):
    return [(n["frame"], n["alpha"]) for n in client.find(role="dim")]


def split_of(state, tab=0):
    return state["tabs"][tab]


def summary(state, tab=0):
    """The split's own fields."""
    split = split_of(state, tab)
    return {k: split[k] for k in ("offset", "targetOffset", "active", "position", "scrolling")}


def stack_xs(state, tab=0):
    return [(p["screen"], p["frame"][0]) for p in split_of(state, tab)["stack"]]


def error(reply, code):
    assert reply["type"] == "error" and reply["code"] == code, reply
    return reply["message"]


async def tap(client, x, y, t0=5000.0):
    await client.pointer("down", x, y, t0)
    await client.pointer("up", x, y, t0 + 80)


async def drag(client, points, t0=1000.0, step=16.0, up=True):
    """A pointer through `points` [(x, y), ...], one move every `step` ms; returns the last t."""
    t = t0
    await client.pointer("down", points[0][0], points[0][1], t)
    for x, y in points[1:]:
        t += step
        await client.pointer("move", x, y, t, samples=[[x, y, t]])
    if up:
        await client.pointer("up", points[-1][0], points[-1][1], t)
    return t


def horizontal(start, end, y=400, step=3):
    """Points from x = start to x = end, `step` pt apart (3 pt per 16 ms: no fling)."""
    direction = 1 if end >= start else -1
    return [(x, y) for x in range(start, end, direction * step)] + [(end, y)]


async def settled_state(client):
    await client.settle()
    return await client.state()


# MARK: side tabs


def test_side_tabs_draw_the_side_bar_items_and_badges_beside_a_half_page(server):
    async def body():
        client = await session(server.ws_url, viewport=VIEWPORT)
        root = {"kind": "sideTabs", "selected": 0, "tabs": [
            {"id": "lib", "title": "Library", "icon": "library", "badge": "3", "root": half("A")},
            {"id": "srch", "title": "Search", "icon": "search", "root": half("S")},
            {"id": "pl", "title": "Playlists", "badge": "12", "root": half("P")},
        ]}
        assert await client.ok("setRoot", root=root) == {"root": "sideTabs"}
        await client.settle()
        bar = client.find(role="sidebar")
        assert [(n["frame"], n["fill"], n["name"]) for n in bar] == [([0, 0, BAR, H], "#1C1C1E", "sidebar")], bar
        items = client.find(role="tab")
        # Items 80 x 70 from y = 10, 80 apart (STB.m:156-161).
        assert [(i["name"], i["frame"]) for i in items] == [
            ("Library", [0, 10, 80, 70]), ("Search", [0, 90, 80, 70]), ("Playlists", [0, 170, 80, 70])], items
        icons = [n for n in client.display_list() if n.get("name") == "icon"]
        assert [(n["frame"], n["icon"], n["color"]) for n in icons] == [
            ([25, 24, 30, 30], "library", "#D6FF59"), ([25, 104, 30, 30], "search", "#FFFFFF73"),
            ([25, 184, 30, 30], "circle", "#FFFFFF73")], icons
        titles = [n for n in client.display_list() if n.get("text") in ("Library", "Search", "Playlists")]
        assert [(n["frame"], n["color"], n["font"], n["align"]) for n in titles] == [
            ([0, 56, 80, 14], "#ECECEC", {"size": 11, "weight": 700}, "center"),
            ([0, 136, 80, 14], "#A9A9A9", {"size": 11, "weight": 700}, "center"),
            ([0, 216, 80, 14], "#A9A9A9", {"size": 11, "weight": 700}, "center")], titles
        # Badges: text + (16, 2) centred at (53, 17) of the item, made integral (BTN.m:53-57).
        badges = client.find(role="badge")
        assert [(b["name"], b["frame"], b["text"], b["fill"], b["radius"], b["kind"]) for b in badges] == [
            ("Library", [41, 18, 24, 18], "3", "#5E5E5E", 9, "text"),
            ("Playlists", [38, 178, 30, 18], "12", "#5E5E5E", 9, "text")], badges
        # One half page in a 944 pt split: the offset 0 is past the end (-472), so the page sits
        # half of that further right: 80 + 236 (reference: 1024 x 768, H H at 0 gives 40, 512).
        # The page lies in its container: a #ECECE8 rect with the page's frame that casts the left
        # edge shadow (not at the split's left edge), over the dark backdrop; the page node is
        # its child at its origin (so at its frame), the page's fill and no shadow.
        backdrop = [n for n in client.display_list() if n.get("name") == "lib"]
        assert backdrop == [{"id": backdrop[0]["id"], "kind": "rect", "frame": CLIP, "alpha": 1, "fill": "#2C2C2E",
                             "name": "lib"}], backdrop
        containers = client.find(role="container")
        assert containers == [{"id": containers[0]["id"], "kind": "rect", "frame": [316, 0, HALF, H], "alpha": 1,
                               "fill": "#ECECE8", "clip": CLIP, "shadow": EDGE_SHADOW, "role": "container",
                               "name": "A"}], containers
        pages = client.pages()
        assert pages == [{"id": pages[0]["id"], "kind": "rect", "frame": [316, 0, HALF, H], "alpha": 1,
                          "fill": "#F2F2F7", "clip": CLIP, "role": "page", "name": "A", "vc": pages[0]["vc"]}], pages
        order = client.order
        assert order.index(backdrop[0]["id"]) + 1 == order.index(containers[0]["id"]) == order.index(pages[0]["id"]) - 1
        assert drawn(client) == with_content(client) == [("A", 316)]
        # The bar is drawn in front of the split.
        assert client.order.index(bar[0]["id"]) > client.order.index(pages[0]["id"])

        state = await client.state()
        assert (state["kind"], state["selected"], state["barVisible"]) == ("sideTabs", 0, True), state
        assert [(t["id"], t["title"], t["badge"]) for t in state["tabs"]] == [
            ("lib", "Library", "3"), ("srch", "Search", None), ("pl", "Playlists", "12")]
        for tab in state["tabs"]:
            assert set(tab) == {"id", "title", "badge", "stack", "offset", "targetOffset", "active", "position",
                                "scrolling"}, tab
            assert summary(state, state["tabs"].index(tab)) == {
                "offset": 0, "targetOffset": 0, "active": 0, "position": "left", "scrolling": False}, tab
            page = tab["stack"][0]
            assert (page["frame"], page["hidden"], page["dim"]) == ([316, 0, HALF, H], False, 0), page
        assert [t["stack"][0]["appearance"] for t in state["tabs"]] == ["appeared", "disappeared", "disappeared"]

        # A tap on a side tab item selects its tab; the bar tints follow.
        await tap(client, 40, 120)
        await client.wait_until(lambda: [p["name"] for p in client.pages()] == ["S"], what="tab Search shown")
        assert (await client.state())["selected"] == 1
        await client.wait_until(lambda: [n["color"] for n in client.display_list() if n.get("name") == "icon"]
                                == ["#FFFFFF73", "#D6FF59", "#FFFFFF73"], what="the Search icon lit")

        # hidesBottomBar does nothing beside a side bar.
        await client.ok("push", screen=half("Hide", hidesBottomBar=True))
        await client.settle()
        state = await client.state()
        assert state["barVisible"] is True and len(client.find(role="sidebar")) == 1, state

        # A safe area's top moves the items down; the split and its pages stay full height.
        await client.send({"type": "resize", **VIEWPORT, "safeArea": {"top": 24}})
        await client.wait_until(lambda: [i["frame"][1] for i in client.find(role="tab")] == [34, 114, 194],
                                what="items from y = 34")
        assert [p["frame"] for p in client.pages()] == [[BAR, 0, HALF, H], [552, 0, HALF, H]]
        await client.close()
    run(body())


def test_select_tab_keeps_each_split_and_a_target_pushes_onto_a_split_not_shown(server):
    async def body():
        client = await split_app(server.ws_url, half("A"), [half("B"), half("C")])
        assert drawn(client) == [("A", 80), ("B", 83), ("C", 552)]
        assert with_content(client) == [("B", 83), ("C", 552)]
        vcs = [p["vc"] for p in split_of(await client.state())["stack"]]

        # The Search tab is not shown: pushes there happen at once, without events or frames.
        start = client.mark()
        await client.ok("push", screen=half("T"), target={"tab": 1})
        u = await client.ok("push", screen=half("U"), target={"stack": "srch"})
        messages = await client.quiet_for(0.3)
        assert [m for m in client.messages(start) if m["type"] in ("event", "frame")] == [], client.messages(start)
        assert messages == []
        state = await client.state()
        assert summary(state, 1) == {"offset": 472, "targetOffset": 472, "active": 2, "position": "right",
                                     "scrolling": False}, state
        assert stack_xs(state, 1) == [("S", 80), ("T", 83), ("U", 552)]
        assert [p["appearance"] for p in split_of(state, 1)["stack"]] == ["disappeared"] * 3

        # Switching: the tab bar's callback order, with every page each split shows, at once.
        start = client.mark()
        assert await client.ok("selectTab", index=1) == {"tab": 1, "id": "srch", "vc": u["vc"]}
        assert [(e["name"], e["screen"], e.get("animated")) for e in client.events(start)] == [
            ("viewDidLoad", "T", None), ("viewDidLoad", "U", None),
            ("viewWillAppear", "T", False), ("viewWillAppear", "U", False),
            ("viewWillDisappear", "B", False), ("viewWillDisappear", "C", False),
            ("viewDidDisappear", "B", False), ("viewDidDisappear", "C", False),
            ("viewDidAppear", "T", False), ("viewDidAppear", "U", False)], client.events(start)
        await client.wait_until(lambda: with_content(client) == [("T", 83), ("U", 552)], what="Search's split drawn")

        # Back to the Library: its split is as it was left.
        start = client.mark()
        assert await client.ok("selectTab", name="lib") == {"tab": 0, "id": "lib", "vc": vcs[2]}
        await client.wait_until(lambda: drawn(client) == [("A", 80), ("B", 83), ("C", 552)],
                                what="Library's split drawn")
        assert with_content(client) == [("B", 83), ("C", 552)]
        state = await client.state()
        assert summary(state, 0) == {"offset": 472, "targetOffset": 472, "active": 2, "position": "right",
                                     "scrolling": False}, state
        assert [p["vc"] for p in split_of(state, 0)["stack"]] == vcs
        assert [(n, s) for n, s in lifecycle(client.events(start))] == [
            ("viewWillAppear", "B"), ("viewWillAppear", "C"), ("viewWillDisappear", "T"), ("viewWillDisappear", "U"),
            ("viewDidDisappear", "T"), ("viewDidDisappear", "U"), ("viewDidAppear", "B"), ("viewDidAppear", "C")]

        # Selecting the selected tab pops its split to the root, animated; a half root keeps its
        # neighbour (NC.m:242-253), and the root is left-aligned. `vc` is the tab's top page.
        start = client.mark()
        assert await client.ok("selectTab", index=0) == {"tab": 0, "id": "lib", "vc": vcs[1]}
        state = await client.state()
        assert summary(state, 0) == {"offset": 0, "targetOffset": 0, "active": 0, "position": "left",
                                     "scrolling": False}, state
        assert stack_xs(state, 0) == [("A", 80), ("B", 552)]
        assert lifecycle(client.events(start)) == [
            ("viewWillAppear", "A"), ("viewDidAppear", "A"),
            ("viewWillDisappear", "C"), ("viewDidDisappear", "C"), ("released", "C")]
        await client.close()
    run(body())


# MARK: push, pop and the other stack ops


def test_push_right_aligns_the_new_page_and_answers_after_the_scroll_settles(server):
    async def body():
        client = await split_app(server.ws_url, half("A"))
        assert drawn(client) == [("A", 316)]

        # Two half pages fill the split: the offset stays 0 and the root moves to the left edge.
        start = client.mark()
        b = await client.ok("push", screen=half("B"))
        state = await client.state()
        assert summary(state) == {"offset": 0, "targetOffset": 0, "active": 1, "position": "right",
                                  "scrolling": False}, state
        await client.wait_until(lambda: drawn(client) == [("A", 80), ("B", 552)], what="A and B side by side")
        assert lifecycle(client.events(start)) == [("viewDidLoad", "B"), ("viewWillAppear", "B"), ("viewDidAppear", "B")]
        assert "transitionStart" not in names(client.events(start))

        # The third: 0 -> 472. The result comes when the scroll has settled; A, covered, has
        # disappeared by then, B is stacked at 3.
        start = client.mark()
        c = await client.ok("push", screen=half("C"))
        state = await client.state()
        assert summary(state) == {"offset": 472, "targetOffset": 472, "active": 2, "position": "right",
                                  "scrolling": False}, state
        assert stack_xs(state) == [("A", 80), ("B", 83), ("C", 552)]
        assert [p["dim"] for p in split_of(state)["stack"]] == [0.3, 0, 0]
        assert [p["vc"] for p in split_of(state)["stack"]][1:] == [b["vc"], c["vc"]]
        assert lifecycle(client.events(start)) == [
            ("viewDidLoad", "C"), ("viewWillAppear", "C"), ("viewDidAppear", "C"),
            ("viewWillDisappear", "A"), ("viewDidDisappear", "A")]
        assert client.events(start)[-1]["name"] == "viewDidDisappear"
        await client.wait_until(lambda: drawn(client) == [("A", 80), ("B", 83), ("C", 552)],
                                what="B stacked, C right-aligned")
        # A, hidden at the settle (its page has left its container), draws its container and
        # its dim only.
        assert with_content(client) == [("B", 83), ("C", 552)]
        assert dims(client) == [([80, 0, HALF, H], 0.3)]

        # A full page: 944 + 944 - 944 = 1416. At rest at x = 0 with index 3 it is stacked too:
        # drawn at 6, over B at 0 and C at 3; A, the fourth stacked page from the top, is hidden.
        d = await client.ok("push", screen=full("D"))
        state = await client.state()
        assert summary(state) == {"offset": 1416, "targetOffset": 1416, "active": 3, "position": "right",
                                  "scrolling": False}, state
        assert stack_xs(state) == [("A", 80 - 1416), ("B", 80), ("C", 83), ("D", 86)]
        assert [p["hidden"] for p in split_of(state)["stack"]] == [True, False, False, False]
        assert [p["frame"][2:] for p in split_of(state)["stack"]] == [[HALF, H], [HALF, H], [HALF, H], [SPLIT_W, H]]
        await client.wait_until(lambda: drawn(client) == [("B", 80), ("C", 83), ("D", 86)], what="D at 86")
        assert with_content(client) == [("D", 86)]
        assert dims(client) == [([80, 0, HALF, H], 0.6), ([83, 0, HALF, H], 0.3)]
        assert [(p["name"], p["frame"], p["clip"]) for p in client.pages() if p["name"] == "D"] == [
            ("D", [86, 0, SPLIT_W, H], CLIP)]
        assert d["vc"].startswith("vc")
        await client.close()
    run(body())


def test_push_scrolls_tick_by_tick_on_the_session_clock_in_slow_motion(server):
    async def body():
        client = await split_app(server.ws_url, half("A"), [half("B")])
        await client.ok("configure", slowMotion=4)
        client.display.keep_snapshots = True
        start = client.mark()
        await client.ok("push", screen=half("C"), timeout=20)
        await client.settle()
        frames = [m for m in client.messages(start, "frame") if m["seq"] in client.snapshots]
        observed = []
        for frame in frames:
            nodes = client.snapshots[frame["seq"]]
            containers = container_xs(nodes)
            xs = dict(containers)
            # Every container drawn shows its page (all three are shown throughout), but A's
            # once B, stacked at 83, covers it but for the 3 pt step.
            assert page_xs(nodes) == [(n, x) for n, x in containers if not (n == "A" and xs["B"] == 83)], \
                (frame["seq"], containers, page_xs(nodes))
            if "C" in xs and (not observed or observed[-1][1] != xs["C"]):
                observed.append((frame["time"], xs["C"], xs.get("B")))
        # Reference vector `anim push`: 27 callbacks, 66.667, 133.333, 200, 263.467, 312, ... 472.
        ticks = reference_ticks(0, 472)
        assert len(ticks) == 27 and [round(t, 3) for t in ticks[:5]] == [66.667, 133.333, 200, 263.467, 312]
        expected = [BAR + 2 * HALF - t for t in ticks]
        # Every x drawn is one of the ticks, in order; the first three and the end are all there.
        position = 0
        for _, x, _ in observed:
            while position < len(expected) and not near(x, expected[position]):
                position += 1
            assert position < len(expected), (x, [o[1] for o in observed], expected)
        xs = [o[1] for o in observed]
        assert [round(x, 2) for x in xs[:3]] == [957.33, 890.67, 824], xs
        assert xs[-1] == 552 and len(xs) >= 20, xs
        # B is one half page left of C until it reaches its stacked slot at 3.
        for _, x, b in observed:
            assert near(b, max(x - HALF, 83)), observed
        # One tick per 1/60 s x 4 of the session clock: from tick 1 to tick 27 (the stop, which
        # puts C at 552 exactly) is 26 ticks, 1733.3 ms (frames come at 60 Hz: one frame's slack).
        first = next(t for t, x, _ in observed if near(x, expected[0]))
        last = next(t for t, x, _ in observed if x == 552)
        assert abs((last - first) - 26 * 4000 / 60) <= 17.5, (first, last, observed)
        await client.close()
    run(body())


def test_pop_draws_the_popped_page_until_the_scroll_settles_then_releases_it(server):
    async def body():
        client = await split_app(server.ws_url, half("A"), [half("B"), half("C")])
        vcs = [p["vc"] for p in split_of(await client.state())["stack"]]
        await client.ok("configure", slowMotion=4)
        client.display.keep_snapshots = True
        start = client.mark()
        command = await client.send_command("pop")
        # Mid-way the popped page is no longer in the split's stack.
        await client.wait_until(lambda: 300 < dict(drawn(client)).get("B", 0) < 500, what="B mid-way")
        state = await client.state()
        assert [p["screen"] for p in split_of(state)["stack"]] == ["A", "B"] and summary(state)["scrolling"], state
        assert summary(state)["targetOffset"] == 0
        reply = await client.reply(command, timeout=20)
        assert reply["type"] == "result" and reply["value"] == {"vc": vcs[1]}, reply
        # A comes into view at the first tick; C leaves and is released when the scroll settles,
        # before the result; a split sends no transition events.
        events = client.events(start)
        assert lifecycle(events) == [("viewWillAppear", "A"), ("viewDidAppear", "A"),
                                     ("viewWillDisappear", "C"), ("viewDidDisappear", "C"), ("released", "C")], events
        assert not any(e["name"].startswith("transition") for e in events)
        await client.settle()
        lists = [container_xs(nodes) for nodes in client.frames_since(start)]
        assert lists and lists[-1] == [("A", 80), ("B", 552)], lists[-3:]
        # C's container, where it was, right of B, in every frame until C has left the split (x
        # 1024); C's page stays in it until then (C disappears at the settle, when it goes).
        for nodes in client.frames_since(start):
            assert [x for x in container_xs(nodes) if x[0] == "C"] == [x for x in page_xs(nodes) if x[0] == "C"]
        for xs in lists:
            positions = dict(xs)
            if positions["B"] < 552 - EPS:
                assert "C" in positions and near(positions["C"], positions["B"] + HALF), xs
        assert [x for x in lists if "C" in dict(x)], lists
        assert all("C" not in dict(xs) for xs in lists[lists.index([("A", 80), ("B", 552)]):])

        # `none`: no scroll, the popped page goes at once.
        await client.ok("configure", slowMotion=1)
        await client.ok("push", screen=half("D"))
        await client.settle()
        start = client.mark()
        assert await client.ok("pop", transition="none") == {"vc": vcs[1]}
        assert names(client.events(start)) == ["viewWillDisappear", "viewDidDisappear", "released",
                                               "viewWillAppear", "viewDidAppear"], client.events(start)
        assert [e["screen"] for e in client.events(start)] == ["D", "D", "D", "A", "A"]
        await client.wait_frame(start)
        assert drawn(client) == [("A", 80), ("B", 552)]
        assert len(client.messages(start, "frame")) == 1
        state = await client.state()
        assert summary(state) == {"offset": 0, "targetOffset": 0, "active": 1, "position": "right",
                                  "scrolling": False}, state

        # pop at the root of a split is refused.
        await client.ok("pop", transition="none")
        assert "nothing to pop" in error(await client.command("pop"), "invalid_state")
        await client.close()
    run(body())


def test_pop_to_root_of_a_half_root_keeps_its_neighbour_and_releases_the_rest_at_the_settle(server):
    async def body():
        client = await split_app(server.ws_url, half("A"), [half("B"), half("C"), half("D")])
        vcs = [p["vc"] for p in split_of(await client.state())["stack"]]
        start = client.mark()
        assert await client.ok("popToRoot") == {"vc": vcs[0]}
        state = await client.state()
        assert summary(state) == {"offset": 0, "targetOffset": 0, "active": 0, "position": "left",
                                  "scrolling": False}, state
        assert stack_xs(state) == [("A", 80), ("B", 552)]
        released = [e["screen"] for e in client.events(start) if e["name"] == "released"]
        assert sorted(released) == ["C", "D"], client.events(start)
        assert client.events(start)[-1]["name"] == "released"
        await client.wait_until(lambda: drawn(client) == [("A", 80), ("B", 552)], what="A and B")
        # Again: nothing to remove (the neighbour stays), A is aligned at the left as it is.
        start = client.mark()
        assert await client.ok("popToRoot") == {"vc": vcs[0]}
        assert lifecycle(client.events(start)) == []
        await client.ok("pop", transition="none")
        assert "already at its root" in error(await client.command("popToRoot"), "invalid_state")
        await client.close()
    run(body())


def test_ops_that_remove_and_add_pages_end_with_the_new_top_right_aligned(server):
    """replaceTop, popTo with `then` and setStack remove pages and add one in the same op. The
    pages they remove go at once (their disappear pair if shown, `animated:false`, and `released`),
    so the new top ends right-aligned among the pages that stay, as a push right after the pop
    would leave it; the new pages then scroll in (or nothing moves when the offset is already
    right), appearing `animated:true`."""
    async def body():
        client = await split_app(server.ws_url, half("A"), events=("lifecycle",))
        gone = [("viewWillDisappear", "C", False), ("viewDidDisappear", "C", False), ("released", "C", None)]
        gone_b = [("viewWillDisappear", "B", False), ("viewDidDisappear", "B", False), ("released", "B", None)]

        def shown(name):
            return [("viewDidLoad", name, None), ("viewWillAppear", name, True), ("viewDidAppear", name, True)]

        three = [("A", 80), ("B", 83), ("Z", 552)]
        cases = [
            # op, fields, offset, pages and containers, pages drawn with content, events
            ("replaceTop", {"screen": half("Z")}, 472, three, three[1:], gone + shown("Z")),
            ("popTo", {"name": "A", "then": {"screen": half("Z")}}, 0, [("A", 80), ("Z", 552)],
             [("A", 80), ("Z", 552)],
             gone + gone_b + [("viewWillAppear", "A", True), ("viewDidAppear", "A", True)] + shown("Z")),
            ("popTo", {"name": "B", "then": {"screen": half("Z")}}, 472, three, three[1:], gone + shown("Z")),
            ("setStack", {"screens": [half("A"), half("B"), half("Z")]}, 472, three, three[1:], gone + shown("Z")),
            # Nothing in common: the old root goes too (never shown since it was covered), and the
            # new root, covered by Q from the start, only draws its container.
            ("setStack", {"screens": [half("P"), half("Q"), half("R")]}, 472, [("P", 80), ("Q", 83), ("R", 552)],
             [("Q", 83), ("R", 552)], gone + gone_b + [("released", "A", None)] + shown("Q") + shown("R")),
        ]
        wrong = []
        for op, fields, offset, xs, content, events in cases:
            await client.ok("setRoot", root=side_root(half("A")))
            await client.ok("push", screen=half("B"))
            await client.ok("push", screen=half("C"))
            await client.settle()
            start = client.mark()
            await client.ok(op, **fields)
            state = await settled_state(client)
            got = (summary(state)["offset"], stack_xs(state), drawn(client), with_content(client),
                   [(e["name"], e["screen"], e.get("animated")) for e in client.events(start)])
            if got != (offset, xs, xs, content, events):
                wrong.append(f"{op} {fields}: offset, pages, containers, contents, events {got}; expected "
                             f"{(offset, xs, xs, content, events)}")
            elif summary(state) != {"offset": offset, "targetOffset": offset, "active": len(xs) - 1,
                                    "position": "right", "scrolling": False}:
                wrong.append(f"{op} {fields}: {summary(state)}")
        assert not wrong, "\n".join(wrong)
        await client.close()
    run(body())


def test_a_rows_push_pops_the_pages_above_its_page_first(server):
    async def body():
        a = half("A", rows=0)
        b = {**half("B"), "rows": [{"title": "to Y", "action": {"op": "push", "screen": half("Y")}}]}
        client = await split_app(server.ws_url, a, [b, half("C"), half("D")])
        vcs = [p["vc"] for p in split_of(await client.state())["stack"]]
        await client.ok("scrollTo", index=0)
        await client.settle()
        assert drawn(client) == [("A", 80), ("B", 552)]
        # The row lies in B's inset grouped section: 20 pt in from each side on the iPad, 35 pt
        # below the 44 pt bar.
        row = client.find(role="row", name="to Y")[0]
        assert row["frame"] == [552 + 20, 44 + 35, HALF - 40, 44], row
        start = client.mark()
        await tap(client, 700, 80)
        await client.wait_event("released", since=start, screen="D", timeout=10)
        state = await settled_state(client)
        # C and D go at once (off screen: no disappear pair), before Y loads; Y is pushed on B and
        # right-aligned: offset 472 + 472 + 472 - 944 = 472, B stacked at 3, Y at 80 + 472.
        assert [p["screen"] for p in split_of(state)["stack"]] == ["A", "B", "Y"], state
        assert [p["vc"] for p in split_of(state)["stack"]][:2] == vcs[:2]
        assert lifecycle(client.events(start))[:3] == [("released", "D"), ("released", "C"), ("viewDidLoad", "Y")], \
            client.events(start)
        assert (summary(state)["offset"], summary(state)["active"]) == (472, 2), summary(state)
        assert stack_xs(state) == [("A", 80), ("B", 83), ("Y", 552)]
        await client.wait_until(lambda: drawn(client) == [("A", 80), ("B", 83), ("Y", 552)], what="Y beside B")
        await client.close()
    run(body())


# MARK: scrolling by hand


def test_wheel_scroll_moves_the_split_one_to_one_then_snaps_the_way_it_went(server):
    async def body():
        client = await split_app(server.ws_url, half("A"), [half("B"), half("C")])
        await client.ok("configure", slowMotion=4)       # the pause before the snap: 0.15 s x 4
        start = client.mark()
        await client.send({"type": "scroll", "x": 600, "y": 400, "dx": -100, "dy": 0, "t": 1})
        await client.wait_until(lambda: drawn(client) == [("A", 80), ("B", 180), ("C", 652)], what="moved by 100")
        assert with_content(client) == [("A", 80), ("B", 180), ("C", 652)]
        assert dims(client) == [([80, 0, HALF, H], 0.236)]        # 0.3 / 472 x 372
        state = await client.state()
        assert summary(state) == {"offset": 372, "targetOffset": 372, "active": 2, "position": "right",
                                  "scrolling": False}, state
        assert lifecycle(client.events(start)) == [("viewWillAppear", "A"), ("viewDidAppear", "A")]
        # More wheel: 1:1 again, and the pause starts over.
        await client.send({"type": "scroll", "x": 600, "y": 400, "dx": -50, "t": 2})
        await client.wait_until(lambda: drawn(client)[1:] == [("B", 230), ("C", 702)], what="moved by 50 more")
        assert (await client.quiet_for(0.35)) == []
        # Then it snaps as a slow release moving right does: the leftmost page shown is A, and
        # 322 is past its middle (236), so the page after it is right-aligned: offset 0, A stays
        # the active page at the left (landscape).
        await client.wait_until(lambda: drawn(client) == [("A", 80), ("B", 552)], timeout=10, what="snapped to 0")
        await client.settle()
        state = await client.state()
        assert summary(state) == {"offset": 0, "targetOffset": 0, "active": 0, "position": "left",
                                  "scrolling": False}, state
        assert lifecycle(client.events(start))[-2:] == [("viewWillDisappear", "C"), ("viewDidDisappear", "C")]
        assert not [e for e in client.events(start) if e["name"].startswith("gesture")]

        # Past the start the pages move by half: offset -56 draws A at 80 + 28; then back to 0.
        await client.send({"type": "scroll", "x": 600, "y": 400, "dx": -56, "t": 3})
        await client.wait_until(lambda: drawn(client) == [("A", 108), ("B", 580)], what="rubber-banded by half")
        assert summary(await client.state())["offset"] == -56
        await client.wait_until(lambda: drawn(client) == [("A", 80), ("B", 552)], timeout=10, what="back at 0")
        await client.settle()

        # A vertical wheel over a page without a list scrolls the split too (dy when dx is 0).
        # Moving left, it snaps to the rightmost page shown, right-aligned: C at 472.
        start = client.mark()
        await client.send({"type": "scroll", "x": 600, "y": 400, "dx": 0, "dy": 30, "t": 4})
        await client.wait_until(lambda: drawn(client) == [("A", 80), ("B", 522), ("C", 994)], what="moved by 30")
        await client.wait_until(lambda: drawn(client) == [("A", 80), ("B", 83), ("C", 552)], timeout=10,
                                what="snapped to 472")
        await client.settle()
        assert summary(await client.state()) == {"offset": 472, "targetOffset": 472, "active": 2, "position": "right",
                                                 "scrolling": False}
        assert lifecycle(client.events(start)) == [("viewWillAppear", "C"), ("viewDidAppear", "C"),
                                                   ("viewWillDisappear", "A"), ("viewDidDisappear", "A")]
        await client.close()
    run(body())


def test_horizontal_wheel_over_a_pages_list_scrolls_the_split(server):
    """A list scrolls by dy only; a horizontal wheel (dx) over it reaches the split."""
    async def body():
        client = await split_app(server.ws_url, half("A", rows=30), [half("B", rows=30), half("C", rows=30)])
        await client.ok("configure", slowMotion=4)
        assert drawn(client) == [("A", 80), ("B", 83), ("C", 552)]
        await client.send({"type": "scroll", "x": 700, "y": 400, "dx": -100, "dy": 0, "t": 1})
        await client.wait_until(lambda: drawn(client) == [("A", 80), ("B", 180), ("C", 652)], what="moved by 100")
        state = await client.state()
        assert summary(state)["offset"] == 372, summary(state)
        assert [p.get("scrollOffset", 0) for p in split_of(state)["stack"]] == [0, 0, 0]
        # (It snaps to 0, the way it went.) A vertical one scrolls the list under it, B's now,
        # and not the split.
        await client.wait_until(lambda: drawn(client) == [("A", 80), ("B", 552)], what="snapped to 0")
        await client.settle()
        await client.send({"type": "scroll", "x": 700, "y": 400, "dx": 0, "dy": 120, "t": 2})
        await client.settle()
        state = await client.state()
        assert [p.get("scrollOffset", 0) for p in split_of(state)["stack"]] == [0, 120, 0], state
        assert summary(state)["offset"] == 0
        await client.close()
    run(body())


def test_pointer_drag_moves_the_split_one_to_one_with_rubber_band_and_snaps_on_release(server):
    async def body():
        client = await split_app(server.ws_url, half("A"), [half("B"), half("C")])
        await client.ok("configure", slowMotion=2)       # the snap, not the drag, is slowed
        start = client.mark()
        # The pan starts 10 pt from the down (the slop): from 310 on, 1:1.
        t = await drag(client, horizontal(300, 700), up=False)
        await client.wait_until(lambda: drawn(client) == [("A", 80), ("B", 470), ("C", 942)], what="472 - 390 = 82")
        assert dims(client) == [([80, 0, HALF, H], 0.052)]         # 0.3 / 472 x 82
        state = await client.state()
        assert summary(state) == {"offset": 82, "targetOffset": 82, "active": 2, "position": "right",
                                  "scrolling": False}, state
        assert [(e["name"], e.get("gesture"), e.get("screen")) for e in client.events(start)] == [
            ("gestureBegan", "scroll", None), ("viewWillAppear", None, "A"), ("viewDidAppear", None, "A")]
        # Past the start the pages move by half the overscroll: offset -218 draws A at 80 + 109.
        t = await drag(client, horizontal(700, 1000), t0=t, up=False)
        await client.wait_until(lambda: drawn(client) == [("A", 189), ("B", 661)], what="rubber band")
        assert summary(await client.state())["offset"] == -218
        # A slow release moving right snaps the leftmost page shown, left-aligned, after an
        # overshoot of 10 pt: first to -10, then to 0.
        await client.pointer("up", 1000, 400, t)
        await client.wait_until(lambda: dict(drawn(client)).get("A", 0) < 189, what="the snap under way")
        assert summary(await client.state())["targetOffset"] == -10
        await client.wait_event("gestureEnded", since=start)
        state = await client.state()
        assert summary(state) == {"offset": 0, "targetOffset": 0, "active": 0, "position": "left",
                                  "scrolling": False}, state
        await client.wait_until(lambda: drawn(client) == [("A", 80), ("B", 552)], what="A left-aligned")
        events = client.events(start)
        assert [(e["name"], e.get("screen")) for e in events][-3:] == [
            ("viewWillDisappear", "C"), ("viewDidDisappear", "C"), ("gestureEnded", None)], events
        assert events[-1]["cancelled"] is False and events[-1]["gesture"] == "scroll"
        await client.close()
    run(body())


def test_fast_flings_snap_one_or_two_pages_further(server):
    async def body():
        client = await split_app(server.ws_url, full("F"), [half(n) for n in "ABCDE"], events=("gesture",))
        assert summary(await client.state())["offset"] == 2360
        outcomes = []
        for speed in (6000, 9000):
            # 5 ms apart: speed x 0.005 pt per sample, 8 samples rightwards.
            step = speed * 0.005
            points = [(400 + step * i, 400) for i in range(9)]
            start = client.mark()
            await drag(client, points, t0=10000.0 * len(outcomes) + 1000, step=5)
            await client.wait_event("gestureEnded", since=start)
            outcomes.append(summary(await client.state()))
            # Back to the end, animated: the settle hides the pages the fling showed.
            await client.ok("scrollTo", offset=2360)
        # 2360 - (8 x step - 10): page 3 is the leftmost shown. Over 5500 pt/s: one page further
        # left (page 2, left-aligned at 1416); over 8500: two (page 1 at 944). Position left, as
        # the offset is (the reference reports right here; docs/behaviour.md asks for left).
        assert outcomes == [
            {"offset": 1416, "targetOffset": 1416, "active": 2, "position": "left", "scrolling": False},
            {"offset": 944, "targetOffset": 944, "active": 1, "position": "left", "scrolling": False}], outcomes
        await client.close()
    run(body())


def test_vertical_drag_on_a_long_list_scrolls_the_list_and_not_the_split(server):
    async def body():
        client = await split_app(server.ws_url, half("A", rows=40), [half("B", rows=40), half("C", rows=40)])
        start = client.mark()
        await drag(client, [(700, 600 - 3 * i) for i in range(100)])
        await client.settle()
        state = await client.state()
        assert summary(state) == {"offset": 472, "targetOffset": 472, "active": 2, "position": "right",
                                  "scrolling": False}, state
        assert [p.get("scrollOffset", 0) for p in split_of(state)["stack"]][:2] == [0, 0]
        assert split_of(state)["stack"][2]["scrollOffset"] > 280, state
        assert drawn(client) == [("A", 80), ("B", 83), ("C", 552)]
        assert [e for e in client.events(start) if e["name"].startswith("gesture")] == []
        await client.close()
    run(body())


def test_tap_on_a_page_that_is_not_active_activates_it(server):
    async def body():
        client = await split_app(server.ws_url, half("A"), [half("B"), half("C")])
        vcs = [p["vc"] for p in split_of(await client.state())["stack"]]
        # B, left of the active C: becomes active at the left; it is already left-aligned.
        await tap(client, 300, 600)
        await client.settle(quiet=0.3)
        state = await client.state()
        assert summary(state) == {"offset": 472, "targetOffset": 472, "active": 1, "position": "left",
                                  "scrolling": False}, state
        assert drawn(client) == [("A", 80), ("B", 83), ("C", 552)]
        # Scrolled to 200, a tap on A (shown at the left) makes it active and left-aligns it.
        assert await client.ok("scrollTo", offset=200) == {"offset": 200, "vc": vcs[1]}
        await client.settle()
        assert drawn(client) == [("A", 80), ("B", 352), ("C", 824)]
        await tap(client, 150, 600, t0=9000)
        await client.wait_until(lambda: drawn(client) == [("A", 80), ("B", 552)], what="A left-aligned")
        await client.settle()
        state = await client.state()
        assert summary(state) == {"offset": 0, "targetOffset": 0, "active": 0, "position": "left",
                                  "scrolling": False}, state
        await client.close()
    run(body())


def test_a_tap_on_a_covered_container_activates_its_page_and_not_what_it_does_not_draw(server):
    """After `none` pushes A is covered by B at 83 but still shown: its page, with a row at
    [100, 79, 432, 44] (in its section, 20 pt in), is in its container, which does not draw it. A
    tap at x = 81 across from that row, on the 3 pt of A's container left uncovered, reaches A's
    container: A becomes active at the left, X is not pushed."""
    async def body():
        a = {**half("A"), "rows": [{"title": "to X", "action": {"op": "push", "screen": half("X")}}]}
        client = await split_app(server.ws_url, a)
        await client.ok("push", screen=half("B"), transition="none")
        await client.ok("push", screen=half("C"), transition="none")
        await client.settle()
        state = await client.state()
        assert [p["appearance"] for p in split_of(state)["stack"]] == ["appeared"] * 3, state
        assert (drawn(client), with_content(client)) == ([("A", 80), ("B", 83), ("C", 552)], [("B", 83), ("C", 552)])
        assert client.find(role="row") == []
        start = client.mark()
        await tap(client, 81, 100)
        await client.wait_until(lambda: drawn(client) == [("A", 80), ("B", 552)], what="A left-aligned")
        await client.settle()
        state = await client.state()
        assert [p["screen"] for p in split_of(state)["stack"]] == ["A", "B", "C"], state
        assert summary(state) == {"offset": 0, "targetOffset": 0, "active": 0, "position": "left",
                                  "scrolling": False}, state
        assert with_content(client) == [("A", 80), ("B", 552)]
        assert [r["frame"] for r in client.find(role="row", name="to X")] == [[100, 79, HALF - 40, 44]]
        assert lifecycle(client.events(start)) == [("viewWillDisappear", "C"), ("viewDidDisappear", "C")]
        await client.close()
    run(body())


# MARK: scrollTo and state


def test_scroll_to_index_and_offset(server):
    async def body():
        client = await split_app(server.ws_url, full("F"), [half(n) for n in "ABCDE"])
        vcs = [p["vc"] for p in split_of(await client.state())["stack"]]
        # index: left-aligns the page (F is 944 wide: page 2 starts at 1416) and makes it active.
        start = client.mark()
        assert await client.ok("scrollTo", index=2) == {"offset": 1416, "vc": vcs[2]}
        state = await client.state()
        assert summary(state) == {"offset": 1416, "targetOffset": 1416, "active": 2, "position": "left",
                                  "scrolling": False}, state
        assert drawn(client)[-2:] == [("B", 86), ("C", 552)]
        assert [e["screen"] for e in client.events(start) if e["name"] == "viewWillAppear"] == ["C", "B"]
        assert [e["screen"] for e in client.events(start) if e["name"] == "viewWillDisappear"] == ["D", "E"]
        # offset: goes there; the active page stays.
        assert await client.ok("scrollTo", offset=1000) == {"offset": 1000, "vc": vcs[2]}
        await client.settle()
        assert [x for x in drawn(client) if x[0] in ("B", "C")] == [("B", 496), ("C", 968)]
        # Without animation: at once, one frame; at rest x is floored (80 + 1416 - 1000.5).
        start = client.mark()
        assert await client.ok("scrollTo", offset=1000.5, animated=False) == {"offset": 1000.5, "vc": vcs[2]}
        await client.wait_frame(start)
        await client.settle(quiet=0.3)
        assert len(client.messages(start, "frame")) == 1
        assert [x for x in drawn(client) if x[0] in ("B", "C")] == [("B", 495), ("C", 967)]
        state = await client.state()
        assert (state["tabs"][0]["offset"], state["tabs"][0]["stack"][0]["dim"]) == (1000.5, 0.3 / SPLIT_W * 1001)

        message = error(await client.command("scrollTo", index=9), "not_found")
        assert message == "no page at index 9 in split lib; it has 6 pages", message
        assert error(await client.command("scrollTo", index=1, offset=3), "bad_message") == \
            "index: give either index or offset, not both"
        assert error(await client.command("scrollTo"), "bad_message") == \
            "index: missing; scrollTo needs a page index or an offset"
        assert error(await client.command("scrollTo", index=0, target={"tab": 5}), "not_found").startswith(
            'target {"tab":5}:')
        # A split not shown scrolls at once.
        assert await client.ok("scrollTo", offset=-100, target={"stack": "srch"}) == {"offset": 0,
                                                                                    "vc": split_of(state, 1)["stack"][0]["vc"]}
        assert summary(await client.state(), 1)["offset"] == 0
        await client.close()
    run(body())


def test_six_page_split_at_its_maximum_reports_offsets_hidden_and_dim(server):
    async def body():
        client = await split_app(server.ws_url, full("F"), [half(n) for n in "ABCDE"])
        state = await client.state()
        assert state["kind"] == "sideTabs"
        split = split_of(state)
        assert summary(state) == {"offset": 2360, "targetOffset": 2360, "active": 5, "position": "right",
                                  "scrolling": False}, state
        # Reference: 944 x 748, F H H H H H at 2360 (max): -2360 (hidden, .75), -1416 (hidden,
        # .9), 0 (.6), 3 (.3), 6, 472.
        pages = split["stack"]
        assert [p["screen"] for p in pages] == ["F", "A", "B", "C", "D", "E"]
        assert [p["frame"][0] - BAR for p in pages] == [-2360, -1416, 0, 3, 6, 472]
        assert [p["frame"][1:] for p in pages] == [[0, SPLIT_W, H]] + [[0, HALF, H]] * 5
        assert [p["hidden"] for p in pages] == [True, True, False, False, False, False]
        assert all(near(p["dim"], d, 1e-9) for p, d in zip(pages, [0.75, 0.9, 0.6, 0.3, 0, 0])), pages
        # Pushed with animation: only the pages on screen have appeared.
        assert [p["appearance"] for p in pages] == ["disappeared"] * 4 + ["appeared"] * 2
        assert drawn(client)[-2:] == [("D", 86), ("E", 552)]
        # The hidden stacked pages draw nothing; the three shown in the stack draw their
        # containers, and the two covered ones their dims (0.6, 0.3).
        assert drawn(client) == [("B", 80), ("C", 83), ("D", 86), ("E", 552)]
        assert with_content(client) == [("D", 86), ("E", 552)]
        assert dims(client) == [([80, 0, HALF, H], 0.6), ([83, 0, HALF, H], 0.3)]
        # scrollTo stays within the scroll range: 2560 is past the end, so it goes nowhere.
        start = client.mark()
        assert await client.ok("scrollTo", offset=2560) == {"offset": 2360, "vc": pages[5]["vc"]}
        assert (await client.quiet_for(0.3)) == [] and client.messages(start, "frame") == []
        # The wheel may go past it: the top page moves by half the overscroll, so 2560 draws E
        # at 80 + 372 (slowed down, the snap back waits 0.6 s).
        await client.ok("configure", slowMotion=4)
        start = client.mark()
        await client.send({"type": "scroll", "x": 700, "y": 400, "dx": 200, "dy": 0, "t": 1})
        await client.wait_until(lambda: drawn(client) == [("B", 80), ("C", 83), ("D", 86), ("E", 452)],
                                what="E rubber-banded")
        state = await client.state()
        assert summary(state) == {"offset": 2560, "targetOffset": 2560, "active": 5, "position": "right",
                                  "scrolling": False}, state
        # (The hidden pages keep their own x, 100 further left; the shown stack stays at 0, 3, 6.)
        assert [p["frame"][0] - BAR for p in split_of(state)["stack"]] == [-2460, -1516, 0, 3, 6, 372]
        # Then it snaps back to the end: E, the rightmost page shown, right-aligned.
        await client.wait_until(lambda: drawn(client) == [("B", 80), ("C", 83), ("D", 86), ("E", 552)], timeout=10,
                                what="back at the end")
        state = await settled_state(client)
        assert summary(state) == {"offset": 2360, "targetOffset": 2360, "active": 5, "position": "right",
                                  "scrolling": False}, state
        await client.close()
    run(body())


def test_stacked_pages_at_rest_are_drawn_with_their_dim(server):
    """Stacked pages whose view has left (covered logically) keep their container in the split
    (SV.m:362-369; only the VC's view is removed, PC.m:154-159): at rest with three half pages, A
    sits at the split's left edge under B with its overlay at 0.3, as STATE reports
    (hidden false, dim 0.3): its container (no shadow at x = 0) and a `dim` node of alpha 0.3
    are drawn there, and no page node."""
    async def body():
        client = await split_app(server.ws_url, half("A"), [half("B"), half("C")])
        state = await client.state()
        assert [(p["screen"], p["frame"][0], p["hidden"], p["dim"]) for p in split_of(state)["stack"]] == [
            ("A", 80, False, 0.3), ("B", 83, False, 0), ("C", 552, False, 0)]
        assert drawn(client) == [("A", 80), ("B", 83), ("C", 552)]
        assert with_content(client) == [("B", 83), ("C", 552)]
        assert dims(client) == [([80, 0, HALF, H], 0.3)], (dims(client), drawn(client))
        # Paint order: the backdrop, then each container, its page and the page's nodes, its dim
        # (left out at alpha 0), then the next container; the side bar in front.
        nodes = client.display_list()
        split = [{k: v for k, v in n.items() if k != "id"} for n in nodes[:nodes.index(client.find(role="sidebar")[0])]]
        vcs = [p["vc"] for p in split_of(state)["stack"]]
        clip = {"clip": CLIP}

        def bar(x, name):
            # The title's box is its natural width, centred: "B" and "C" in 17 pt semibold are
            # 0.722 em = 12.27 pt, rounded up to 13 (docs/protocol.md, the width model).
            assert name in ("B", "C")
            return [{"kind": "rect", "frame": [x, 0, HALF, 44], "alpha": 1, "fill": "#F9F9F9", **clip, "role": "navbar",
                     "name": "navbar"},
                    {"kind": "rect", "frame": [x, 43.5, HALF, 0.5], "alpha": 1, "fill": "#3C3C434A", **clip,
                     "role": "separator"},
                    {"kind": "text", "frame": [x + (HALF - 13) / 2, 0, 13, 44], "alpha": 1, **clip, "text": name,
                     "font": {"size": 17, "weight": 600}, "color": "#000000", "align": "center", "role": "title",
                     "name": name}]

        def container(x, name):
            shadow = {"shadow": EDGE_SHADOW} if x != BAR else {}
            return {"kind": "rect", "frame": [x, 0, HALF, H], "alpha": 1, "fill": "#ECECE8", **clip, **shadow,
                    "role": "container", "name": name}

        def page(x, name, vc):
            return {"kind": "rect", "frame": [x, 0, HALF, H], "alpha": 1, "fill": "#F2F2F7", **clip, "role": "page",
                    "name": name, "vc": vc}

        assert split == [
            {"kind": "rect", "frame": CLIP, "alpha": 1, "fill": "#2C2C2E", "name": "lib"},
            container(80, "A"),
            {"kind": "rect", "frame": [80, 0, HALF, H], "alpha": 0.3, "fill": "#000000", **clip, "role": "dim",
             "name": "dim"},
            container(83, "B"), page(83, "B", vcs[1]), *bar(83, "B"),
            container(552, "C"), page(552, "C", vcs[2]), *bar(552, "C"),
        ], split
        await client.close()
    run(body())


def test_a_stacked_page_never_shown_still_draws_its_container(server):
    """Pages pushed onto a split whose tab is not shown, then shown with the split at 472: the
    root is stacked at the left edge under the other two (STATE: x 80, hidden false, dim 0.3).
    SPStackedNav creates a page's container when it is pushed, whether or not its view ever
    loads, so the root's container and its dim are drawn at x = 80, as for a page that was shown
    and then covered. A tap on that container (x 80 to 82, left of T's) reaches its page: S
    loads, appears and becomes active at the left."""
    async def body():
        client = await split_app(server.ws_url, half("A"), second=half("S"))
        await client.ok("push", screen=half("T"), target={"tab": 1})
        await client.ok("push", screen=half("U"), target={"tab": 1})
        start = client.mark()
        await client.ok("selectTab", index=1)
        await client.settle()
        assert "S" not in [e["screen"] for e in client.events(start)], client.events(start)
        state = await client.state()
        assert [(p["screen"], p["frame"][0], p["hidden"], p["dim"], p["appearance"])
                for p in split_of(state, 1)["stack"]] == [
            ("S", 80, False, 0.3, "disappeared"), ("T", 83, False, 0, "appeared"), ("U", 552, False, 0, "appeared")]
        assert with_content(client) == [("T", 83), ("U", 552)]
        assert (drawn(client), dims(client)) == ([("S", 80), ("T", 83), ("U", 552)], [([80, 0, HALF, H], 0.3)])
        container = client.find(role="container", name="S")
        assert [(n["frame"], n["fill"], "shadow" in n) for n in container] == [([80, 0, HALF, H], "#ECECE8", False)]

        start = client.mark()
        await tap(client, 81, 600)
        await client.wait_until(lambda: drawn(client) == [("S", 80), ("T", 552)], what="S left-aligned")
        await client.settle()
        state = await client.state()
        assert summary(state, 1) == {"offset": 0, "targetOffset": 0, "active": 0, "position": "left",
                                     "scrolling": False}, state
        assert with_content(client) == [("S", 80), ("T", 552)] and dims(client) == []
        assert lifecycle(client.events(start)) == [
            ("viewDidLoad", "S"), ("viewWillAppear", "S"), ("viewDidAppear", "S"),
            ("viewWillDisappear", "U"), ("viewDidDisappear", "U")]
        await client.close()
    run(body())


def test_scroll_to_stays_within_the_scroll_range(server):
    """scrollTo clamps its target, an index's left alignment or an offset, to the scroll range
    [min(0, maxScroll), max(0, maxScroll)], so it never rests rubber-banded, and a huge offset
    is reached as fast as the end of the range."""
    async def body():
        client = await split_app(server.ws_url, full("F"), [half(n) for n in "ABCDE"], events=())
        vcs = [p["vc"] for p in split_of(await client.state())["stack"]]
        at_end = [("B", 80), ("C", 83), ("D", 86), ("E", 552)]
        assert drawn(client) == at_end
        # The last page's left alignment, 2832, is past the end (2360): it stays there, E is
        # active at the left but drawn right-aligned, with no gap after it.
        start = client.mark()
        assert await client.ok("scrollTo", index=5) == {"offset": 2360, "vc": vcs[5]}
        assert summary(await client.state()) == {"offset": 2360, "targetOffset": 2360, "active": 5, "position": "left",
                                                 "scrolling": False}
        assert (await client.quiet_for(0.3)) == [] and client.messages(start, "frame") == []
        # Below the start: 0. Animated, from 2360 (4000 pt/s at most: about a second).
        assert await client.ok("scrollTo", offset=-500) == {"offset": 0, "vc": vcs[5]}
        state = await settled_state(client)
        assert summary(state) == {"offset": 0, "targetOffset": 0, "active": 5, "position": "left",
                                  "scrolling": False}, state
        assert drawn(client) == with_content(client) == [("F", 80)]
        # A huge offset: the end, in the time 2360 takes, and the result says where it went.
        assert await client.ok("scrollTo", offset=1e9, timeout=5) == {"offset": 2360, "vc": vcs[5]}
        await client.settle()
        assert drawn(client) == at_end and with_content(client) == [("D", 86), ("E", 552)]
        # Without animation too.
        assert await client.ok("scrollTo", offset=-1e9, animated=False) == {"offset": 0, "vc": vcs[5]}
        assert await client.ok("scrollTo", index=5, animated=False) == {"offset": 2360, "vc": vcs[5]}
        await client.settle()
        assert drawn(client) == at_end

        # Pages narrower than the split (maxScroll -472) rest only at 0, which draws a lone half
        # page in the middle of the split, at 80 + 236; no target rests rubber-banded.
        await client.ok("setRoot", root=side_root(half("A")))
        a = split_of(await client.state())["stack"][0]["vc"]
        assert await client.ok("scrollTo", offset=300) == {"offset": 0, "vc": a}
        assert await client.ok("scrollTo", offset=-1000) == {"offset": 0, "vc": a}
        assert summary(await client.state())["offset"] == 0
        await client.settle()
        assert drawn(client) == [("A", 316)]
        assert await client.ok("scrollTo", index=0) == {"offset": 0, "vc": a}
        assert summary(await client.state())["offset"] == 0
        await client.close()
    run(body())


def test_pages_shown_or_hidden_without_animation_report_animated_false(server):
    """The appearance events of a `none` push or pop and of scrollTo with animated false carry
    `animated: false`, as everywhere else (docs/protocol.md §7). A jump hides nothing: covered
    or off-screen pages stay shown until an animation settles."""
    async def body():
        client = await split_app(server.ws_url, half("A"))
        start = client.mark()
        await client.ok("push", screen=half("B"), transition="none")
        await client.ok("push", screen=half("C"), transition="none")
        assert [(e["name"], e["screen"], e.get("animated")) for e in client.events(start)] == [
            ("viewDidLoad", "B", None), ("viewWillAppear", "B", False), ("viewDidAppear", "B", False),
            ("viewDidLoad", "C", None), ("viewWillAppear", "C", False), ("viewDidAppear", "C", False)]
        # A, covered by B at 83, is still shown (STATE) but draws only its container and dim.
        state = await client.state()
        assert [p["appearance"] for p in split_of(state)["stack"]] == ["appeared"] * 3, state
        await client.wait_until(lambda: drawn(client) == [("A", 80), ("B", 83), ("C", 552)], what="C at 552")
        assert (with_content(client), dims(client)) == ([("B", 83), ("C", 552)], [([80, 0, HALF, H], 0.3)])
        # Back to 0 at once: A is uncovered (it never disappeared, so no events) and C, now off
        # screen, stays shown.
        start = client.mark()
        assert await client.ok("scrollTo", index=0, animated=False) == {"offset": 0, "vc": state["tabs"][0]["stack"][0]["vc"]}
        await client.settle()
        assert client.events(start) == [] and len(client.messages(start, "frame")) == 1
        assert drawn(client) == with_content(client) == [("A", 80), ("B", 552)]
        # Animated, to 472: nothing appears (all three are shown); A disappears when it settles.
        start = client.mark()
        await client.ok("scrollTo", offset=472)
        assert [(e["name"], e["screen"], e.get("animated")) for e in client.events(start)] == [
            ("viewWillDisappear", "A", True), ("viewDidDisappear", "A", True)]
        # A `none` pop: C goes at once, without animation; then back to 0 at once: A appears.
        start = client.mark()
        await client.ok("pop", transition="none")
        await client.ok("scrollTo", offset=0, animated=False)
        assert [(e["name"], e["screen"], e.get("animated")) for e in client.events(start)] == [
            ("viewWillDisappear", "C", False), ("viewDidDisappear", "C", False), ("released", "C", None),
            ("viewWillAppear", "A", False), ("viewDidAppear", "A", False)]
        await client.close()
    run(body())


def test_the_sessions_default_transition_none_makes_split_pushes_immediate(server):
    """`configure` `transition` sets the default for pushes (docs/protocol.md §5.1); `none` there
    makes a push without its own `transition` jump, as `"transition":"none"` on the push does. A
    pop without a `transition` goes the way its page arrived, as in a navigation stack (§5.7)."""
    async def body():
        client = await split_app(server.ws_url, half("A"), [half("B")])
        assert (await client.ok("configure", transition="none"))["transition"] == "none"
        start = client.mark()
        c = await client.ok("push", screen=half("C"))
        await client.settle()
        frames = client.messages(start, "frame")
        assert len(frames) == 1, f"{len(frames)} frames: the push scrolled"
        assert [(e["name"], e["screen"], e.get("animated")) for e in client.events(start)] == [
            ("viewDidLoad", "C", None), ("viewWillAppear", "C", False), ("viewDidAppear", "C", False)]
        state = await client.state()
        assert summary(state) == {"offset": 472, "targetOffset": 472, "active": 2, "position": "right",
                                  "scrolling": False}, state
        assert split_of(state)["stack"][2]["vc"] == c["vc"]
        assert (drawn(client), with_content(client)) == ([("A", 80), ("B", 83), ("C", 552)], [("B", 83), ("C", 552)])
        # A pop without a transition: C goes at once and A is uncovered in one frame.
        start = client.mark()
        await client.ok("pop")
        await client.settle()
        assert len(client.messages(start, "frame")) == 1
        assert [(e["name"], e["screen"], e.get("animated")) for e in client.events(start)] == [
            ("viewWillDisappear", "C", False), ("viewDidDisappear", "C", False), ("released", "C", None)]
        assert drawn(client) == with_content(client) == [("A", 80), ("B", 552)]
        # Back to slide: a page pushed with `none` jumps in, and leaves the way it came.
        await client.ok("configure", transition="slide")
        start = client.mark()
        await client.ok("push", screen=half("D"), transition="none")
        await client.settle()
        assert len(client.messages(start, "frame")) == 1
        assert split_of(await client.state())["stack"][2]["transition"] == "none"
        start = client.mark()
        await client.ok("pop")
        await client.settle()
        assert len(client.messages(start, "frame")) == 1
        assert [(e["name"], e["screen"], e.get("animated")) for e in client.events(start)] == [
            ("viewWillDisappear", "D", False), ("viewDidDisappear", "D", False), ("released", "D", None)]
        # A page pushed with a scroll leaves with one.
        start = client.mark()
        await client.ok("push", screen=half("E"))
        await client.ok("pop")
        await client.settle()
        assert len(client.messages(start, "frame")) > 10
        await client.close()
    run(body())


def test_the_tablet_app_has_side_tabs_over_half_pages(server):
    async def body():
        client = await session(server.ws_url, viewport=None, app="tablet")
        welcome = client.messages(0, "welcome")[0]
        assert welcome["viewport"] == {"width": 1024, "height": 768, "scale": 2,
                                       "safeArea": {"top": 24, "left": 0, "bottom": 0, "right": 0}}, welcome
        state = await client.state()
        assert state["kind"] == "sideTabs"
        assert [(t["id"], t["title"], t["badge"]) for t in state["tabs"]] == [
            ("library", "Library", None), ("search", "Search", "2"), ("playlists", "Playlists", None),
            ("settings", "Settings", None)]
        assert [i["frame"] for i in client.find(role="tab")] == [[0, 34 + 80 * k, 80, 70] for k in range(4)]
        assert [(p["name"], p["frame"]) for p in client.pages()] == [("Library", [316, 0, HALF, H])]
        # An artist row pushes a half page beside the library.
        row = client.find(role="row")[0]
        start = client.mark()
        await tap(client, row["frame"][0] + 100, row["frame"][1] + 20)
        await client.wait_until(lambda: [p["frame"][0] for p in client.pages()] == [80, 552], what="artist pushed")
        assert [p["name"] for p in client.pages()] == ["Library", row["name"]]
        assert client.messages(start, "frame")
        await client.close()
    run(body())
