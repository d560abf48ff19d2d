"""Sessions and commands through the protocol: hello/welcome and the first frame, a push and a pop
(frames, silence, the result after the transition, the lifecycle in UIKit's order), query,
configure (busy policy, slow motion)."""

import re

from stackcast_client import VIEWPORT, W, lifecycle, names, open_client, run, session

HOME_ROWS = ["General", "Now Playing", "Photos", "Clear Bar", "Locked", "Gallery"]
DETAIL = {"name": "Detail", "title": "Detail"}


def test_hello_gets_welcome_then_a_full_frame(server):
    async def body():
        client = await open_client(server.ws_url)
        start = client.mark()
        welcome = await client.hello(viewport=VIEWPORT)
        assert welcome["type"] == "welcome", welcome
        assert welcome["protocol"] == 1
        assert re.fullmatch(r"[0-9a-f]{32}", welcome["session"]), welcome["session"]
        assert welcome["app"] == "stack"
        assert welcome["role"] == "control"
        for key, value in VIEWPORT.items():
            assert welcome["viewport"][key] == value, welcome["viewport"]
        assert welcome["fps"] == 60
        frame = await client.wait_frame(since=start)
        # The frame is the very next message after the welcome, and a full one.
        assert [m["type"] for m in client.messages()] == ["welcome", "frame"]
        assert frame["full"] is True and isinstance(frame["seq"], int)
        pages = client.pages()
        assert [p["name"] for p in pages] == ["Home"], pages
        assert pages[0]["frame"] == [0, 0, VIEWPORT["width"], VIEWPORT["height"]]
        assert isinstance(pages[0].get("vc"), str) and pages[0]["vc"]
        assert [r["name"] for r in client.find(role="row")] == HOME_ROWS
        # Idle: nothing more comes.
        assert [m for m in await client.quiet_for(0.5) if m["type"] == "frame"] == []
        await client.close()
    run(body())


def test_two_hellos_get_different_sessions(server):
    async def body():
        a = await session(server.ws_url)
        b = await session(server.ws_url)
        tokens = {a.messages(type="welcome")[0]["session"], b.messages(type="welcome")[0]["session"]}
        assert len(tokens) == 2
        await a.close()
        await b.close()
    run(body())


def test_anything_before_hello_is_not_ready(server):
    async def body():
        client = await open_client(server.ws_url)
        reply = await client.command("query", what="state")
        assert reply["type"] == "error" and reply["code"] == "not_ready", reply
        await client.send({"type": "ping", "id": 1, "t": 5})
        error = await client.wait_message(lambda m: m["type"] in ("error", "pong"), since=1)
        assert error["type"] == "error" and error["code"] == "not_ready", error
        start = client.mark()
        await client.pointer("down", 20, 300, 0)
        error = await client.wait_message(lambda m: True, since=start)
        assert error["type"] == "error" and error["code"] == "not_ready", error
        # hello still works after that, and the session is fine.
        start = client.mark()
        welcome = await client.hello()
        assert welcome["type"] == "welcome"
        await client.wait_frame(since=start)
        await client.close()
    run(body())


def test_ping_is_answered_with_pong(server):
    async def body():
        client = await session(server.ws_url)
        start = client.mark()
        await client.send({"type": "ping", "id": "p1", "t": 1234.5})
        pong = await client.wait_message(lambda m: m["type"] == "pong", since=start)
        assert pong == {"type": "pong", "id": "p1", "t": 1234.5}
        await client.close()
    run(body())


def test_push_streams_deltas_then_result_after_transition_then_silence(server):
    async def body():
        client = await session(server.ws_url, subscribe=True)
        first_seq = client.seq
        start = client.mark()
        command_id = await client.send_command("push", screen=DETAIL)
        reply = await client.reply(command_id)
        assert reply["type"] == "result" and reply["ok"] is True, reply
        vc = reply["value"]["vc"]
        assert isinstance(vc, str) and vc, reply
        # The transition ran before the result: animation frames came first, and when the result
        # arrived the new page already sat at x = 0.
        before_result = client.messages(start)
        result_at = before_result.index(reply)
        frames = [m for m in before_result[:result_at] if m["type"] == "frame"]
        assert len(frames) >= 3, f"only {len(frames)} frames before the result of an animated push"
        await client.settle(quiet=0.5, timeout=5)
        frames = client.messages(start, "frame")
        expected_base = first_seq
        for frame in frames:
            assert not frame.get("full"), f"a full frame during a push: seq {frame['seq']}"
            assert frame["base"] == expected_base, (frame["seq"], frame["base"], expected_base)
            expected_base = frame["seq"]
        # Settled: exactly one page, the new one, at x = 0.
        pages = client.pages()
        assert [(p["name"], p["vc"], p["frame"][0]) for p in pages] == [("Detail", vc, 0)], pages
        # Silence once settled.
        assert [m for m in await client.quiet_for(0.6) if m["type"] == "frame"] == []
        # Lifecycle and transition events, in UIKit's order, before the result.
        messages = client.messages(start)
        events = [m for m in messages[:messages.index(reply)] if m["type"] == "event"]
        assert [(e["name"], e.get("screen")) for e in events] == [
            ("viewDidLoad", "Detail"),
            ("viewWillDisappear", "Home"),
            ("viewWillAppear", "Detail"),
            ("transitionStart", None),
            ("viewDidDisappear", "Home"),
            ("viewDidAppear", "Detail"),
            ("transitionEnd", None),
        ], events
        assert all(e["vc"] == vc for e in events if e.get("screen") == "Detail")
        assert events[3]["op"] == "push" and events[3]["interactive"] is False
        assert events[6]["op"] == "push" and events[6]["cancelled"] is False
        assert [m for m in messages[messages.index(reply):] if m["type"] == "event"] == []
        await client.close()
    run(body())


