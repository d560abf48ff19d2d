"""A hostile client on loopback: what one connection or one address may take of the server.
Each test is the regression test of one finding of the abuse probe: sessions piled up by one
connection, rate limits dodged by reconnecting, unbounded stacks, replies and event bursts too big
for the outbox, an unbounded command queue, and a watch link that could take control."""

import asyncio
import time

import pytest

from stackcast_client import VIEWPORT, open_client, run, session


def token_of(client):
    return client.messages(type="welcome")[-1]["session"]


def error_with(client, code, text, since=0):
    return [m for m in client.messages(since, "error") if m["code"] == code and text in m["message"]]


# 1. One connection fills the session table.

def test_hello_again_ends_the_session_the_connection_started(start_server):
    server = start_server("--max-sessions", "3")

    async def body():
        client = await open_client(server.ws_url)
        tokens = []
        for _ in range(10):
            welcome = await client.hello()
            assert welcome["type"] == "welcome", welcome
            tokens.append(welcome["session"])
        assert len(set(tokens)) == 10
        assert server.metric("stackcast_sessions") == 1
        # The sessions it left are gone at once, not kept for a resume.
        other = await open_client(server.ws_url)
        reply = await other.hello(session=tokens[0])
        assert reply["type"] == "error" and reply["code"] == "not_found", reply
        # Everyone else still gets a session.
        visitors = [await session(server.ws_url) for _ in range(2)]
        # Saying hello again with the session's own token keeps it (a full-frame request).
        again = await client.hello(session=tokens[-1])
        assert again["type"] == "welcome" and again["session"] == tokens[-1], again
        for c in (client, other, *visitors):
            await c.close()
    run(body())


def test_a_session_someone_else_is_in_is_not_ended(server):
    async def body():
        owner = await session(server.ws_url)
        token = token_of(owner)
        watcher = await open_client(server.ws_url)
        assert (await watcher.hello(session=token, role="view"))["type"] == "welcome"
        await owner.hello()
        # The watcher stays in the first session; its owner can come back to it.
        back = await open_client(server.ws_url)
        welcome = await back.hello(session=token)
        assert welcome["type"] == "welcome" and welcome["role"] == "control", welcome
        for c in (owner, watcher, back):
            await c.close()
    run(body())


def test_sessions_per_peer_address_are_capped(start_server):
    server = start_server("--max-sessions-per-peer", "2")

    async def body():
        first = await session(server.ws_url)
        second = await session(server.ws_url)
        third = await open_client(server.ws_url)
        reply = await third.hello()
        assert reply["type"] == "error" and reply["code"] == "busy", reply
        assert "127.0.0.1 already holds 2 sessions" in reply["message"], reply
        # Closing a connection keeps its session for a resume: it still counts.
        await second.close()
        reply = await third.hello()
        assert reply["type"] == "error" and reply["code"] == "busy", reply
        # A connection replacing its own session is not refused; a session that ended no longer counts.
        welcome = await first.hello()
        assert welcome["type"] == "welcome", welcome
        for c in (first, third):
            await c.close()
    run(body())


# 2. Rate limit bypassed by reconnecting; no depth limit.

def test_a_resume_keeps_the_sessions_rate_limit(server):
    async def body():
        first = await session(server.ws_url)
        token = token_of(first)
        for i in range(1000):
            await first.send({"type": "command", "id": f"a{i}", "op": "query"})
        await first.wait_message(lambda m: m.get("id") == "a999")
        await first.close()
        second = await open_client(server.ws_url)
        assert (await second.hello(session=token))["type"] == "welcome"
        for i in range(300):
            await second.send({"type": "command", "id": f"b{i}", "op": "query"})
        await second.wait_message(lambda m: m.get("id") == "b299")
        # The new connection's own bucket is full: only the session's, which the resume kept,
        # refuses these.
        limited = error_with(second, "rate_limited", "to this session")
        assert limited, second.tail()
        assert "more than 200 messages per second" in limited[0]["message"]
        await second.close()
    run(body())


