"""Containers inside containers through the protocol (docs/protocol.md §5.2): a stacked split in
a bottom tab bar, a navigation stack beside it, and a page stack in a split's page.

iPad landscape without a safe area, 1024 x 768: the bottom tab bar is 49 pt high at y = 719 and
the split in the Music tab is the whole width, so two half pages (944 pt) sit centred at x = 40
and 512, and a third scrolls the split to the right edge."""

from stackcast_client import lifecycle, run, session

W, H = 1024, 768
VIEWPORT = {"width": W, "height": H, "scale": 2}
HALF = 472


def half(name, **fields):
    return {"name": name, "width": "half", **fields}


APP = {"kind": "tabs", "tabs": [
    {"id": "music", "title": "Music", "root": {"kind": "split", "root": half("Artists")}},
    {"id": "settings", "title": "Settings", "root": {"kind": "stack", "id": "prefs", "root": {"name": "Settings"}}},
]}


def error(reply, code):
    assert reply["type"] == "error" and reply["code"] == code, reply
    return reply["message"]


def containers(client):
    return {n["name"]: n["frame"] for n in client.find(role="container")}


async def nested_app(url):
    client = await session(url, viewport=VIEWPORT)
    assert await client.ok("setRoot", root=APP) == {"root": "tabs"}
    await client.ok("subscribe", events=["lifecycle"])
    await client.settle()
    return client


async def drag(client, x0, x1, y=400, t0=1000.0, step=3):
    """A slow horizontal drag (3 pt per 16 ms: no fling); the pointer stays down."""
    t = t0
    await client.pointer("down", x0, y, t)
    direction = 1 if x1 >= x0 else -1
    for x in list(range(x0 + direction * step, x1, direction * step)) + [x1]:
        t += 16
        await client.pointer("move", x, y, t, samples=[[x, y, t]])
    return t


def test_a_split_in_a_tab_reports_its_kind_and_takes_targeted_pushes(server):
    async def body():
        client = await nested_app(server.ws_url)
        state = await client.state()
        music, settings = state["tabs"]
        assert music["kind"] == "split" and music["offset"] == 0 and music["scrolling"] is False, music
        assert "kind" not in settings and settings["stackId"] == "prefs", settings
        assert [p["screen"] for p in music["stack"]] == ["Artists"]
        assert containers(client) == {"Artists": [(W - HALF) / 2, 0, HALF, H]}
        assert client.find(role="tabbar")[0]["frame"] == [0, H - 49, W, 49]

        start = client.mark()
        vc = (await client.ok("push", screen=half("Albums"), target={"tab": 0}))["vc"]
        assert lifecycle(client.events(start)) == [
            ("viewDidLoad", "Albums"), ("viewWillAppear", "Albums"), ("viewDidAppear", "Albums")]
        await client.settle()
        assert containers(client) == {"Artists": [40, 0, HALF, H], "Albums": [512, 0, HALF, H]}
        assert (await client.state())["tabs"][0]["stack"][1]["vc"] == vc
        # The stack of the other tab answers to its own id.
        assert "vc" in await client.ok("push", screen={"name": "General"}, target={"stack": "prefs"})
        assert [p["screen"] for p in (await client.state())["tabs"][1]["stack"]] == ["Settings", "General"]
        await client.close()
    run(body())


def test_a_drag_scrolls_the_split_in_its_tab_and_tab_switches_keep_uikits_order(server):
    async def body():
        client = await nested_app(server.ws_url)
        for name in ["Albums", "Tracks"]:
            await client.ok("push", screen=half(name), target={"tab": 0})
        await client.settle()
        rest = (await client.state())["tabs"][0]["offset"]
        assert rest == 3 * HALF - W, rest
        t = await drag(client, 700, 860)
        await client.settle()
        # One to one once the pan has passed its 10 pt slop.
        assert (await client.state())["tabs"][0]["offset"] == rest - 150
        await client.pointer("up", 860, 400, t + 200)
        await client.settle()
        assert (await client.state())["tabs"][0]["offset"] == rest

        start = client.mark()
        item = next(n for n in client.find(role="tab") if n["name"] == "Settings")
        x, y = item["frame"][0] + item["frame"][2] / 2, item["frame"][1] + item["frame"][3] / 2
        await client.pointer("down", x, y, 5000)
        await client.pointer("up", x, y, 5080)
        await client.wait_event("viewDidAppear", since=start, screen="Settings")
        assert lifecycle(client.events(start)) == [
            ("viewDidLoad", "Settings"), ("viewWillAppear", "Settings"),
            ("viewWillDisappear", "Artists"), ("viewWillDisappear", "Albums"), ("viewWillDisappear", "Tracks"),
            ("viewDidDisappear", "Artists"), ("viewDidDisappear", "Albums"), ("viewDidDisappear", "Tracks"),
            ("viewDidAppear", "Settings")], client.events(start)
        await client.close()
    run(body())


def test_a_page_stack_in_a_splits_page_takes_page_commands(server):
    async def body():
        client = await session(server.ws_url, viewport=VIEWPORT)
        root = {"kind": "split", "id": "library", "root": half("Map", pages={"root": {"name": "Cards"}, "top": 100})}
        assert await client.ok("setRoot", root=root) == {"root": "split"}
        await client.ok("subscribe", events=["lifecycle", "page"])
        await client.settle()
        start = client.mark()
        assert await client.ok("page", action="push", page={"name": "Detail"}) == {"page": "Detail"}
        await client.settle()
        assert [e["name"] for e in client.events(start)] == ["pageWillHide", "pageDidShow"]
        state = await client.state()
        assert state["kind"] == "split" and state["id"] == "library"
        assert state["stack"][0]["pages"] == ["Cards", "Detail"]
        frame = client.find(role="subpage", name="Detail")[0]["frame"]
        assert frame == [(W - HALF) / 2, 100, HALF, H - 100], frame
        await client.close()
    run(body())


def test_a_container_in_a_place_it_cannot_go_is_refused_with_its_path(server):
    async def body():
        client = await nested_app(server.ws_url)
        before = await client.state()
        inner = {"kind": "tabs", "tabs": [{"id": "x", "title": "X", "root": {"name": "X"}}]}
        cases = [
            ({"kind": "tabs", "tabs": [{"id": "a", "title": "A", "root": {"name": "A"}},
                                       {"id": "b", "title": "B", "root": inner}]},
             "root.tabs[1].root.kind: a tab holds a stack of pages, not tabs"),
            ({"kind": "tabs", "tabs": [{"id": "a", "title": "A", "root": {"kind": "grid"}}]},
             'root.tabs[0].root.kind: expected stack, tabs, sideTabs or split, got "grid"'),
            ({"kind": "split"}, "root.root: missing; expected an object"),
        ]
        for root, message in cases:
            assert error(await client.command("setRoot", root=root), "bad_message") == message
        assert await client.state() == before
        await client.close()
    run(body())
