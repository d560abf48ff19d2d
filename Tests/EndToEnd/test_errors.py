"""Every error code of docs/protocol.md (§6), reached through the protocol, each with the exact
code, the command's id when there is one, and a message naming the field; the connection and the
session go on afterwards."""

import asyncio

from stackcast_client import open_client, run, session


async def still_works(client):
    """The connection and its session go on: a ping is answered and a query works."""
    start = client.mark()
    await client.send({"type": "ping", "id": "alive", "t": 1})
    await client.wait_message(lambda m: m["type"] == "pong" and m["id"] == "alive", since=start)
    await client.state()


async def next_error(client, since):
    return await client.wait_message(lambda m: m["type"] == "error", since=since, what="an error")


def test_bad_json(server):
    async def body():
        client = await session(server.ws_url)
        for text in ['{"type":"command",', "not json", '{"type":"ping"} trailing', "[1,2", ""]:
            start = client.mark()
            await client.send(text)
            error = await next_error(client, start)
            assert error["code"] == "bad_json", (text, error)
            assert isinstance(error.get("message"), str) and error["message"], error
        await still_works(client)
        await client.close()
    run(body())


def test_bad_message_names_the_field(server):
    cases = [
        ({"type": "command", "id": "b1", "op": "push"}, "screen"),
        ({"type": "command", "id": "b2", "op": "push", "screen": {"name": "X"}, "transition": "zoom"}, "transition"),
        ({"type": "command", "id": "b3", "op": "push", "screen": {"name": 7}}, "name"),
        ({"type": "command", "id": "b4", "op": "configure", "busyPolicy": "sometimes"}, "busyPolicy"),
        ({"type": "command", "id": "b5", "op": "popTo"}, "name"),
        ({"type": "pointer", "phase": "down", "x": 1, "y": 2}, "t"),
        ({"type": "pointer", "phase": "wiggle", "x": 1, "y": 2, "t": 0}, "phase"),
        ({"type": "resize", "width": "wide", "height": 800}, "width"),
        ({"type": "teleport"}, "type"),
        ({"op": "push"}, "type"),
        ([1, 2, 3], None),
    ]

    async def body():
        client = await session(server.ws_url)
        for message, field in cases:
            start = client.mark()
            await client.send(message)
            error = await next_error(client, start)
            assert error["code"] == "bad_message", (message, error)
            if isinstance(message, dict) and "id" in message:
                assert error.get("id") == message["id"], (message, error)
            if field:
                assert field in error["message"], f"{message}: the message {error['message']!r} does not name {field!r}"
        # A command without an id cannot be answered by id but still gets bad_message naming id.
        start = client.mark()
        await client.send({"type": "command", "op": "pop"})
        error = await next_error(client, start)
        assert error["code"] == "bad_message" and "id" in error["message"], error
        await still_works(client)
        assert [e["screen"] for e in (await client.state())["stack"]] == ["Home"]
        await client.close()
    run(body())


def test_unknown_op(server):
    async def body():
        client = await session(server.ws_url)
        reply = await client.command("fly", to="moon")
        assert reply["type"] == "error" and reply["code"] == "unknown_op", reply
        assert "fly" in reply["message"], reply
        await still_works(client)
        await client.close()
    run(body())


def test_not_found(server):
    async def body():
        client = await session(server.ws_url)
        await client.ok("push", screen={"name": "A"})
        reply = await client.command("popTo", name="Nowhere")
        assert reply["type"] == "error" and reply["code"] == "not_found", reply
        assert "Nowhere" in reply["message"], reply
        assert [e["screen"] for e in (await client.state())["stack"]] == ["Home", "A"], "popTo not_found changed the stack"
        reply = await client.command("popTo", vc="vc999")
        assert reply["type"] == "error" and reply["code"] == "not_found", reply
        await still_works(client)
        await client.close()
        # Resuming a session that does not exist.
        other = await open_client(server.ws_url)
        error = await other.hello(session="0123456789abcdef0123456789abcdef")
        assert error["type"] == "error" and error["code"] == "not_found", error
        assert other.messages(type="frame") == []
        await other.close()
    run(body())


def test_invalid_state_pop_at_root_changes_nothing(server):
    async def body():
        client = await session(server.ws_url, subscribe=True)
        before = client.display_list()
        start = client.mark()
        reply = await client.command("pop")
        assert reply["type"] == "error" and reply["code"] == "invalid_state", reply
        assert [m for m in await client.quiet_for(0.4) if m["type"] in ("frame", "event")] == []
        assert client.events(start) == []
        assert client.display_list() == before
        assert [e["screen"] for e in (await client.state())["stack"]] == ["Home"]
        # popToRoot at the root is not an error in UIKit terms but must not change anything either.
        await client.command("popToRoot")
        assert [e["screen"] for e in (await client.state())["stack"]] == ["Home"]
        await client.close()
    run(body())


def test_busy_with_reject_policy(server):
    async def body():
        client = await session(server.ws_url)
        await client.ok("configure", busyPolicy="reject")
        first = await client.send_command("push", screen={"name": "A"})
        second = await client.send_command("pop")
        error = await client.reply(second)
        assert error["type"] == "error" and error["code"] == "busy", error
        assert (await client.reply(first))["type"] == "result"
        await client.close()
    run(body())


