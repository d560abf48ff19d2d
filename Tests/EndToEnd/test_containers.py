"""Tab bars, cross-stack targets, hidesBottomBar, link views, page stacks and drags on pages
pushed without animation, through the protocol (docs/protocol.md §5 and §8).

Every test sets its own app with `setRoot` (the built-in apps change). The viewport is a phone
with a safe area: 390 x 844, top 47, bottom 34, so the tab bar is 49 + 34 = 83 pt high at
y = 761. Geometry is read from the display list the client builds from the frames; transitions
that are checked frame by frame run in slow motion with every frame's list kept."""

from stackcast_client import W, H, centre, lifecycle, run, session

SAFE_TOP, SAFE_BOTTOM = 47, 34
VIEWPORT = {"width": W, "height": H, "scale": 3, "safeArea": {"top": SAFE_TOP, "bottom": SAFE_BOTTOM}}
BAR_HEIGHT = 49
BAR_Y = H - BAR_HEIGHT - SAFE_BOTTOM          # 761
EPS = 0.02                                    # frames are rounded to 0.01 on the wire
Y = 400                                       # drags happen here, below any row the tests use

TABS = [
    {"id": "home", "title": "Home", "icon": "house", "root": {"name": "HomeRoot"}},
    {"id": "mail", "title": "Mail", "icon": "envelope", "badge": "5", "root": {"name": "MailRoot"}},
    {"id": "news", "title": "News", "badge": "128", "badgeColor": "#34C759", "root": {"name": "NewsRoot"}},
    {"id": "more", "title": "More", "root": {"name": "MoreRoot"}},
]
ITEM = W / len(TABS)                          # 97.5


def tabs_root(tabs=TABS, selected=0):
    return {"kind": "tabs", "tabs": tabs, "selected": selected}


async def tab_app(url, tabs=TABS, selected=0, events=("lifecycle", "transition")):
    """A session on the phone viewport running a tab bar app, subscribed to `events`, settled."""
    client = await session(url, viewport=VIEWPORT)
    assert await client.ok("setRoot", root=tabs_root(tabs, selected)) == {"root": "tabs"}
    if events:
        await client.ok("subscribe", events=list(events))
    await client.settle()
    return client


async def stack_app(url, root, events=("lifecycle", "transition")):
    client = await session(url, viewport=VIEWPORT)
    assert await client.ok("setRoot", root={"kind": "stack", "id": "main", "root": root}) == {"root": "stack"}
    if events:
        await client.ok("subscribe", events=list(events))
    await client.settle()
    return client


def one(client, role, name=None):
    found = client.find(role=role, name=name)
    assert len(found) == 1, f"expected one {role} node named {name}, got {found}"
    return found[0]


def near(a, b, eps=EPS):
    return abs(a - b) <= eps


def frame_near(frame, expected, eps=EPS):
    return len(frame) == 4 and all(near(a, b, eps) for a, b in zip(frame, expected))


def in_list(nodes, role, name=None):
    return [n for n in nodes if n.get("role") == role and (name is None or n.get("name") == name)]


def screens(state_stack):
    return [page["screen"] for page in state_stack]


def error(reply, code):
    assert reply["type"] == "error" and reply["code"] == code, reply
    return reply["message"]


def appearance_only(events):
    """Lifecycle events without viewDidLoad/released, as (name, screen)."""
    return [pair for pair in lifecycle(events) if pair[0] not in ("viewDidLoad", "released")]


def flow(events):
    """Lifecycle and gesture events as (name, screen) pairs; gesture events as (name, None)."""
    return [(e["name"], e.get("screen") if e["name"] not in ("gestureBegan", "gestureEnded") else None)
            for e in events if e["name"] not in ("transitionStart", "transitionEnd")]


async def tap(client, x, y, t0=5000.0):
    await client.pointer("down", x, y, t0)
    await client.pointer("up", x, y, t0 + 80)


def slow(start, end, step=3):
    """Positions from start to end, `step` pt apart (3 pt per 16 ms: no fling)."""
    direction = 1 if end >= start else -1
    return list(range(start, end, direction * step)) + [end]


async def drag(client, xs, y=Y, t0=1000.0, step=16.0, up=True):
    t = t0
    await client.pointer("down", xs[0], y, t)
    for x in xs[1:]:
        t += step
        await client.pointer("move", x, y, t, samples=[[x, y, t]])
    if up:
        await client.pointer("up", xs[-1], y, t)
    return t


# MARK: the tab bar


def test_tabs_root_draws_the_tab_bar_items_and_badges_and_reports_its_state(server):
    async def body():
        client = await tab_app(server.ws_url, events=())
        bar = one(client, "tabbar")
        assert bar["frame"] == [0, BAR_Y, W, BAR_HEIGHT + SAFE_BOTTOM], bar
        items = client.find(role="tab")
        assert [i["name"] for i in items] == ["Home", "Mail", "News", "More"], items
        for index, item in enumerate(items):
            assert frame_near(item["frame"], [index * ITEM, BAR_Y, ITEM, BAR_HEIGHT]), (index, item)
        # Badges: Mail (red by default) and News (its own colour); none on Home and More.
        badges = client.find(role="badge")
        assert [b["name"] for b in badges] == ["Mail", "News"], badges
        for badge, index, text, fill in [(badges[0], 1, "5", "#FF3B30"), (badges[1], 2, "128", "#34C759")]:
            x, y, w, h = badge["frame"]
            assert near(x, index * ITEM + ITEM / 2 + 5) and y == BAR_Y + 2 and h == 18 and w >= 18, badge
            assert badge["fill"] == fill and badge.get("radius") == 9, badge
            # One node: the pill with its text on it.
            assert badge["kind"] == "text" and badge.get("text") == text and badge.get("color") == "#FFFFFF", badge
        # Only the selected tab's root page is drawn, under the bar.
        assert [(p["name"], p["frame"]) for p in client.pages()] == [("HomeRoot", [0, 0, W, H])]
        assert client.order.index(bar["id"]) > client.order.index(client.pages()[0]["id"])

        state = await client.state()
        assert set(state) == {"kind", "selected", "barVisible", "tabs"}, state
        assert (state["kind"], state["selected"], state["barVisible"]) == ("tabs", 0, True), state
        assert [(t["id"], t["title"], t["badge"]) for t in state["tabs"]] == [
            ("home", "Home", None), ("mail", "Mail", "5"), ("news", "News", "128"), ("more", "More", None)]
        for tab in state["tabs"]:
            assert set(tab) == {"id", "title", "badge", "stack"}, tab
            assert len(tab["stack"]) == 1, tab
        home = state["tabs"][0]["stack"][0]
        assert home["screen"] == "HomeRoot" and home["title"] == "HomeRoot" and home["appearance"] == "appeared"
        assert home["frame"] == [0, 0, W, H] and home["transition"] == "slide" and home["vc"] == client.pages()[0]["vc"]
        assert [t["stack"][0]["appearance"] for t in state["tabs"][1:]] == ["disappeared"] * 3
        vcs = [t["stack"][0]["vc"] for t in state["tabs"]]
        assert len(set(vcs)) == 4 and all(vc.startswith("vc") for vc in vcs), vcs

        # A new viewport lays the bar out again: landscape with a smaller safe area.
        await client.send({"type": "resize", "width": 844, "height": 390, "scale": 3,
                           "safeArea": {"left": 47, "right": 47, "bottom": 21}})
        await client.wait_until(lambda: one(client, "tabbar")["frame"] == [0, 390 - BAR_HEIGHT - 21, 844, BAR_HEIGHT + 21],
                                what="the tab bar laid out for 844 x 390")
        assert [i["frame"] for i in client.find(role="tab")] == [[i * 211, 320, 211, BAR_HEIGHT] for i in range(4)]
        assert one(client, "badge", "Mail")["frame"][:2] == [211 + 105.5 + 5, 322]
        await client.send({"type": "resize", **VIEWPORT})
        await client.wait_until(lambda: one(client, "tabbar")["frame"] == [0, BAR_Y, W, BAR_HEIGHT + SAFE_BOTTOM],
                                what="the tab bar back in portrait")

        # `selected` picks the first tab shown.
        assert await client.ok("setRoot", root=tabs_root(selected=2)) == {"root": "tabs"}
        await client.settle()
        assert (await client.state())["selected"] == 2
        assert [p["name"] for p in client.pages()] == ["NewsRoot"]
        await client.close()
    run(body())


