"""Sessions kept in Redis (`serve --state redis://HOST:PORT`, docs/operations.md): a session whose
node died comes back on another with the same state and picture, and its watchers follow with
the same watch token; an old owner that runs on past a takeover writes nothing and closes its
viewers with 1012; Redis paused or restarted loses no input and holds up no service thread; an
unreachable Redis or a bad URL stops `serve` at start.

Every Redis is the test's own (Tests/Support/redis_testing.py) on loopback; every wait is bounded."""

import asyncio
import os
import signal
import subprocess
import time
import urllib.error
import urllib.request

from websockets.asyncio.client import connect

from redis_testing import free_port, needs_redis, start_redis  # noqa: F401 (fixture)
from stackcast_client import SUBPROTOCOL, W, H, Client, open_client, run, session
from stackcast_testing import ROOT, server_binary, wait_until

SAFE_TOP, SAFE_BOTTOM = 47, 34
VIEWPORT = {"width": W, "height": H, "scale": 3, "safeArea": {"top": SAFE_TOP, "bottom": SAFE_BOTTOM}}
TURN_BUCKET = 'stackcast_service_turn_seconds_bucket{le="0.25"}'
TURN_COUNT = "stackcast_service_turn_seconds_count"


def rows_screen(name="List", count=40):
    return {"name": name, "rows": [{"title": f"Row {i}"} for i in range(count)]}


def screens(stack):
    return [page["screen"] for page in stack]


def welcome_of(client, index=-1):
    return client.messages(type="welcome")[index]


def sigkill(server):
    """Kills a node the way a crash would; the fixture then leaves it alone."""
    os.kill(server.pid, signal.SIGKILL)
    server.process.wait(10)
    server.stopped = True
    server.returncode = server.process.returncode


def healthz(server):
    """(status, body) of GET /healthz."""
    try:
        with urllib.request.urlopen(f"{server.http_url}/healthz", timeout=5) as response:
            return response.status, response.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode()


def long_turns(server):
    """Service-loop turns that took longer than 0.25 s so far, from one reading of /metrics (the
    count and the bucket read apart would disagree)."""
    text = urllib.request.urlopen(f"{server.http_url}/metrics", timeout=5).read().decode()
    values = {line.split()[0]: float(line.split()[1]) for line in text.splitlines() if line.startswith("stackcast_service_turn_seconds")}
    return values[TURN_COUNT] - values[TURN_BUCKET]


async def resume(url, token, role=None):
    """A resume with the token in the URL and the hello: the client and its welcome, after the
    first frame."""
    client = await open_client(f"{url}?session={token}")
    start = client.mark()
    welcome = await client.hello(app=None, viewport=VIEWPORT, session=token, **({"role": role} if role else {}))
    assert welcome["type"] == "welcome", welcome
    await client.wait_frame(since=start)
    return client, welcome


async def without_reconnection(url):
    """A client that does not reconnect after a 1012 (the package's does, to the same URL, which
    would take the session back)."""
    ws = await connect(url, subprotocols=[SUBPROTOCOL], proxy=None, max_size=None, ping_interval=None,
                       open_timeout=10, close_timeout=5, compression=None)
    return Client(ws)


async def pushed(url, pages):
    """A new stack session with `pages` pushed, at rest: the client and its token."""
    client = await session(url, viewport=VIEWPORT, app="stack")
    for page in pages:
        await client.ok("push", screen={"name": page, "title": page})
    await client.settle()
    return client, welcome_of(client)["session"]