def test_pop_mirrors_push_and_releases_the_page(server):
    async def body():
        client = await session(server.ws_url, subscribe=True)
        detail = (await client.ok("push", screen=DETAIL))["vc"]
        await client.settle()
        home_vc = (await client.state())["stack"][0]["vc"]
        start = client.mark()
        reply = await client.command("pop")
        assert reply["type"] == "result" and reply["ok"] is True, reply
        await client.wait_event("released", since=start, vc=detail)
        await client.settle()
        messages = client.messages(start)
        events = [m for m in messages if m["type"] == "event"]
        assert lifecycle(events) == [
            ("viewWillDisappear", "Detail"),
            ("viewWillAppear", "Home"),
            ("viewDidDisappear", "Detail"),
            ("viewDidAppear", "Home"),
            ("released", "Detail"),
        ], events
        order = names(events)
        assert order.index("viewWillAppear") < order.index("transitionStart") < order.index("viewDidDisappear")
        assert order.index("viewDidAppear") < order.index("transitionEnd")
        start_event = events[order.index("transitionStart")]
        assert start_event["op"] == "pop" and start_event["interactive"] is False
        assert events[order.index("transitionEnd")]["cancelled"] is False
        assert messages.index(reply) > messages.index(events[order.index("transitionEnd")])
        for event in events:
            if event.get("screen") == "Home":
                assert event["vc"] == home_vc
        frames = [m for m in messages if m["type"] == "frame"]
        assert len(frames) >= 3 and all("base" in f for f in frames)
        pages = client.pages()
        assert [(p["name"], p["frame"][0]) for p in pages] == [("Home", 0)], pages
        assert [r["name"] for r in client.find(role="row")] == HOME_ROWS
        await client.close()
    run(body())


def test_query_state_reports_the_stack(server):
    async def body():
        client = await session(server.ws_url)
        state = await client.state()
        assert state["kind"] == "stack" and state["id"] == "main", state
        assert [(e["screen"], e["appearance"]) for e in state["stack"]] == [("Home", "appeared")]
        assert state["stack"][0]["frame"] == [0, 0, W, VIEWPORT["height"]]
        vc = (await client.ok("push", screen={"name": "Detail", "title": "Detail"}))["vc"]
        state = await client.state()
        assert [(e["screen"], e["appearance"]) for e in state["stack"]] == [("Home", "disappeared"), ("Detail", "appeared")], state
        assert state["stack"][1]["vc"] == vc
        assert state["stack"][1]["frame"] == [0, 0, W, VIEWPORT["height"]]
        reply = await client.command("query", what="everything")
        assert reply["type"] == "error" and reply["code"] == "bad_message" and "what" in reply["message"], reply
        await client.close()
    run(body())


def test_busy_policy_reject_refuses_a_push_during_a_transition(server):
    async def body():
        client = await session(server.ws_url)
        assert (await client.command("configure", busyPolicy="reject"))["type"] == "result"
        first = await client.send_command("push", screen={"name": "A"})
        second = await client.send_command("push", screen={"name": "B"})
        busy = await client.reply(second)
        assert busy["type"] == "error" and busy["code"] == "busy", busy
        done = await client.reply(first)
        assert done["type"] == "result" and done["ok"] is True, done
        messages = client.messages()
        assert messages.index(busy) < messages.index(done), "busy should come at once, not after the transition"
        assert [e["screen"] for e in (await client.state())["stack"]] == ["Home", "A"]
        await client.close()
    run(body())


def test_busy_policy_queue_runs_commands_in_order(server):
    async def body():
        client = await session(server.ws_url, subscribe=True)
        assert (await client.command("configure", busyPolicy="reject"))["type"] == "result"
        assert (await client.command("configure", busyPolicy="queue"))["type"] == "result"
        start = client.mark()
        first = await client.send_command("push", screen={"name": "A"})
        second = await client.send_command("push", screen={"name": "B"})
        third = await client.send_command("pop")
        replies = [await client.reply(i) for i in (first, second, third)]
        assert all(r["type"] == "result" and r["ok"] for r in replies), replies
        messages = client.messages(start)
        positions = [messages.index(r) for r in replies]
        assert positions == sorted(positions), "results out of order"
        # Each result came after its own transition ended: three transitionEnd events, one before each result.
        ends = [i for i, m in enumerate(messages) if m["type"] == "event" and m["name"] == "transitionEnd"]
        assert len(ends) == 3 and all(end < position for end, position in zip(ends, positions)), (ends, positions)
        assert positions[0] < ends[1] and positions[1] < ends[2]
        assert [e["screen"] for e in (await client.state())["stack"]] == ["Home", "A"]
        await client.close()
    run(body())