def test_tabs_root_validation(server):
    async def body():
        client = await session(server.ws_url, viewport=VIEWPORT)
        six = [{"id": f"t{i}", "title": f"T{i}", "root": {"name": f"R{i}"}} for i in range(6)]
        message = error(await client.command("setRoot", root=tabs_root(six)), "bad_message")
        assert message.startswith("root.tabs[5]:"), message
        assert await client.ok("setRoot", root=tabs_root(six[:5])) == {"root": "tabs"}
        duplicate = [six[0], {**six[1], "id": "t0"}]
        message = error(await client.command("setRoot", root=tabs_root(duplicate)), "bad_message")
        assert message.startswith("root.tabs[1].id:") and "t0" in message, message
        error(await client.command("setRoot", root=tabs_root([])), "bad_message")
        message = error(await client.command("setRoot", root=tabs_root(six[:2], selected=2)), "bad_message")
        assert message.startswith("root.selected:"), message
        message = error(await client.command("setRoot", root={"kind": "tabs", "tabs": [{"id": "a", "root": {"name": "A"}}]}),
                        "bad_message")
        assert message.startswith("root.tabs[0].title:"), message
        side = {"kind": "sideTabs", "tabs": six, "selected": 0}
        assert error(await client.command("setRoot", root=side), "bad_message").startswith("root.tabs[5]:")
        # The five-tab app set above is still there.
        assert [t["id"] for t in (await client.state())["tabs"]] == ["t0", "t1", "t2", "t3", "t4"]
        await client.close()
    run(body())


def test_select_tab_by_index_and_name_with_uikit_callback_order(server):
    async def body():
        client = await tab_app(server.ws_url)
        state = await client.state()
        vcs = [t["stack"][0]["vc"] for t in state["tabs"]]

        start = client.mark()
        value = await client.ok("selectTab", index=1)
        assert value == {"tab": 1, "id": "mail", "vc": vcs[1]}, value
        # The tab's root page loads the first time the tab is shown, before it appears.
        assert lifecycle(client.events(start)) == [
            ("viewDidLoad", "MailRoot"), ("viewWillAppear", "MailRoot"), ("viewWillDisappear", "HomeRoot"),
            ("viewDidDisappear", "HomeRoot"), ("viewDidAppear", "MailRoot")], client.events(start)
        assert [e for e in client.events(start) if e["name"].startswith("transition")] == []
        await client.settle()
        assert [p["name"] for p in client.pages()] == ["MailRoot"]
        assert one(client, "tabbar")["frame"] == [0, BAR_Y, W, BAR_HEIGHT + SAFE_BOTTOM]

        # By name: a tab's id or its title. Home was loaded already: no viewDidLoad this time.
        start = client.mark()
        assert await client.ok("selectTab", name="home") == {"tab": 0, "id": "home", "vc": vcs[0]}
        assert lifecycle(client.events(start)) == [
            ("viewWillAppear", "HomeRoot"), ("viewWillDisappear", "MailRoot"),
            ("viewDidDisappear", "MailRoot"), ("viewDidAppear", "HomeRoot")], client.events(start)
        assert await client.ok("selectTab", name="News") == {"tab": 2, "id": "news", "vc": vcs[2]}
        state = await client.state()
        assert state["selected"] == 2
        assert [t["stack"][0]["appearance"] for t in state["tabs"]] == ["disappeared", "disappeared", "appeared", "disappeared"]

        # Selecting the selected tab at its root changes nothing.
        start = client.mark()
        assert await client.ok("selectTab", index=2) == {"tab": 2, "id": "news", "vc": vcs[2]}
        assert client.events(start) == []

        for fields in [{"index": 4}, {"index": -1}, {"name": "nope"}]:
            error(await client.command("selectTab", **fields), "not_found")
        message = error(await client.command("selectTab"), "bad_message")
        assert message.startswith("index:"), message
        assert (await client.state())["selected"] == 2
        await client.close()
    run(body())


