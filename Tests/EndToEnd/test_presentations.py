"""Presentations over the app through the protocol (docs/protocol.md §5.8): a navigation stack in
a sheet that keeps navigating, a target beneath it, Close, Escape, a drag that dismisses, full
screen, and the events and state each gives.

The `stack` app on a phone with a safe area (390 x 844, top 47, bottom 34), so a sheet's card
rests at y = 57 and is 787 pt high."""

import json

from stackcast_client import lifecycle, run, session

VIEWPORT = {"width": 390, "height": 844, "scale": 3, "safeArea": {"top": 47, "bottom": 34}}
COMPOSE = {"kind": "stack", "id": "compose", "root": {"name": "Compose", "title": "New Message"}}
CARD_Y, CARD_H = 57, 787


def error(reply, code):
    assert reply["type"] == "error" and reply["code"] == code, reply
    return reply["message"]


def transitions(events):
    return [(e["name"], e.get("op")) for e in events if e["name"].startswith("transition")]


async def stack_app(url):
    client = await session(url, viewport=VIEWPORT, app="stack")
    await client.ok("subscribe", events=["lifecycle", "transition", "gesture"])
    await client.settle()
    return client


def page_frame(client, name):
    return next(n["frame"] for n in client.find(role="page", name=name))


def test_a_stack_in_a_sheet_keeps_navigating_and_the_documented_state_holds(server):
    async def body():
        client = await stack_app(server.ws_url)
        start = client.mark()
        assert await client.ok("present", content=COMPOSE) == {"vc": "vc2"}
        assert lifecycle(client.events(start)) == [
            ("viewDidLoad", "Compose"), ("viewWillAppear", "Compose"), ("viewDidAppear", "Compose")]
        assert transitions(client.events(start)) == [("transitionStart", "present"), ("transitionEnd", "present")]
        await client.settle()
        # The state of docs/protocol.md §8, exactly.
        assert await client.state() == json.loads("""
            {"kind":"stack","id":"main","stack":[
              {"vc":"vc1","screen":"Home","title":"Stackcast","frame":[16,47,358,774.748717948718],"appearance":"appeared","transition":"slide"}],
             "presented":[{"style":"sheet","kind":"stack","id":"compose","stack":[
              {"vc":"vc2","screen":"Compose","title":"New Message","frame":[0,57,390,787],"appearance":"appeared","transition":"slide"}]}]}""")
        assert page_frame(client, "Compose") == [0, CARD_Y, 390, CARD_H]
        home = page_frame(client, "Home")
        assert home[0] == 16 and home[1] == 47, home
        assert [n["alpha"] for n in client.find(role="dim")] == [0.15]
        assert client.find(role="close"), "the presented stack's first page closes it"

        # A push without a target goes into the sheet, in the card.
        assert await client.ok("push", screen={"name": "Recipients"}) == {"vc": "vc3"}
        await client.settle()
        assert page_frame(client, "Recipients") == [0, CARD_Y, 390, CARD_H]
        # A target reaches the app beneath, which stays drawn behind the sheet.
        assert "vc" in await client.ok("push", screen={"name": "Inbox"}, target={"stack": "main"})
        state = await client.state()
        assert [p["screen"] for p in state["stack"]] == ["Home", "Inbox"]
        assert [p["screen"] for p in state["presented"][0]["stack"]] == ["Compose", "Recipients"]

        # Escape pops inside the sheet, then dismisses it.
        await client.send({"type": "key", "key": "Escape"})
        await client.wait_event("released", screen="Recipients")
        start = client.mark()
        await client.send({"type": "key", "key": "Escape"})
        await client.wait_event("released", since=start, screen="Compose")
        assert lifecycle(client.events(start)) == [
            ("viewWillDisappear", "Compose"), ("viewDidDisappear", "Compose"), ("released", "Compose")]
        await client.settle()
        assert "presented" not in await client.state()
        assert page_frame(client, "Inbox") == [0, 0, 390, 844]
        assert client.find(role="dim") == []
        await client.close()
    run(body())


def test_close_and_a_downward_drag_dismiss_and_a_short_drag_springs_back(server):
    async def body():
        client = await stack_app(server.ws_url)
        await client.ok("present", content={"name": "Note"})
        await client.settle()
        close = client.find(role="close")[0]["frame"]
        start = client.mark()
        x, y = close[0] + close[2] / 2, close[1] + close[3] / 2
        await client.pointer("down", x, y, 1000)
        await client.pointer("up", x, y, 1080)
        await client.wait_event("released", since=start, screen="Note")
        await client.settle()

        await client.ok("present", content={"name": "Note"})
        await client.settle()
        # Slowly down 100 pt: not past half the card, so it springs back.
        start = client.mark()
        t = 2000.0
        await client.pointer("down", 200, 300, t)
        for step in range(1, 35):
            t += 16
            await client.pointer("move", 200, 300 + 3 * step, t, samples=[[200, 300 + 3 * step, t]])
        await client.pointer("up", 200, 402, t + 200)
        await client.wait_event("gestureEnded", since=start)
        names = [(e["name"], e.get("screen") or e.get("gesture")) for e in client.events(start)]
        assert names[0] == ("gestureBegan", "dismissSheet"), names
        assert lifecycle(client.events(start)) == [
            ("viewWillDisappear", "Note"), ("viewWillAppear", "Note"), ("viewDidAppear", "Note")]
        await client.settle()
        assert page_frame(client, "Note") == [0, CARD_Y, 390, CARD_H]

        # A fling down dismisses.
        start = client.mark()
        t += 1000
        await client.pointer("down", 200, 300, t)
        for step in range(1, 8):
            t += 16
            await client.pointer("move", 200, 300 + 40 * step, t, samples=[[200, 300 + 40 * step, t]])
        await client.pointer("up", 200, 580, t + 8)
        await client.wait_event("released", since=start, screen="Note")
        assert (await client.state()).get("presented") is None
        await client.close()
    run(body())


def test_full_screen_takes_the_app_off_screen_and_errors_change_nothing(server):
    async def body():
        client = await stack_app(server.ws_url)
        start = client.mark()
        assert await client.ok("present", content={"name": "Player"}, style="fullScreen") == {"vc": "vc2"}
        assert lifecycle(client.events(start)) == [
            ("viewDidLoad", "Player"), ("viewWillDisappear", "Home"), ("viewWillAppear", "Player"),
            ("viewDidAppear", "Player"), ("viewDidDisappear", "Home")]
        await client.settle()
        assert page_frame(client, "Player") == [0, 0, 390, 844]
        assert client.find(role="page", name="Home") == []
        before = await client.state()
        assert error(await client.command("present", content={"kind": "grid"}), "bad_message") == \
            'content.kind: expected stack, tabs, sideTabs or split, got "grid"'
        assert error(await client.command("present", content={"name": "A"}, style="popover"), "bad_message") == \
            'style: expected one of sheet, fullScreen, panel, got "popover"'
        assert await client.state() == before
        start = client.mark()
        assert await client.ok("dismiss", animated=False) == {"vc": "vc1"}
        assert lifecycle(client.events(start)) == [
            ("viewWillDisappear", "Player"), ("viewWillAppear", "Home"), ("viewDidAppear", "Home"),
            ("viewDidDisappear", "Player"), ("released", "Player")]
        assert error(await client.command("dismiss"), "invalid_state") == "nothing is presented: there is nothing to dismiss"
        await client.close()
    run(body())
