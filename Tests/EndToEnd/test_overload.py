"""Past capacity, a service thread keeps its sessions first: while its loop turns are too long for
the frame-rate floor (--shed-below-fps), it refuses new sessions with busy, /healthz answers 503
and /metrics counts it, and the sessions it holds are served; once it keeps up, it takes new ones."""

import asyncio
import subprocess
import time
import urllib.error
import urllib.request

from stackcast_client import open_client, run
from stackcast_testing import server_binary


def health(server):
    try:
        answer = urllib.request.urlopen(f"{server.http_url}/healthz", timeout=10)
        return answer.status, answer.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode()


def overloaded_threads(server):
    text = urllib.request.urlopen(f"{server.http_url}/metrics", timeout=10).read().decode()
    line = next(line for line in text.splitlines() if line.startswith("stackcast_service_threads_overloaded "))
    return float(line.split()[1])


async def new_session_answer(server):
    client = await open_client(server.ws_url, local_addr=("127.0.0.3", 0))
    answer = await client.hello(app="stack")
    await client.close()
    return answer


async def first_new_session_answer(server, kind, timeout=30):
    """The first answer of type `kind` to a new session's hello, asked every 0.3 s; None if none
    comes within `timeout` (the thread's state changes with whole seconds: a slow machine takes many)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        answer = await new_session_answer(server)
        if answer["type"] == kind:
            return answer
        await asyncio.sleep(0.3)
    return None


async def admitted(server, local_addr, timeout=30):
    """A new session, asked for again while the thread is past its floor: on a slow build (the
    sanitizers') setting up the test's own sessions is enough to put it there for a second."""
    deadline = time.monotonic() + timeout
    while True:
        client = await open_client(server.ws_url, local_addr=(local_addr, 0))
        answer = await client.hello(app="stack")
        if answer["type"] == "welcome":
            return client
        await client.close()
        assert answer["code"] == "busy" and time.monotonic() < deadline, answer
        await asyncio.sleep(0.5)


def test_a_thread_past_its_floor_refuses_new_sessions_and_serves_its_own(start_server):
    # A floor of 120 fps: turns of 8 ms or more are too long, which six sessions resizing
    # 800-row lists make on any build. Their address may take the whole thread.
    server = start_server("--threads", "1", "--fps", "120", "--shed-below-fps", "120", "--peer-cpu-percent", "0")
    rows = [{"title": f"Row {i}", "detail": "d"} for i in range(800)]

    async def body():
        noisy = []
        for index in range(6):
            client = await admitted(server, "127.0.0.2")
            await client.ok("push", screen={"name": f"Long{index}", "rows": rows}, transition="none")
            noisy.append(client)
        held = await admitted(server, "127.0.0.1")
        await (await admitted(server, "127.0.0.3")).close()
        flooding = True

        async def resize_flood(client):
            # One resize at a time (each followed by a ping whose pong says it was served): the
            # thread is kept busy without a backlog that would outlast the flood.
            flip = 0
            while flooding:
                width, height = [(390, 844), (1024, 1366)][flip % 2]
                flip += 1
                mark = client.mark()
                await client.send({"type": "resize", "width": width, "height": height, "scale": 1,
                                   "safeArea": {"top": 0, "left": 0, "bottom": 0, "right": 0}})
                await client.send({"type": "ping", "id": f"r{flip}", "t": 0})
                await client.wait_message(lambda m, flip=flip: m["type"] == "pong" and m.get("id") == f"r{flip}",
                                          since=mark, timeout=30)

        floods = [asyncio.ensure_future(resize_flood(client)) for client in noisy]
        refused = await first_new_session_answer(server, "error")
        assert refused is not None, "no new session was refused while the thread was overloaded"
        assert refused["code"] == "busy", refused
        assert "at capacity" in refused["message"] and "under 120 frames a second" in refused["message"], refused
        status, text = await asyncio.to_thread(health, server)
        assert status == 503 and text.startswith("busy"), (status, text)
        assert await asyncio.to_thread(overloaded_threads, server) == 1
        # The session it holds is served meanwhile.
        await held.ok("push", screen={"name": "Still served"})
        flooding = False
        await asyncio.gather(*floods)
        welcomed = await first_new_session_answer(server, "welcome")
        assert welcomed is not None, "new sessions were refused after the flood ended"
        assert (await asyncio.to_thread(health, server))[0] == 200
        for client in noisy + [held]:
            await client.close()
    run(body())
    log = server.log_tail(100000)
    assert "Service thread overloaded" in log and "Service thread keeps up again" in log, log[-2000:]


def test_the_floor_is_checked():
    for value in ["-1", "0.5", "61"]:
        result = subprocess.run([str(server_binary()), "serve", f"--shed-below-fps={value}"], capture_output=True, text=True,
                                timeout=30)
        assert result.returncode != 0, value
        assert "--shed-below-fps must be 0 (never refuse) or from 1 to --fps (60)" in result.stderr, result.stderr