def test_an_address_has_one_bucket_for_all_its_connections(start_server):
    server = start_server("--peer-messages-per-second", "50")

    async def body():
        clients = [await session(server.ws_url) for _ in range(3)]
        for n in range(60):
            for c in clients:
                await c.send({"type": "ping", "id": n, "t": 0})
        # Whichever connection's message finds the bucket empty is told; wait for any of them.
        deadline = time.monotonic() + 10
        limited = []
        while not limited and time.monotonic() < deadline:
            limited = [m for c in clients for m in error_with(c, "rate_limited", "from 127.0.0.1, all its connections together")]
            await asyncio.sleep(0.05)
        assert limited, [c.tail() for c in clients]
        assert "more than 50 messages per second" in limited[0]["message"]
        for c in clients:
            await c.close()
        # A new connection from the same address gets no fresh bucket.
        fresh = await open_client(server.ws_url)
        # More than the bucket could hold even if it had refilled to its burst of 100 meanwhile.
        for n in range(250):
            await fresh.send({"type": "ping", "id": n, "t": 0})
        await fresh.wait_message(lambda m: m["type"] == "error" and m["code"] == "rate_limited")
        await fresh.close()
    run(body())


def test_a_stack_has_a_maximum_depth(start_server):
    server = start_server("--max-stack-depth", "5")

    async def body():
        client = await session(server.ws_url)
        for i in range(4):
            await client.ok("push", screen={"name": f"P{i}"}, transition="none")
        reply = await client.command("push", screen={"name": "P4"}, transition="none")
        assert reply["type"] == "error" and reply["code"] == "invalid_state", reply
        assert "holds 5 pages" in reply["message"] and "is 5" in reply["message"], reply
        # popTo the top with `then` is a push too.
        reply = await client.command("popTo", name="P3", then={"screen": {"name": "X"}})
        assert reply["type"] == "error" and reply["code"] == "invalid_state", reply
        reply = await client.command("setStack", screens=[{"name": f"S{i}"} for i in range(6)])
        assert reply["type"] == "error" and reply["code"] == "bad_message", reply
        assert "at most 5 pages" in reply["message"], reply
        assert len((await client.state())["stack"]) == 5
        # Below the limit everything works as before.
        await client.ok("pop", transition="none")
        await client.ok("push", screen={"name": "Again"}, transition="none")
        await client.close()
    run(body())


# 3. A big reply kills its own connection and stalls everyone.

async def deep_stack_with_long_titles(client, pages=299, title=4000):
    for i in range(pages):
        await client.send({"type": "command", "id": f"p{i}", "op": "push", "transition": "none",
                           "screen": {"name": f"P{i}" + "n" * title, "title": "t" * title}})
    reply = await client.reply(f"p{pages - 1}", timeout=30)
    assert reply["type"] == "result", reply


# A stack this heavy is past a session's default memory budget and, built from one address, past
# its share of the thread; these servers allow both.
ROOMY = ("--session-memory-kib", "16384", "--peer-cpu-percent", "0")


def test_a_reply_over_the_limit_is_too_large_and_the_connection_lives(start_server):
    server = start_server(*ROOMY)

    async def body():
        client = await session(server.ws_url)
        await deep_stack_with_long_titles(client)
        reply = await client.command("query", timeout=30)
        assert reply["type"] == "error" and reply["code"] == "too_large", reply
        assert "1048576 a reply may have" in reply["message"], reply
        start = client.mark()
        await client.send({"type": "ping", "id": "alive", "t": 0})
        await client.wait_message(lambda m: m["type"] == "pong", since=start)
        assert not client.closed
        await client.close()
    run(body())


def test_an_event_burst_is_bounded_and_said_so(start_server):
    server = start_server(*ROOMY)

    async def body():
        client = await session(server.ws_url)
        await deep_stack_with_long_titles(client)
        await client.ok("subscribe", events=["lifecycle"])
        start = client.mark()
        await client.ok("popToRoot", transition="none", timeout=30)
        # Said once per run of dropped events: a server slow enough (a debug or sanitizer build
        # on a loaded machine) refills the budget mid-burst and says it again for the next run.
        # The exact sequence on a clock of its own: SubscriptionTests.
        dropped = error_with(client, "too_large", "events are coming faster than 262144 bytes per second", since=start)
        assert dropped and all("id" not in notice for notice in dropped), client.tail()
        released = [e for e in client.events(start) if e["name"] == "released"]
        assert 0 < len(released) < 299
        assert len((await client.state())["stack"]) == 1
        await client.close()
    run(body())