def test_slow_motion_multiplies_transition_durations(server):
    async def body():
        client = await session(server.ws_url, subscribe=True)

        async def push_duration(name):
            start = client.mark()
            await client.ok("push", screen={"name": name})
            events = client.events(start)
            begin = next(e for e in events if e["name"] == "transitionStart")
            end = next(e for e in events if e["name"] == "transitionEnd")
            return end["time"] - begin["time"], len(client.messages(start, "frame"))

        normal, normal_frames = await push_duration("A")
        assert normal >= 340 - 1, f"a slide push lasted {normal} ms of scene time, expected 340"
        assert (await client.command("configure", slowMotion=4))["type"] == "result"
        slow, slow_frames = await push_duration("B")
        assert slow >= 4 * 340 - 1, f"slowMotion 4: the push lasted {slow} ms, expected 1360"
        assert slow_frames > normal_frames
        assert (await client.command("configure", slowMotion=1))["type"] == "result"
        again, _ = await push_duration("C")
        assert again < slow / 2, f"slowMotion 1 again: {again} ms"
        reply = await client.command("configure", slowMotion=0)
        assert reply["type"] == "error" and reply["code"] == "bad_message" and "slowMotion" in reply["message"], reply
        await client.close()
    run(body())


def test_events_stop_after_an_empty_subscribe(server):
    async def body():
        client = await session(server.ws_url, subscribe=True)
        await client.ok("push", screen={"name": "A"})
        assert client.events(), "subscribed, yet no events"
        value = await client.ok("subscribe", events=[])
        assert value == {"events": []}, value
        start = client.mark()
        await client.ok("pop")
        await client.settle()
        assert client.events(start) == []
        reply = await client.command("subscribe", events=["lifecycle", "everything"])
        assert reply["type"] == "error" and reply["code"] == "bad_message" and "events[1]" in reply["message"], reply
        await client.close()
    run(body())


def test_resize_lays_the_scene_out_again(server):
    async def body():
        client = await session(server.ws_url)
        start = client.mark()
        await client.send({"type": "resize", "width": 600, "height": 800, "scale": 2})
        await client.wait_frame(since=start)
        await client.settle()
        pages = client.pages()
        assert [p["frame"] for p in pages] == [[0, 0, 600, 800]], pages
        await client.close()
    run(body())



def test_resize_during_a_push_ends_in_the_new_layout(server):
    async def body():
        client = await session(server.ws_url)
        start = client.mark()
        push = await client.send_command("push", screen={"name": "Detail", "rows": [{"title": "Row"}]})
        await client.wait_frame(since=start)
        await client.send({"type": "resize", "width": 600, "height": 700, "scale": 2})
        assert (await client.reply(push))["type"] == "result"
        await client.settle()
        assert [(p["name"], p["frame"]) for p in client.pages()] == [("Detail", [0, 0, 600, 700])]
        # The row's section takes the new width, 20 pt in from each side (the shorter side is
        # 600 pt: an iPad's margins), 35 pt below the 44 pt bar.
        assert [r["frame"] for r in client.find(role="row")] == [[20, 44 + 35, 560, 44]]
        state = await client.state()
        assert [e["frame"] for e in state["stack"]] == [[0, 0, 600, 700], [0, 0, 600, 700]], state
        await client.close()
    run(body())


def test_numeric_command_ids_come_back_as_numbers(server):
    async def body():
        client = await session(server.ws_url)
        start = client.mark()
        await client.send({"type": "command", "id": 42, "op": "query", "what": "state"})
        reply = await client.wait_message(lambda m: m["type"] == "result", since=start)
        assert reply["id"] == 42 and isinstance(reply["id"], int), reply
        await client.send({"type": "command", "id": 43, "op": "pop"})
        error = await client.wait_message(lambda m: m["type"] == "error", since=start)
        assert error["id"] == 43 and error["code"] == "invalid_state", error
        await client.close()
    run(body())


def test_text_survives_the_round_trip(server):
    """Names and titles with quotes, backslashes, control characters, U+2028 and emoji come back
    exactly, in the display list and in the state."""
    title = 'Ünïcødé "q" \\ \t \x01 \u2028 😀 𝄞'

    async def body():
        client = await session(server.ws_url)
        await client.ok("push", screen={"name": title, "title": title, "rows": [{"title": title}]})
        await client.settle()
        assert [p["name"] for p in client.pages()] == [title]
        assert [r["name"] for r in client.find(role="row")] == [title]
        assert any(n.get("text") == title for n in client.find(role="title")), client.find(role="title")
        assert (await client.state())["stack"][1]["screen"] == title
        await client.ok("popTo", name="Home")
        await client.close()
    run(body())