@needs_redis
def test_a_session_killed_with_its_node_comes_back_on_the_other_with_the_same_state_and_next_frame(start_redis, start_server):
    redis = start_redis()
    s1 = start_server("--node-id", "s1", "--state", redis.url, "--app", "stack")
    s2 = start_server("--node-id", "s2", "--state", redis.url, "--app", "stack")

    async def body():
        control = await session(s1.ws_url, viewport=VIEWPORT)
        first = welcome_of(control)
        token, watch_token = first["session"], first["watchToken"]
        # Tabs, a scrolled list in the first, a page pushed in the second, which is selected.
        tabs = [{"id": "list", "title": "List", "root": rows_screen()}, {"id": "other", "title": "Other", "root": {"name": "Other"}}]
        await control.ok("setRoot", root={"kind": "tabs", "tabs": tabs, "selected": 0})
        await control.send({"type": "scroll", "x": 200, "y": 400, "dx": 0, "dy": 300, "t": 0})
        await control.settle()
        await control.ok("selectTab", index=1)
        await control.ok("push", screen={"name": "Detail", "title": "Detail"})
        await control.settle()
        watcher = await open_client(s1.ws_url)
        welcome = await watcher.hello(session=watch_token, role="view", viewport=VIEWPORT)
        assert (welcome["type"], welcome.get("role")) == ("welcome", "view"), welcome
        await watcher.wait_frame(since=0)
        # A command's result waits for its line in Redis, and the lines are in order: once the
        # state is answered, every input before it is stored.
        before = await control.state()
        assert before["selected"] == 1 and before["tabs"][0]["stack"][0].get("scrollOffset") == 300, before
        assert screens(before["tabs"][1]["stack"]) == ["Other", "Detail"], before
        last_picture = control.display_list()

        sigkill(s1)
        await control.close()
        await watcher.close()

        resumed, welcome = await resume(s2.ws_url, token)
        assert (welcome["session"], welcome["resumed"], welcome.get("migrated"), welcome["role"]) == (token, True, True, "control"), welcome
        assert welcome.get("watchToken") == watch_token, welcome
        assert resumed.display_list() == last_picture, "the first frame on s2 is not the last picture s1 sent"
        assert await resumed.state() == before

        rewatcher, welcome = await resume(s2.ws_url, watch_token, role="view")
        assert (welcome["role"], welcome["resumed"]) == ("view", True), welcome
        assert rewatcher.display_list() == resumed.display_list()
        start = rewatcher.mark()
        await resumed.ok("push", screen={"name": "After", "title": "After"})
        await resumed.settle()
        await rewatcher.wait_until(lambda: "After" in [p["name"] for p in rewatcher.pages()], what="the page pushed on s2 at the watcher")
        await rewatcher.settle()
        assert len(rewatcher.messages(start, "frame")) >= 3, rewatcher.messages(start, "frame")
        assert rewatcher.display_list() == resumed.display_list()
        assert s2.metric("stackcast_sessions_migrated_total") == 1
        await rewatcher.close()
        await resumed.close()
    run(body(), timeout=90)


@needs_redis
def test_an_old_owner_paused_past_the_takeover_writes_nothing_and_closes_its_viewers_with_1012(start_redis, start_server):
    redis = start_redis()
    s1 = start_server("--node-id", "s1", "--state", redis.url, "--app", "stack")
    s2 = start_server("--node-id", "s2", "--state", redis.url, "--app", "stack")
    stale_id = "stale-push-from-the-old-owner"

    async def body():
        old = await without_reconnection(s1.ws_url)
        start = old.mark()
        welcome = await old.hello(app="stack", viewport=VIEWPORT)
        token = welcome["session"]
        await old.wait_frame(since=start)
        await old.ok("push", screen={"name": "Detail", "title": "Detail"})
        await old.settle()

        os.kill(s1.pid, signal.SIGSTOP)
        try:
            new, welcome = await resume(s2.ws_url, token)
            assert (welcome["resumed"], welcome.get("migrated")) == (True, True), welcome
            await new.ok("push", screen={"name": "Taken", "title": "Taken"})
            # Buffered by the kernel until s1 runs again.
            await old.send({"type": "command", "id": stale_id, "op": "push", "screen": {"name": "Stale", "title": "Stale"}})
            await asyncio.sleep(0.3)
        finally:
            os.kill(s1.pid, signal.SIGCONT)
        continued = time.monotonic()
        assert await old.wait_closed(timeout=15) == 1012
        closed_after = time.monotonic() - continued
        assert closed_after < 5, f"the old owner served the session {closed_after:.1f} s after it ran again"
        answers = [m for m in old.messages(type="result") + old.messages(type="error") if m.get("id") == stale_id]
        assert not any(m.get("ok") for m in answers), f"the old owner acknowledged a command the new one lacks: {answers}"

        await new.settle()
        assert screens((await new.state())["stack"]) == ["Home", "Detail", "Taken"]
        assert not new.closed
        keys = redis.command("KEYS", "stackcast:input:*")
        assert len(keys) == 1, keys
        lines = redis.command("LRANGE", keys[0], 0, -1)
        assert any("Taken" in line for line in lines), "the new owner's push is not in Redis"
        assert [line for line in lines if stale_id in line] == []
        await new.close()
        await old.close()
    run(body(), timeout=90)
    assert "session moved to another server" in s1.log_tail(200), s1.log_tail()