def test_selecting_the_selected_tab_pops_its_stack_to_the_root(server):
    async def body():
        client = await tab_app(server.ws_url)
        for name in ["A", "B"]:
            await client.ok("push", screen={"name": name})
        root_vc = (await client.state())["tabs"][0]["stack"][0]["vc"]
        start = client.mark()
        reply_id = await client.send_command("selectTab", index=0)
        reply = await client.reply(reply_id)
        assert reply["type"] == "result" and reply["value"] == {"tab": 0, "id": "home", "vc": root_vc}, reply
        messages = client.messages(start)
        ends = [m for m in messages if m["type"] == "event" and m["name"] == "transitionEnd"]
        starts = [m for m in messages if m["type"] == "event" and m["name"] == "transitionStart"]
        assert [(e["op"], e["interactive"]) for e in starts] == [("popToRoot", False)], starts
        assert messages.index(reply) > messages.index(ends[0]), "the result came before the pop finished"
        assert lifecycle(client.events(start))[:4] == [
            ("viewWillDisappear", "B"), ("viewWillAppear", "HomeRoot"), ("viewDidDisappear", "B"), ("viewDidAppear", "HomeRoot")]
        # Animated: the pages moved over several frames.
        assert len(client.messages(start, "frame")) >= 5
        await client.settle()
        assert screens((await client.state())["tabs"][0]["stack"]) == ["HomeRoot"]
        assert [(p["name"], p["frame"][0]) for p in client.pages()] == [("HomeRoot", 0)]
        await client.close()
    run(body())


def test_a_tap_on_a_tab_item_selects_it(server):
    async def body():
        client = await tab_app(server.ws_url)
        start = client.mark()
        await tap(client, *centre(one(client, "tab", "News")))
        await client.wait_event("viewDidAppear", since=start, screen="NewsRoot")
        await client.settle()
        state = await client.state()
        assert state["selected"] == 2
        assert [p["name"] for p in client.pages()] == ["NewsRoot"]
        # A tap on the badge, inside the Mail item, selects Mail.
        start = client.mark()
        x, y, w, h = one(client, "badge", "Mail")["frame"]
        await tap(client, x + w / 2, y + h / 2, t0=9000)
        await client.wait_event("viewDidAppear", since=start, screen="MailRoot")
        assert (await client.state())["selected"] == 1
        # A tap on the selected item with pages pushed pops to the root, like selectTab.
        await client.ok("push", screen={"name": "Deep"})
        await client.settle()
        start = client.mark()
        await tap(client, *centre(one(client, "tab", "Mail")), t0=12000)
        await client.wait_event("released", since=start, screen="Deep")
        await client.settle()
        assert screens((await client.state())["tabs"][1]["stack"]) == ["MailRoot"]
        await client.close()
    run(body())


def test_set_badge_changes_the_badge_node(server):
    async def body():
        client = await tab_app(server.ws_url, events=())
        vcs = [t["stack"][0]["vc"] for t in (await client.state())["tabs"]]
        assert await client.ok("setBadge", index=0, badge="3") == {"tab": 0, "id": "home", "vc": vcs[0]}
        await client.settle()
        badge = one(client, "badge", "Home")
        assert near(badge["frame"][0], ITEM / 2 + 5) and badge["frame"][1] == BAR_Y + 2 and badge["frame"][3] == 18
        assert badge["fill"] == "#FF3B30", badge
        assert [n for n in client.display_list() if n.get("text") == "3"], "no text node with the new badge"

        # Omitting `badge` removes it; by name (title or id).
        assert await client.ok("setBadge", name="Mail") == {"tab": 1, "id": "mail", "vc": vcs[1]}
        await client.settle()
        assert client.find(role="badge", name="Mail") == []
        assert not [n for n in client.display_list() if n.get("text") == "5"]

        # A colour; a longer text.
        assert await client.ok("setBadge", name="more", badge="new", badgeColor="#007AFF") == {"tab": 3, "id": "more", "vc": vcs[3]}
        await client.settle()
        badge = one(client, "badge", "More")
        assert badge["fill"] == "#007AFF" and near(badge["frame"][0], 3 * ITEM + ITEM / 2 + 5), badge
        assert [n for n in client.display_list() if n.get("text") == "new"]

        state = await client.state()
        assert [t["badge"] for t in state["tabs"]] == ["3", None, "128", "new"], state
        error(await client.command("setBadge", index=9, badge="1"), "not_found")
        error(await client.command("setBadge", name="nope", badge="1"), "not_found")
        message = error(await client.command("setBadge", index=0, badgeColor="red"), "bad_message")
        assert message.startswith("badgeColor:"), message
        await client.close()
    run(body())


def test_select_tab_and_set_badge_in_a_stack_app_are_not_found(server):
    async def body():
        client = await stack_app(server.ws_url, {"name": "Only"}, events=())
        error(await client.command("selectTab", index=0), "not_found")
        error(await client.command("setBadge", index=0, badge="1"), "not_found")
        message = error(await client.command("push", screen={"name": "X"}, target={"tab": 0}), "not_found")
        assert '{"tab":0}' in message, message
        assert screens((await client.state())["stack"]) == ["Only"]
        await client.close()
    run(body())


def test_each_tab_keeps_its_stack(server):
    async def body():
        client = await tab_app(server.ws_url)
        a = await client.ok("push", screen={"name": "A"})
        await client.ok("selectTab", index=1)
        b = await client.ok("push", screen={"name": "B"})
        await client.ok("push", screen={"name": "C"})
        start = client.mark()
        await client.ok("selectTab", index=0)
        # The tops of the two stacks swap: A comes back, C goes; nothing else gets callbacks.
        assert lifecycle(client.events(start)) == [
            ("viewWillAppear", "A"), ("viewWillDisappear", "C"), ("viewDidDisappear", "C"), ("viewDidAppear", "A")]
        await client.settle()
        assert [(p["name"], p["vc"], p["frame"][0]) for p in client.pages()] == [("A", a["vc"], 0)]
        assert one(client, "back")  # A still has its back button
        state = await client.state()
        assert screens(state["tabs"][0]["stack"]) == ["HomeRoot", "A"]
        assert screens(state["tabs"][1]["stack"]) == ["MailRoot", "B", "C"]
        assert state["tabs"][1]["stack"][1]["vc"] == b["vc"]
        assert [p["appearance"] for p in state["tabs"][1]["stack"]] == ["disappeared"] * 3
        # Commands without a target act on the selected tab's stack.
        await client.ok("pop")
        state = await client.state()
        assert screens(state["tabs"][0]["stack"]) == ["HomeRoot"]
        assert screens(state["tabs"][1]["stack"]) == ["MailRoot", "B", "C"]
        await client.close()
    run(body())