# 4. The command queue is unbounded.

SLOW = {"kind": "custom", "duration": 2, "from": {"dy": 300}}


def test_the_command_queue_is_capped(server):
    async def body():
        client = await session(server.ws_url)
        first = await client.send_command("push", screen={"name": "Slow"}, transition=SLOW)
        ids = [await client.send_command("push", screen={"name": f"Q{i}"}, transition="none") for i in range(130)]
        await client.wait_message(lambda m: m.get("id") == ids[-1])
        refused = [m for m in client.messages(type="error") if m.get("id") in ids]
        assert len(refused) == 30, client.tail()
        assert all(m["code"] == "busy" and "100 commands are waiting" in m["message"] for m in refused), refused[0]
        assert (await client.reply(first))["type"] == "result"
        await client.reply(ids[99], timeout=20)
        await client.close()
    run(body())


def test_the_command_queue_is_capped_in_bytes(server):
    async def body():
        client = await session(server.ws_url)
        await client.send_command("push", screen={"name": "Slow"}, transition=SLOW)
        big = {"name": "Big", "title": "x" * 60_000}
        ids = [await client.send_command("push", screen=big, transition="none") for _ in range(20)]
        await client.wait_message(lambda m: m.get("id") == ids[-1] and m["type"] == "error")
        refused = [m for m in client.messages(type="error") if m.get("id") in ids]
        assert refused and all("over the 1048576 bytes a session may queue" in m["message"] for m in refused), client.tail()
        assert len(refused) < 20
        await client.close()
    run(body())


def test_a_controllers_queued_commands_go_with_it(server):
    async def body():
        old = await session(server.ws_url)
        token = token_of(old)
        await old.send_command("push", screen={"name": "Slow"}, transition=SLOW)
        for i in range(50):
            await old.send_command("push", screen={"name": f"Q{i}"}, transition="none")
        new = await open_client(server.ws_url)
        assert (await new.hello(session=token))["type"] == "welcome"
        assert await old.wait_closed() == 1008
        # The running push finishes; the 50 queued behind it never run.
        mine = await new.ok("push", screen={"name": "Mine"}, transition="none", timeout=20)
        state = await new.state()
        assert [p["screen"] for p in state["stack"]] == ["Home", "Slow", "Mine"], state
        assert mine["vc"] == state["stack"][-1]["vc"]
        await new.close()
    run(body())


# 5. A watch link takes control.

def test_a_watch_token_only_watches(server):
    async def body():
        owner = await session(server.ws_url)
        welcome = owner.messages(type="welcome")[0]
        watch = welcome["watchToken"]
        assert isinstance(watch, str) and len(watch) == 32 and watch != welcome["session"]
        watcher = await open_client(server.ws_url)
        joined = await watcher.hello(session=watch, role="control")
        assert joined["type"] == "welcome" and joined["role"] == "view", joined
        assert joined["session"] == watch and welcome["session"] not in str(joined), joined
        await watcher.wait_frame(since=0)
        reply = await watcher.command("push", screen={"name": "Hijack"})
        assert reply["type"] == "error" and reply["code"] == "forbidden", reply
        # The owner was not kicked and still drives the session.
        await owner.ok("push", screen={"name": "Mine"})
        assert not owner.closed
        assert [p["screen"] for p in (await watcher.state())["stack"]] == ["Home", "Mine"]
        for c in (owner, watcher):
            await c.close()
    run(body())


def test_watch_tokens_work_on_every_service_thread(start_server):
    server = start_server("--threads", "3")

    async def body():
        for _ in range(4):
            owner = await session(server.ws_url)
            watch = owner.messages(type="welcome")[0]["watchToken"]
            watchers = []
            for _ in range(3):
                watcher = await open_client(server.ws_url)
                joined = await watcher.hello(session=watch, role="control")
                assert joined["type"] == "welcome" and joined["role"] == "view", joined
                await watcher.wait_frame(since=0)
                watchers.append(watcher)
            await owner.ok("push", screen={"name": "Mine"}, transition="none")
            assert not owner.closed
            for c in (owner, *watchers):
                await c.close()
    run(body())