@needs_redis
def test_redis_stopped_for_five_seconds_under_load_loses_nothing_and_blocks_no_thread(start_redis, start_server):
    redis = start_redis()
    node = start_server("--node-id", "s1", "--state", redis.url, "--app", "stack", "--threads", "1")

    async def body():
        dragger = await session(node.ws_url, viewport=VIEWPORT)
        await dragger.ok("setRoot", root={"kind": "stack", "root": rows_screen()})
        pusher = await session(node.ws_url, viewport=VIEWPORT)
        idle = [(await pushed(node.ws_url, ["One", "Two"][:i + 1]))[0] for i in range(2)]
        clients = [dragger, pusher, *idle]
        tokens = [welcome_of(c)["session"] for c in clients]
        stop = asyncio.Event()

        async def drag():
            # A finger moving up and down a list at 60 Hz: a frame every tick.
            t, y, step = 1000.0, 400.0, 6.0
            await dragger.pointer("down", 200, y, t)
            while not stop.is_set():
                await asyncio.sleep(1 / 60)
                t += 1000 / 60
                y += step
                if not 250 <= y <= 550:
                    step = -step
                await dragger.pointer("move", 200, y, t, samples=[[200, y, t]])
            await dragger.pointer("up", 200, y, t + 200)

        pushes = []  # (command id, when sent)

        async def push():
            # Results are collected at the end: while Redis is away they wait.
            while not stop.is_set():
                name = f"P{len(pushes)}"
                pushes.append((await pusher.send_command("push", screen={"name": name, "title": name}), time.monotonic()))
                await asyncio.sleep(0.5)

        tasks = [asyncio.create_task(drag()), asyncio.create_task(push())]
        await asyncio.sleep(1)
        long_before = await asyncio.to_thread(long_turns, node)

        redis.pause()
        paused = time.monotonic()
        drag_mark = dragger.mark()
        try:
            while True:
                status, text = await asyncio.to_thread(healthz, node)
                assert status == 200, (status, text)
                if text.startswith("degraded:"):
                    break
                assert time.monotonic() - paused < 4, f"/healthz still says {text!r} 4 s after Redis stopped"
                await asyncio.sleep(0.1)
            await asyncio.sleep(max(0.0, paused + 5 - time.monotonic()))
            status, text = await asyncio.to_thread(healthz, node)
            assert status == 200 and text.startswith("degraded:"), (status, text)
        finally:
            drag_frames = len(dragger.messages(drag_mark, "frame"))
            continued = time.monotonic()
            redis.resume()
        # The session drawn on while Redis was away (a thread waiting on Redis would draw nothing).
        assert drag_frames >= 30, f"{drag_frames} frames of the drag in the 5 s without Redis"
        while (answer := await asyncio.to_thread(healthz, node)) != (200, "ok\n"):
            assert time.monotonic() - continued < 5, f"/healthz still says {answer} 5 s after Redis came back"
            await asyncio.sleep(0.1)
        await asyncio.sleep(1)
        stop.set()
        await asyncio.gather(*tasks)

        replies = [await pusher.reply(command_id, timeout=20) for command_id, _ in pushes]
        assert [r for r in replies if not (r["type"] == "result" and r.get("ok") is True)] == []
        # A result waits for its line in Redis: none of those sent while it was away came before it was back.
        arrivals = {m.get("id"): arrived for arrived, m in pusher.log if m["type"] == "result"}
        early = [c for c, sent in pushes if paused < sent < continued and arrivals[c] < continued]
        assert early == [] and any(paused < sent < continued for _, sent in pushes), (early, pushes)
        for client in clients:
            await client.settle(timeout=20)
        long_after = await asyncio.to_thread(long_turns, node)
        assert long_after == long_before, f"{long_after - long_before} service-loop turns took over 0.25 s"
        befores = [await client.state() for client in clients]
        # Every push came through; how many were sent in the window depends on the machine's load
        # (a push every 0.5 s for about 7 s: 14 or 15 on a busy one).
        assert len(befores[1]["stack"]) == len(pushes) + 1 and len(pushes) >= 10, (len(pushes), screens(befores[1]["stack"]))
        assert befores[0]["stack"][0].get("scrollOffset", 0) > 0, befores[0]
        for client in clients:
            await client.close()
        return tokens, befores

    tokens, befores = run(body(), timeout=120)
    log = node.log_tail(400)
    assert log.count("Redis unreachable") == 1 and "Redis reachable again" in log, log

    sigkill(node)
    other = start_server("--node-id", "s2", "--state", redis.url, "--app", "stack", "--threads", "1")

    async def resumed():
        for token, before in zip(tokens, befores):
            client, welcome = await resume(other.ws_url, token)
            assert welcome.get("migrated") is True, welcome
            assert await client.state() == before
            await client.close()
    run(resumed(), timeout=60)