def test_stack_commands_with_a_target_act_on_a_hidden_tab_at_once(server):
    async def body():
        client = await tab_app(server.ws_url)
        await client.ok("configure", slowMotion=4)   # a visible push would take 1.36 s
        shown = [(p["name"], p["id"]) for p in client.pages()]

        start = client.mark()
        hidden1 = await client.ok("push", screen={"name": "Hidden1"}, target={"tab": 1})
        hidden2 = await client.ok("push", screen={"name": "Hidden2"}, target={"stack": "mail"})
        # Nothing animated: no transition events, no callbacks, and not one frame for the pushes.
        assert client.events(start) == [], client.events(start)
        assert client.messages(start, "frame") == [], "a push on a hidden stack must not animate"
        state = await client.state()
        assert state["selected"] == 0
        assert screens(state["tabs"][1]["stack"]) == ["MailRoot", "Hidden1", "Hidden2"]
        assert [p["vc"] for p in state["tabs"][1]["stack"][1:]] == [hidden1["vc"], hidden2["vc"]]
        assert [p["appearance"] for p in state["tabs"][1]["stack"]] == ["disappeared"] * 3
        assert "transition" not in state["tabs"][1]
        assert [(p["name"], p["id"]) for p in client.pages()] == shown

        # A pop there: no appearance callbacks; the popped page is released.
        start = client.mark()
        assert await client.ok("pop", target={"stack": "mail"}) == {"vc": hidden1["vc"]}
        assert appearance_only(client.events(start)) == []
        assert [e["name"] for e in client.events(start) if e["name"].startswith("transition")] == []
        assert ("released", "Hidden2") in lifecycle(client.events(start))
        assert screens((await client.state())["tabs"][1]["stack"]) == ["MailRoot", "Hidden1"]

        # Shown later: the new top loads and appears then.
        start = client.mark()
        await client.ok("selectTab", index=1)
        assert lifecycle(client.events(start)) == [
            ("viewDidLoad", "Hidden1"), ("viewWillAppear", "Hidden1"), ("viewWillDisappear", "HomeRoot"),
            ("viewDidDisappear", "HomeRoot"), ("viewDidAppear", "Hidden1")]
        await client.settle()
        assert [(p["name"], p["frame"][0]) for p in client.pages()] == [("Hidden1", 0)]
        assert one(client, "back")
        await client.close()
    run(body())


def test_a_target_with_select_selects_the_tab_then_animates(server):
    async def body():
        client = await tab_app(server.ws_url)
        start = client.mark()
        reply_id = await client.send_command("push", screen={"name": "Sel"}, target={"tab": 2}, select=True)
        reply = await client.reply(reply_id)
        assert reply["type"] == "result", reply
        events = client.events(start)
        assert flow(events) == [
            ("viewDidLoad", "NewsRoot"), ("viewWillAppear", "NewsRoot"), ("viewWillDisappear", "HomeRoot"),
            ("viewDidDisappear", "HomeRoot"), ("viewDidAppear", "NewsRoot"),
            ("viewDidLoad", "Sel"), ("viewWillDisappear", "NewsRoot"), ("viewWillAppear", "Sel"),
            ("viewDidDisappear", "NewsRoot"), ("viewDidAppear", "Sel")], flow(events)
        assert [(e["name"], e.get("op")) for e in events if e["name"].startswith("transition")] == [
            ("transitionStart", "push"), ("transitionEnd", "push")]
        messages = client.messages(start)
        assert messages.index(reply) > messages.index(next(e for e in events if e["name"] == "transitionEnd"))
        await client.settle()
        state = await client.state()
        assert state["selected"] == 2 and screens(state["tabs"][2]["stack"]) == ["NewsRoot", "Sel"]
        assert [(p["name"], p["frame"][0]) for p in client.pages()] == [("Sel", 0)]

        # A target naming the visible stack animates with callbacks as without a target.
        start = client.mark()
        await client.ok("pop", target={"stack": "news"})
        assert appearance_only(client.events(start)) == [
            ("viewWillDisappear", "Sel"), ("viewWillAppear", "NewsRoot"), ("viewDidDisappear", "Sel"), ("viewDidAppear", "NewsRoot")]

        # popTo, popToRoot, replaceTop and setStack take targets too.
        await client.ok("setStack", screens=[{"name": "MailRoot"}, {"name": "M1"}, {"name": "M2"}], target={"tab": 1})
        assert screens((await client.state())["tabs"][1]["stack"]) == ["MailRoot", "M1", "M2"]
        await client.ok("replaceTop", screen={"name": "M3"}, target={"tab": 1})
        await client.ok("popTo", name="M1", target={"stack": "mail"})
        assert screens((await client.state())["tabs"][1]["stack"]) == ["MailRoot", "M1"]
        await client.ok("popToRoot", target={"tab": 1})
        assert screens((await client.state())["tabs"][1]["stack"]) == ["MailRoot"]
        assert (await client.state())["selected"] == 2
        await client.close()
    run(body())


def test_unknown_targets_and_select_without_target(server):
    async def body():
        client = await tab_app(server.ws_url, events=())
        message = error(await client.command("push", screen={"name": "X"}, target={"tab": 7}), "not_found")
        assert '{"tab":7}' in message, message
        message = error(await client.command("pop", target={"stack": "nope"}), "not_found")
        assert '{"stack":"nope"}' in message, message
        message = error(await client.command("push", screen={"name": "X"}, target={"tab": 7}, select=True), "not_found")
        assert '{"tab":7}' in message, message
        message = error(await client.command("push", screen={"name": "X"}, select=True), "bad_message")
        assert message.startswith("select:"), message
        error(await client.command("push", screen={"name": "X"}, target={"window": 1}), "bad_message")
        state = await client.state()
        assert state["selected"] == 0 and [len(t["stack"]) for t in state["tabs"]] == [1, 1, 1, 1]
        await client.close()
    run(body())


def test_state_frames_of_pages_in_a_tab_never_shown(server):
    """A page that is not on screen reports the stack's bounds as its frame (§8): for a tab
    bar app that is the viewport, whether or not the tab has been shown yet."""
    async def body():
        client = await tab_app(server.ws_url, events=())
        await client.ok("push", screen={"name": "Later"}, target={"tab": 3})
        state = await client.state()
        frames = [(t["id"], p["screen"], p["frame"]) for t in state["tabs"] for p in t["stack"]]
        assert frames == [("home", "HomeRoot", [0, 0, W, H]), ("mail", "MailRoot", [0, 0, W, H]),
                          ("news", "NewsRoot", [0, 0, W, H]), ("more", "MoreRoot", [0, 0, W, H]),
                          ("more", "Later", [0, 0, W, H])], frames
        await client.close()
    run(body())


# MARK: hidesBottomBar and the link view