def test_rate_limited_flood(server):
    async def body():
        client = await session(server.ws_url)
        start = client.mark()
        count = 1000
        for i in range(count):
            await client.send(f'{{"type":"ping","id":{i},"t":0}}')
        error = await client.wait_message(lambda m: m["type"] == "error", since=start, timeout=10)
        assert error["code"] == "rate_limited", error
        await client.quiet_for(0.5)
        pongs = len(client.messages(start, "pong"))
        assert pongs < count, f"all {count} pings were answered: no rate limit"
        assert pongs >= 100, f"only {pongs} pongs: the limit should allow bursts of a few hundred"
        # The connection stays usable once the sender slows down.
        await asyncio.sleep(1.5)
        await still_works(client)
        await client.close()
    run(body())


def test_forbidden_for_a_watcher(server):
    async def body():
        control = await session(server.ws_url)
        token = control.messages(type="welcome")[0]["session"]
        watcher = await open_client(server.ws_url)
        start = watcher.mark()
        welcome = await watcher.hello(session=token, role="view")
        assert welcome["type"] == "welcome" and welcome["role"] == "view", welcome
        await watcher.wait_frame(since=start)
        for op, fields in [("push", {"screen": {"name": "A"}}), ("pop", {}), ("selectTab", {"index": 0}),
                           ("configure", {"busyPolicy": "reject"}), ("setBadge", {"index": 0, "badge": "1"}),
                           ("page", {"action": "pop"})]:
            reply = await watcher.command(op, **fields)
            assert reply["type"] == "error" and reply["code"] == "forbidden", (op, reply)
        # Reading is allowed: tools that watch a person's session need the state and the events.
        reply = await watcher.command("query", what="state")
        assert reply["type"] == "result" and "kind" in reply["value"], reply
        reply = await watcher.command("subscribe", events=["lifecycle"])
        assert reply["type"] == "result" and reply["value"] == {"events": ["lifecycle"]}, reply
        for message in [{"type": "pointer", "phase": "down", "id": 1, "x": 10, "y": 300, "t": 0},
                        {"type": "key", "key": "Escape"},
                        {"type": "resize", "width": 300, "height": 300}]:
            start = watcher.mark()
            await watcher.send(message)
            error = await next_error(watcher, start)
            assert error["code"] == "forbidden", (message, error)
        # A watcher may still ping.
        start = watcher.mark()
        await watcher.send({"type": "ping", "id": 9, "t": 9})
        await watcher.wait_message(lambda m: m["type"] == "pong", since=start)
        assert [e["screen"] for e in (await control.state())["stack"]] == ["Home"]
        await watcher.close()
        await control.close()
    run(body())


def test_scroll_to_on_a_navigation_stack_is_not_found(server):
    async def body():
        client = await session(server.ws_url)
        reply = await client.command("scrollTo", index=1, animated=False)
        assert reply["type"] == "error" and reply["code"] == "not_found", reply
        assert "stacked split" in reply["message"], reply
        reply = await client.command("scrollTo")
        assert reply["type"] == "error" and reply["code"] == "bad_message", reply
        # setRoot with side tabs is supported now; with a stack, too.
        side = {"kind": "sideTabs", "selected": 0, "tabs": [
            {"id": "home", "title": "Home", "icon": "home", "root": {"name": "Home"}}]}
        assert await client.ok("setRoot", root=side) == {"root": "sideTabs"}
        value = await client.ok("setRoot", root={"kind": "stack", "id": "main", "root": {"name": "Fresh", "title": "Fresh"}})
        assert value is not None
        await client.settle()
        assert [p["name"] for p in client.pages()] == ["Fresh"]
        await client.close()
    run(body())


def test_too_large_message_closes_with_1009(server):
    async def body():
        client = await session(server.ws_url)
        other = await session(server.ws_url)
        big = '{"type":"ping","id":"' + "x" * (70 * 1024) + '","t":0}'
        await client.send(big)
        code = await client.wait_closed()
        assert code == 1009, f"a {len(big)}-byte message: close code {code}, expected 1009"
        await still_works(other)
        await other.close()
    run(body())


def test_message_just_under_the_limit_is_accepted(server):
    async def body():
        client = await session(server.ws_url)
        start = client.mark()
        padding = "x" * (60 * 1024)
        await client.send({"type": "ping", "id": padding, "t": 1})
        pong = await client.wait_message(lambda m: m["type"] == "pong", since=start)
        assert pong["id"] == padding
        await client.close()
    run(body())


def test_errors_are_counted_in_metrics(server):
    """The bad_json of this test shows in /metrics (checked in test_http too, with the rest)."""
    import urllib.request

    async def body():
        client = await session(server.ws_url)
        start = client.mark()
        await client.send("{")
        assert (await next_error(client, start))["code"] == "bad_json"
        await client.close()
    run(body())
    text = urllib.request.urlopen(f"{server.http_url}/metrics", timeout=5).read().decode()
    lines = [line for line in text.splitlines() if line.startswith('stackcast_errors_total{code="bad_json"}')]
    assert lines and float(lines[0].split()[-1]) >= 1, text