@needs_redis
def test_redis_restarted_with_aof_loses_no_session(start_redis, start_server):
    redis = start_redis()
    node = start_server("--node-id", "s1", "--state", redis.url, "--app", "stack")

    async def body():
        client, token = await pushed(node.ws_url, ["One", "Two"])
        assert screens((await client.state())["stack"]) == ["Home", "One", "Two"]
        redis.kill()
        redis.restart()
        # Whether or not the node noticed Redis going, it answers ok once it is back.
        wait_until(lambda: healthz(node) == (200, "ok\n"), 10, lambda: f"/healthz ok; it says {healthz(node)}")
        await client.ok("push", screen={"name": "Three", "title": "Three"}, timeout=20)
        await client.settle()
        before = await client.state()
        assert screens(before["stack"]) == ["Home", "One", "Two", "Three"]
        await client.close()
        return token, before

    token, before = run(body(), timeout=90)
    sigkill(node)
    other = start_server("--node-id", "s2", "--state", redis.url, "--app", "stack")

    async def resumed():
        client, welcome = await resume(other.ws_url, token)
        assert welcome.get("migrated") is True, welcome
        assert await client.state() == before
        await client.close()
    run(resumed(), timeout=60)


def test_serve_refuses_an_unreachable_redis_and_a_bad_url(tmp_path):
    def serve(*args):
        return subprocess.run([str(server_binary()), "serve", "--port", "0", "--web", "Web", *args], cwd=ROOT,
                              capture_output=True, text=True, timeout=30)

    unreachable = serve("--state", f"redis://127.0.0.1:{free_port()}")
    assert unreachable.returncode == 1, (unreachable.returncode, unreachable.stderr)
    assert "--state" in unreachable.stderr and "cannot connect" in unreachable.stderr, unreachable.stderr
    assert "Stackcast serving" not in unreachable.stdout, unreachable.stdout

    bad = serve("--state", "http://x")
    assert bad.returncode == 64, (bad.returncode, bad.stderr)
    assert "redis://" in bad.stderr, bad.stderr

    both = serve("--state", "redis://127.0.0.1:6379", "--state-dir", str(tmp_path / "state"))
    assert both.returncode == 64, (both.returncode, both.stderr)
    assert "--state-dir" in both.stderr and "--state" in both.stderr, both.stderr


@needs_redis
def test_a_long_used_session_rests_in_a_checkpoint_of_a_few_kilobytes_and_comes_back_from_it(start_redis, start_server):
    """10,000 pointer moves and 200 pushes and pops, then a second at rest: what Redis holds of
    the session is its checkpoint, under 16 KB, and another node takes the session over from it
    as it was."""
    redis = start_redis()
    s1 = start_server("--node-id", "s1", "--state", redis.url)
    s2 = start_server("--node-id", "s2", "--state", redis.url)

    def stored_bytes():
        keys = redis.command("KEYS", "stackcast:input:*")
        assert len(keys) == 1, keys
        return sum(len(line) + 1 for line in redis.command("LRANGE", keys[0], 0, -1))

    async def body():
        control = await session(s1.ws_url, viewport=VIEWPORT, app="phone")
        token = welcome_of(control)["session"]
        # Without animation: the pages come and go all the same, in a fraction of the time.
        for index in range(100):
            await control.ok("push", screen={"name": f"P{index}", "title": f"P{index}"}, transition="none")
            await control.ok("pop", transition="none")
        # 50 drags up and down the Library list, 200 moves each, ten samples to a message.
        t = 1000.0
        for drag in range(50):
            y0, y1 = (650.0, 350.0) if drag % 2 == 0 else (350.0, 650.0)
            await control.pointer("down", 200, y0, t)
            for message in range(20):
                samples = []
                for sample in range(10):
                    t += 8
                    samples.append([200, y0 + (y1 - y0) * (message * 10 + sample + 1) / 200, t])
                await control.pointer("move", 200, samples[-1][1], t, samples=samples)
                await asyncio.sleep(0.006)
            await control.pointer("up", 200, y1, t + 8)
            t += 1000
        await control.settle()
        # A row of the Library pushes its page: a checkpoint finds that page's screen in the row.
        playlists = control.find(role="row", name="Playlists")[0]
        x, y = playlists["frame"][0] + 20, playlists["frame"][1] + 20
        await control.pointer("down", x, y, t + 100)
        await control.pointer("up", x, y, t + 150)
        await control.settle()
        before = await control.state()
        assert [page["screen"] for page in before["tabs"][0]["stack"]] == ["Library", "Playlists"], before
        assert stored_bytes() > 100_000

        # A checkpoint replays the session's stored input on a low-priority thread: seconds under
        # a sanitizer on a loaded machine.
        await asyncio.to_thread(wait_until, lambda: s1.metric("stackcast_checkpoints_total") >= 1, 60, "a checkpoint of the session at rest")
        await asyncio.to_thread(wait_until, lambda: stored_bytes() <= 16 << 10, 20, "the checkpoint in Redis")
        last_picture = control.display_list()

        sigkill(s1)
        await control.close()
        resumed, welcome = await resume(s2.ws_url, token)
        assert (welcome["resumed"], welcome.get("migrated")) == (True, True), welcome
        assert resumed.display_list() == last_picture
        assert await resumed.state() == before
        await resumed.close()
    run(body(), timeout=120)