def test_hides_bottom_bar_push_takes_the_bar_with_the_covered_page_and_pop_brings_it_back(server):
    async def body():
        client = await tab_app(server.ws_url)
        await client.ok("configure", slowMotion=4)
        client.display.keep_snapshots = True

        start = client.mark()
        pushed = await client.ok("push", screen={"name": "Hider", "hidesBottomBar": True}, timeout=15)
        await client.settle()
        lists = client.frames_since(start)
        moving = 0
        for nodes in lists:
            bars, home = in_list(nodes, "tabbar"), in_list(nodes, "page", "HomeRoot")
            if bars and home:
                assert near(bars[0]["frame"][0], home[0]["frame"][0]), (bars[0]["frame"], home[0]["frame"])
                assert near(bars[0]["frame"][1], BAR_Y), bars[0]
                moving += home[0]["frame"][0] < -20
        assert moving >= 5, f"the bar was seen travelling with the covered page in {moving} frames only"
        assert client.find(role="tabbar") == [], "the bar is still drawn under a page that hides it"
        assert [(p["name"], p["frame"]) for p in client.pages()] == [("Hider", [0, 0, W, H])]
        state = await client.state()
        assert state["barVisible"] is False and state["tabs"][0]["stack"][1]["vc"] == pushed["vc"]

        # A page pushed after it keeps the bar hidden, in every frame.
        start = client.mark()
        await client.ok("push", screen={"name": "After"}, timeout=15)
        await client.settle()
        assert all(not in_list(nodes, "tabbar") for nodes in client.frames_since(start))
        assert (await client.state())["barVisible"] is False
        start = client.mark()
        await client.ok("pop", timeout=15)
        await client.settle()
        assert all(not in_list(nodes, "tabbar") for nodes in client.frames_since(start))

        # Popping the hiding page: the bar comes back on the uncovered page.
        start = client.mark()
        await client.ok("pop", timeout=15)
        await client.settle()
        moving = 0
        for nodes in client.frames_since(start):
            bars, home = in_list(nodes, "tabbar"), in_list(nodes, "page", "HomeRoot")
            if home and in_list(nodes, "page", "Hider"):
                assert bars, "mid-pop, the uncovered page has no tab bar"
                assert near(bars[0]["frame"][0], home[0]["frame"][0]), (bars[0]["frame"], home[0]["frame"])
                moving += home[0]["frame"][0] < -20
        assert moving >= 5, moving
        assert one(client, "tabbar")["frame"] == [0, BAR_Y, W, BAR_HEIGHT + SAFE_BOTTOM]
        assert (await client.state())["barVisible"] is True
        await client.close()
    run(body())


def test_pop_to_root_from_a_page_above_a_hider_brings_the_bar_back_with_the_root(server):
    """The page on top hides the bar only because a page below it (also popped) asked to: the
    bar must still come back with the uncovered root, not appear in place at once."""
    async def body():
        client = await tab_app(server.ws_url)
        await client.ok("push", screen={"name": "Hider", "hidesBottomBar": True})
        await client.ok("push", screen={"name": "Above"})
        await client.settle()
        assert client.find(role="tabbar") == []
        await client.ok("configure", slowMotion=4)
        for how in ["popToRoot", "selectTab"]:
            client.display.keep_snapshots = True
            start = client.mark()
            if how == "popToRoot":
                await client.ok("popToRoot", timeout=15)
            else:
                await client.ok("selectTab", index=0, timeout=15)
            await client.settle()
            mid = []
            for nodes in client.frames_since(start):
                home, above = in_list(nodes, "page", "HomeRoot"), in_list(nodes, "page", "Above")
                if home and above and home[0]["frame"][0] < -20:
                    bars = in_list(nodes, "tabbar")
                    mid.append((bars[0]["frame"][0] if bars else None, home[0]["frame"][0]))
            assert len(mid) >= 5, mid
            wrong = [(bar, home) for bar, home in mid if bar is None or not near(bar, home)]
            assert wrong == [], f"{how}: (tab bar x, HomeRoot x) mid-pop, where they differ: {wrong[:5]} ..."
            assert one(client, "tabbar")["frame"] == [0, BAR_Y, W, BAR_HEIGHT + SAFE_BOTTOM]
            # Again, by the other way.
            await client.ok("configure", slowMotion=1)
            await client.ok("push", screen={"name": "Hider", "hidesBottomBar": True})
            await client.ok("push", screen={"name": "Above"})
            await client.settle()
            await client.ok("configure", slowMotion=4)
        await client.close()
    run(body())


def test_the_tab_bar_follows_the_covered_page_during_an_interactive_pop(server):
    async def body():
        client = await tab_app(server.ws_url, events=("lifecycle", "transition", "gesture"))
        await client.ok("push", screen={"name": "Hider", "hidesBottomBar": True})
        await client.settle()
        assert client.find(role="tabbar") == []
        client.display.keep_snapshots = True

        def bar_follows_home(since):
            seen = 0
            for nodes in client.frames_since(since):
                home, hider = in_list(nodes, "page", "HomeRoot"), in_list(nodes, "page", "Hider")
                if home and hider:
                    bars = in_list(nodes, "tabbar")
                    assert bars, "the uncovered page has no tab bar during the drag"
                    assert near(bars[0]["frame"][0], home[0]["frame"][0]) and near(bars[0]["frame"][1], BAR_Y), \
                        (bars[0]["frame"], home[0]["frame"])
                    seen += 1
            return seen

        # Dragged to 120 and released slowly: cancelled, the bar goes away again.
        start = client.mark()
        await drag(client, slow(20, 120))
        await client.wait_event("gestureEnded", since=start, cancelled=True)
        await client.settle()
        assert bar_follows_home(start) >= 3
        assert client.find(role="tabbar") == []
        state = await client.state()
        assert state["barVisible"] is False and screens(state["tabs"][0]["stack"]) == ["HomeRoot", "Hider"]

        # Held at 200: the bar sits on the covered page, which follows the finger at a third.
        start = client.mark()
        t = await drag(client, slow(20, 200), up=False, t0=20000)
        await client.wait_event("gestureBegan", since=start)
        await client.settle(quiet=0.3)
        hider = one(client, "page", "Hider")["frame"][0]
        home = one(client, "page", "HomeRoot")["frame"][0]
        bar = one(client, "tabbar")["frame"]
        assert 165 <= hider <= 181, hider
        assert near(home, (hider - W) / 3), (home, hider)
        assert near(bar[0], home) and near(bar[1], BAR_Y), (bar, home)
        assert (await client.state())["tabs"][0]["transition"] == {"op": "pop", "interactive": True}
        for x in slow(203, 300):
            t += 16
            await client.pointer("move", x, Y, t, samples=[[x, Y, t]])
        await client.pointer("up", 300, Y, t)
        await client.wait_event("gestureEnded", since=start, cancelled=False)
        await client.settle()
        assert bar_follows_home(start) >= 3
        assert one(client, "tabbar")["frame"] == [0, BAR_Y, W, BAR_HEIGHT + SAFE_BOTTOM]
        state = await client.state()
        assert state["barVisible"] is True and screens(state["tabs"][0]["stack"]) == ["HomeRoot"]
        await client.close()
    run(body())