@pytest.mark.rss
def test_a_session_cannot_hold_more_than_its_memory_budget(server):
    """300 pages of 1,500 rows held half a gigabyte in one session; pages past the budget are
    refused with too_large, the stack as it was, and the server's memory stays near it."""
    async def body():
        client = await session(server.ws_url)
        before = server.rss_kib()
        rows = [{"title": f"Row {i}", "detail": "detail"} for i in range(1500)]
        reply = await client.command("push", screen={"name": "Huge", "rows": rows}, transition="none")
        assert reply["type"] == "error" and reply["code"] == "too_large", reply
        assert reply["message"].startswith("this push would bring this session's pages to about "), reply
        assert "over its budget of 2048 KiB" in reply["message"], reply
        pushed = 0
        for i in range(40):
            reply = await client.command("push", screen={"name": f"P{i}", "rows": rows[:200]}, transition="none")
            if reply["type"] == "error":
                assert reply["code"] == "too_large", reply
                break
            pushed += 1
        assert 0 < pushed < 10
        state = await client.state()
        assert [page["screen"] for page in state["stack"]][1:] == [f"P{i}" for i in range(pushed)]
        # A session at its budget holds a few MB, not hundreds.
        assert server.rss_kib() - before < 16 * 1024
        await client.close()
    run(body())


def test_an_address_whose_messages_cost_much_gets_its_share_of_the_thread_and_no_more(start_server):
    """40 sessions from one address resizing long lists pushed another session's ping to seconds.
    Each message now counts for the service-thread time it took: the costly address is refused
    with rate_limited once over half a thread, and another address's pings keep coming."""
    server = start_server("--threads", "1")
    rows = [{"title": f"Row {i}", "detail": "d"} for i in range(800)]

    async def body():
        noisy = []
        for index in range(6):
            # Another loopback address: the server counts it as another peer.
            client = await open_client(server.ws_url, local_addr=("127.0.0.2", 0))
            mark = client.mark()
            assert (await client.hello(app="stack", viewport=VIEWPORT))["type"] == "welcome"
            await client.wait_frame(since=mark)
            await client.ok("push", screen={"name": f"Long{index}", "rows": rows}, transition="none")
            noisy.append(client)
        quiet = await session(server.ws_url, app="stack")
        start = [client.mark() for client in noisy]
        rtts = []
        stop = time.monotonic() + 4
        sizes = [(390, 844), (1024, 1366)]

        async def resize_flood(client):
            flip = 0
            while time.monotonic() < stop:
                width, height = sizes[flip % 2]
                flip += 1
                await client.send({"type": "resize", "width": width, "height": height, "scale": 1,
                                   "safeArea": {"top": 0, "left": 0, "bottom": 0, "right": 0}})
                # Under a connection's 200 messages a second: only the work limit holds it back.
                await asyncio.sleep(0.006)

        async def pings():
            index = 0
            while time.monotonic() < stop:
                mark = quiet.mark()
                sent = time.monotonic()
                await quiet.send({"type": "ping", "id": f"q{index}", "t": 0})
                await quiet.wait_message(lambda m: m["type"] == "pong" and m.get("id") == f"q{index}", since=mark, timeout=10)
                rtts.append(time.monotonic() - sent)
                index += 1
                await asyncio.sleep(0.05)

        await asyncio.gather(pings(), *(resize_flood(client) for client in noisy))
        refused = [error_with(client, "rate_limited", "took more than 50% of a service thread", since=mark)
                   for client, mark in zip(noisy, start)]
        assert any(refused), "the resizing address was never refused"
        assert not error_with(quiet, "rate_limited", ""), "the quiet address was refused"
        rtts.sort()
        # Bounded, with room for a loaded machine: before the work budget this read seconds.
        assert rtts[int(len(rtts) * 0.99) - 1] < 0.5, rtts[-5:]
        for client in noisy + [quiet]:
            await client.close()
    run(body())