def test_a_hidden_tab_remembers_that_its_top_hides_the_bar(server):
    async def body():
        client = await tab_app(server.ws_url, events=())
        await client.ok("push", screen={"name": "Hider", "hidesBottomBar": True}, target={"tab": 1})
        assert (await client.state())["barVisible"] is True
        await client.ok("selectTab", index=1)
        await client.settle()
        assert client.find(role="tabbar") == []
        assert (await client.state())["barVisible"] is False
        await client.ok("selectTab", index=0)
        await client.settle()
        assert one(client, "tabbar")["frame"] == [0, BAR_Y, W, BAR_HEIGHT + SAFE_BOTTOM]
        assert (await client.state())["barVisible"] is True
        await client.close()
    run(body())


def test_link_view_sits_above_the_safe_area_and_the_tab_bar_and_moves_with_its_page(server):
    async def body():
        link = {"height": 40, "fill": "#FFCC00", "text": "Open"}
        tabs = [{"id": "home", "title": "Home", "root": {"name": "Linked", "link": link}},
                {"id": "more", "title": "More", "root": {"name": "MoreRoot"}}]
        client = await tab_app(server.ws_url, tabs=tabs, events=())
        node = one(client, "link", "Open")
        assert node["frame"] == [0, H - SAFE_BOTTOM - BAR_HEIGHT - 40, W, 40], node
        assert node["fill"] == "#FFCC00" and node["text"] == "Open", node

        # On a page that hides the bar, the link sits right above the safe area.
        await client.ok("configure", slowMotion=4)
        client.display.keep_snapshots = True
        start = client.mark()
        await client.ok("push", screen={"name": "Bare", "hidesBottomBar": True, "link": {"height": 60, "text": "Bottom"}},
                        timeout=15)
        await client.settle()
        moving = 0
        for nodes in client.frames_since(start):
            page, links = in_list(nodes, "page", "Bare"), in_list(nodes, "link", "Bottom")
            if page and links:
                assert near(links[0]["frame"][0], page[0]["frame"][0]), (links[0], page[0])
                assert near(links[0]["frame"][1], H - SAFE_BOTTOM - 60), links[0]
                moving += 20 < page[0]["frame"][0] < W - 20
        assert moving >= 5, moving
        assert one(client, "link", "Bottom")["frame"] == [0, H - SAFE_BOTTOM - 60, W, 60]
        assert one(client, "link", "Bottom")["fill"] == "#F9F9F9"

        # In a stack app there is no tab bar: above the safe area.
        await client.ok("configure", slowMotion=1)
        await client.ok("setRoot", root={"kind": "stack", "root": {"name": "Solo", "link": {"text": "Solo link", "fill": "#1C1C6E"}}})
        await client.settle()
        solo = one(client, "link", "Solo link")
        assert solo["frame"] == [0, H - SAFE_BOTTOM - 49, W, 49], solo
        # Text colour: white on a dark fill, black on a light one.
        assert (solo["color"], node["color"]) == ("#FFFFFF", "#000000"), (solo, node)
        await client.close()
    run(body())


# MARK: page stacks


PAGES_HOST = {"name": "Host", "pages": {"root": {"name": "P1", "fill": "#FF0000", "title": "One"}, "top": 100, "bottom": 50}}
STACK_HEIGHT = H - 100 - 50


async def page_app(url, host=PAGES_HOST):
    return await stack_app(url, host, events=("lifecycle", "transition", "page"))


def page_event_times(client, since):
    """(name, screen, session time) of the page events since `since`."""
    return [(e["name"], e.get("screen"), e["time"]) for e in client.events(since) if e["name"].startswith("page")]


def at_once(client, since, hidden, shown):
    """Checks that the page change since `since` did not animate: pageWillHide and pageDidShow
    came at the same moment of the session clock."""
    events = page_event_times(client, since)
    assert [(n, s) for n, s, _ in events] == [("pageWillHide", hidden), ("pageDidShow", shown)], events
    assert events[0][2] == events[1][2], f"the change took {events[1][2] - events[0][2]} ms: {events}"


def subpages(nodes):
    return [(n["name"], n["frame"][0]) for n in nodes if n.get("role") == "subpage"]


def test_page_stack_nodes_and_the_push_carousel(server):
    async def body():
        client = await page_app(server.ws_url)
        host_vc = client.pages()[0]["vc"]
        stack = one(client, "pagestack")
        assert stack["frame"] == [0, 100, W, STACK_HEIGHT], stack
        page = one(client, "subpage", "P1")
        assert page["frame"] == [0, 100, W, STACK_HEIGHT] and page["fill"] == "#FF0000", page
        assert client.order.index(page["id"]) > client.order.index(stack["id"])
        title = [n for n in client.display_list() if n.get("text") == "One"]
        assert title and title[0]["frame"][1] > 100, title
        state = await client.state()
        assert state["stack"][0]["pages"] == ["P1"] and "pagesAnimating" not in state["stack"][0], state

        await client.ok("configure", slowMotion=4)
        client.display.keep_snapshots = True
        start = client.mark()
        reply_id = await client.send_command("page", action="push", page={"name": "P2", "fill": "#00FF00"})
        await client.wait_until(lambda: client.find(role="subpage", name="P2"), what="P2 on screen")
        mid = await client.state()
        assert mid["stack"][0]["pages"] == ["P1", "P2"] and mid["stack"][0]["pagesAnimating"] is True, mid
        reply = await client.reply(reply_id, timeout=15)
        assert reply["type"] == "result" and reply["value"] == {"page": "P2"}, reply
        await client.settle()
        both = 0
        for nodes in client.frames_since(start):
            assert not in_list(nodes, "dim"), "a carousel has no dim layer"
            pages = dict(subpages(nodes))
            if "P1" in pages and "P2" in pages:
                assert near(pages["P2"] - pages["P1"], W), pages
                assert pages["P1"] <= 0 <= pages["P2"], pages
                both += 1
        assert both >= 10, f"both pages were drawn in {both} frames of a 1.2 s carousel"
        events = [(e["name"], e.get("screen"), e.get("vc")) for e in client.events(start)]
        assert events == [("pageWillHide", "P1", host_vc), ("pageDidShow", "P2", host_vc)], events
        messages = client.messages(start)
        did_show = next(m for m in messages if m.get("name") == "pageDidShow")
        will_hide = next(m for m in messages if m.get("name") == "pageWillHide")
        assert did_show["time"] - will_hide["time"] >= 1100, (will_hide, did_show)   # 0.3 s x 4
        assert messages.index(reply) > messages.index(did_show)
        assert subpages(client.display_list()) == [("P2", 0)]
        assert one(client, "subpage", "P2")["frame"] == [0, 100, W, STACK_HEIGHT]
        state = await client.state()
        assert state["stack"][0]["pages"] == ["P1", "P2"] and "pagesAnimating" not in state["stack"][0], state

        # The pop is the mirror image.
        start = client.mark()
        assert await client.ok("page", action="pop", timeout=15) == {"page": "P1"}
        await client.settle()
        both = 0
        for nodes in client.frames_since(start):
            pages = dict(subpages(nodes))
            if "P1" in pages and "P2" in pages:
                assert near(pages["P2"] - pages["P1"], W), pages
                both += 1
        assert both >= 10, both
        events = [(e["name"], e.get("screen"), e.get("vc")) for e in client.events(start)]
        assert events == [("pageWillHide", "P2", host_vc), ("pageDidShow", "P1", host_vc)], events
        assert subpages(client.display_list()) == [("P1", 0)]
        await client.close()
    run(body())


def test_page_actions_and_their_results(server):
    async def body():
        client = await page_app(server.ws_url)
        start = client.mark()
        for name in ["P2", "P3", "P4"]:
            assert await client.ok("page", action="push", page={"name": name}) == {"page": name}
        events = page_event_times(client, start)
        assert [(n, p) for n, p, _ in events] == [("pageWillHide", "P1"), ("pageDidShow", "P2"), ("pageWillHide", "P2"),
                                                  ("pageDidShow", "P3"), ("pageWillHide", "P3"), ("pageDidShow", "P4")], events
        assert all(events[i + 1][2] - events[i][2] >= 299.9 for i in (0, 2, 4)), f"a carousel shorter than 0.3 s: {events}"

        async def pages():
            return (await client.state())["stack"][0]["pages"]
        assert await pages() == ["P1", "P2", "P3", "P4"]
        assert await client.ok("page", action="popTo", name="P2") == {"page": "P2"}
        assert await pages() == ["P1", "P2"]
        assert await client.ok("page", action="push", page={"name": "P3"}) == {"page": "P3"}

        # switch: the top is replaced, moving like a push or like a pop.
        client.display.keep_snapshots = True
        start = client.mark()
        assert await client.ok("page", action="switch", page={"name": "S"}, direction="pop") == {"page": "S"}
        assert await pages() == ["P1", "P2", "S"]
        xs = [x for nodes in client.frames_since(start) for name, x in subpages(nodes) if name == "S" and x != 0]
        assert xs and all(x < 0 for x in xs), f"switch with direction pop brings the page from the left: {xs}"
        start = client.mark()
        assert await client.ok("page", action="switch", page={"name": "T"}) == {"page": "T"}
        xs = [x for nodes in client.frames_since(start) for name, x in subpages(nodes) if name == "T" and x != 0]
        assert xs and all(x > 0 for x in xs), f"switch pushes by default: the page comes from the right: {xs}"
        assert await pages() == ["P1", "P2", "T"]

        assert await client.ok("page", action="popToRoot") == {"page": "P1"}
        assert await pages() == ["P1"]
        await client.ok("page", action="push", page={"name": "P2"})
        start = client.mark()
        assert await client.ok("page", action="newRoot", page={"name": "N"}) == {"page": "N"}
        assert await pages() == ["N"]
        assert [(e["name"], e.get("screen")) for e in client.events(start)] == [("pageWillHide", "P2"), ("pageDidShow", "N")]

        # animated false: at once, the same two events.
        start = client.mark()
        assert await client.ok("page", action="push", page={"name": "Quick"}, animated=False) == {"page": "Quick"}
        at_once(client, start, "N", "Quick")
        await client.settle()
        assert subpages(client.display_list()) == [("Quick", 0)]
        # Page stacks have no appearance callbacks.
        assert lifecycle(client.events(0)) == [], lifecycle(client.events(0))
        await client.close()
    run(body())


def test_page_command_errors(server):
    async def body():
        client = await page_app(server.ws_url)
        error(await client.command("page", action="pop"), "invalid_state")
        error(await client.command("page", action="popToRoot"), "invalid_state")
        error(await client.command("page", action="popTo", name="P1"), "invalid_state")
        error(await client.command("page", action="switch", page={"name": "P1"}), "invalid_state")
        await client.ok("page", action="push", page={"name": "P2"})
        error(await client.command("page", action="push", page={"name": "P1"}), "invalid_state")
        error(await client.command("page", action="push", page={"name": "P2"}), "invalid_state")
        error(await client.command("page", action="popTo", name="Nope"), "not_found")
        message = error(await client.command("page", action="fly"), "bad_message")
        assert message.startswith("action:"), message
        error(await client.command("page"), "bad_message")
        message = error(await client.command("page", action="push"), "bad_message")
        assert message.startswith("page:"), message
        error(await client.command("page", action="pop", vc="vc999"), "not_found")
        assert (await client.state())["stack"][0]["pages"] == ["P1", "P2"]

        # A page without a page stack.
        host_vc = client.pages()[0]["vc"]
        await client.ok("push", screen={"name": "Plain"})
        error(await client.command("page", action="pop"), "not_found")
        # ... but the host can still be named by its vc: its pages are not on screen, no animation.
        start = client.mark()
        assert await client.ok("page", action="pop", vc=host_vc) == {"page": "P1"}
        at_once(client, start, "P2", "P1")
        assert (await client.state())["stack"][0]["pages"] == ["P1"]
        await client.ok("pop")
        await client.settle()
        assert subpages(client.display_list()) == [("P1", 0)]
        await client.close()
    run(body())


def test_commands_wait_for_a_carousel_or_get_busy(server):
    async def body():
        client = await page_app(server.ws_url)
        await client.ok("configure", slowMotion=4)
        start = client.mark()
        first = await client.send_command("page", action="push", page={"name": "P2"})
        second = await client.send_command("page", action="push", page={"name": "P3"})
        push = await client.send_command("push", screen={"name": "Over"})
        replies = [await client.reply(i, timeout=20) for i in (first, second, push)]
        assert [r["type"] for r in replies] == ["result"] * 3, replies
        messages = client.messages(start)
        positions = [messages.index(r) for r in replies]
        assert positions == sorted(positions), "queued commands answered out of order"
        shows = [m for m in messages if m.get("name") == "pageDidShow"]
        assert [m["screen"] for m in shows] == ["P2", "P3"]
        assert messages.index(replies[0]) < messages.index(shows[1]), "the second push ran during the first carousel"
        assert screens((await client.state())["stack"]) == ["Host", "Over"]
        await client.ok("pop", timeout=15)

        await client.ok("configure", busyPolicy="reject")
        start = client.mark()
        first = await client.send_command("page", action="pop")
        await client.wait_event("pageWillHide", since=start)
        error(await client.command("page", action="popToRoot"), "busy")
        error(await client.command("push", screen={"name": "No"}), "busy")
        assert (await client.reply(first, timeout=15))["value"] == {"page": "P2"}
        assert (await client.state())["stack"][0]["pages"] == ["P1", "P2"]
        await client.close()
    run(body())


def test_page_stack_in_a_tab_host_moves_with_its_page(server):
    async def body():
        tabs = [{"id": "home", "title": "Home", "root": {"name": "Home"}},
                {"id": "cards", "title": "Cards", "root": PAGES_HOST}]
        client = await tab_app(server.ws_url, tabs=tabs, events=("page",))
        await client.ok("selectTab", name="cards")
        await client.settle()
        assert one(client, "pagestack")["frame"] == [0, 100, W, STACK_HEIGHT]
        # Pages of a host in a hidden tab change at once, by vc.
        host_vc = (await client.state())["tabs"][1]["stack"][0]["vc"]
        await client.ok("selectTab", index=0)
        start = client.mark()
        assert await client.ok("page", action="push", page={"name": "Later"}, vc=host_vc) == {"page": "Later"}
        at_once(client, start, "P1", "Later")
        assert [e["vc"] for e in client.events(start)] == [host_vc, host_vc]
        assert (await client.state())["tabs"][1]["stack"][0]["pages"] == ["P1", "Later"]
        await client.ok("selectTab", index=1)
        await client.settle()
        assert subpages(client.display_list()) == [("Later", 0)]
        await client.close()
    run(body())


# MARK: dragging a page pushed without animation


def test_a_page_pushed_with_transition_none_can_be_dragged_back(server):
    async def body():
        client = await stack_app(server.ws_url, {"name": "Home"}, events=("lifecycle", "transition", "gesture"))
        await client.ok("push", screen={"name": "Now"}, transition="none")
        await client.settle()
        # Released before half: UIKit's reversal.
        start = client.mark()
        t = await drag(client, slow(20, 120), up=False)
        await client.wait_event("gestureBegan", since=start)
        await client.settle(quiet=0.3)
        top = one(client, "page", "Now")["frame"][0]
        assert 85 <= top <= 91, f"the page follows the finger (moved 100 pt, 10 pt slop): x = {top}"
        await client.pointer("up", 120, Y, t)
        await client.wait_event("gestureEnded", since=start)
        await client.settle()
        assert flow(client.events(start)) == [
            ("gestureBegan", None), ("viewWillDisappear", "Now"), ("viewWillAppear", "Home"),
            ("viewWillDisappear", "Home"), ("viewDidDisappear", "Home"), ("viewWillAppear", "Now"),
            ("viewDidAppear", "Now"), ("gestureEnded", None)], flow(client.events(start))
        assert screens((await client.state())["stack"]) == ["Home", "Now"]
        assert [(p["name"], p["frame"][0]) for p in client.pages()] == [("Now", 0)]

        # Past half: popped.
        start = client.mark()
        await drag(client, slow(20, 300), t0=20000)
        await client.wait_event("gestureEnded", since=start)
        await client.settle()
        assert flow(client.events(start)) == [
            ("gestureBegan", None), ("viewWillDisappear", "Now"), ("viewWillAppear", "Home"),
            ("viewDidDisappear", "Now"), ("viewDidAppear", "Home"), ("released", "Now"), ("gestureEnded", None)]
        ends = [e for e in client.events(start) if e["name"] == "transitionEnd"]
        assert [(e["op"], e["interactive"], e["cancelled"]) for e in ends] == [("pop", True, False)]
        assert screens((await client.state())["stack"]) == ["Home"]

        # Modal and fade pages still cannot be dragged.
        for transition in ["modal", "fade"]:
            await client.ok("push", screen={"name": transition}, transition=transition)
            await client.settle()
            start = client.mark()
            await drag(client, slow(20, 300, step=20), t0=40000)
            await client.quiet_for(0.5)
            assert client.events(start) == [], (transition, client.events(start))
            assert screens((await client.state())["stack"]) == ["Home", transition]
            await client.ok("pop")
        await client.close()
    run(body())


# MARK: watchers


def test_a_watcher_reads_a_tab_app_but_cannot_drive_it(server):
    async def body():
        client = await tab_app(server.ws_url, events=())
        token = client.messages(type="welcome")[0]["session"]
        watcher = await session(server.ws_url, session=token, role="view")
        state = await watcher.ok("query")
        assert state["kind"] == "tabs" and state["selected"] == 0, state
        assert await watcher.ok("subscribe", events=["lifecycle"]) == {"events": ["lifecycle"]}
        start = watcher.mark()
        await client.ok("selectTab", index=1)
        await watcher.wait_event("viewDidAppear", since=start, screen="MailRoot")
        await watcher.send({"type": "ping", "id": 7, "t": 1})
        await watcher.wait_message(lambda m: m["type"] == "pong" and m["id"] == 7)
        for op, fields in [("selectTab", {"index": 0}), ("setBadge", {"index": 0, "badge": "1"}),
                           ("page", {"action": "pop"}), ("push", {"screen": {"name": "X"}, "target": {"tab": 0}}),
                           ("configure", {"slowMotion": 2}), ("setRoot", {"root": tabs_root()})]:
            error(await watcher.command(op, **fields), "forbidden")
        assert (await client.state())["selected"] == 1
        await watcher.close()
        await client.close()
    run(body())
