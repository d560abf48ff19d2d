"""The transport under bad input and bad clients: close codes for oversize, binary and invalid
UTF-8 messages; garbage bytes and half-open sockets on the port; a client dropped mid-animation;
a client that stops reading while its session animates (memory stays bounded, others go on);
SIGTERM with clients connected."""

import asyncio
import json
import os
import signal
import socket
import time
import urllib.error
import urllib.request
import pytest

from websockets.asyncio.client import connect

from stackcast_client import SUBPROTOCOL, Client, DisplayState, RawWebSocket, open_client, run, session
from stackcast_testing import wait_until

DETAIL = {"name": "Detail", "title": "Detail"}


async def works(url):
    """A fresh session does a full push and answers a ping."""
    client = await session(url)
    await client.ok("push", screen=DETAIL)
    start = client.mark()
    await client.send({"type": "ping", "id": "ok", "t": 0})
    await client.wait_message(lambda m: m["type"] == "pong", since=start)
    await client.close()


def test_oversize_message_closes_with_1009(server):
    async def body():
        client = await session(server.ws_url)
        await client.send('{"type":"ping","id":"' + "y" * (65 * 1024) + '","t":0}')
        assert await client.wait_closed() == 1009
        await works(server.ws_url)
    run(body())


def test_binary_message_closes_with_1003(server):
    async def body():
        client = await session(server.ws_url)
        await client.ws.send(b'{"type":"ping","id":1,"t":0}')
        assert await client.wait_closed() == 1003
        await works(server.ws_url)
    run(body())


def test_invalid_utf8_closes_with_1007(server):
    async def body():
        client = await session(server.ws_url)
        await client.ws.send(b'{"type":"ping","id":"\xff\xfe\xc3","t":0}', text=True)
        assert await client.wait_closed() == 1007
        await works(server.ws_url)
    run(body())


def test_invalid_utf8_before_hello_closes_with_1007(server):
    raw = RawWebSocket(server.port)
    try:
        raw.send_text(b"\xc0\xaf\xed\xa0\x80")
        assert raw.recv_until_close() == 1007
    finally:
        raw.close()
    run(works(server.ws_url))


def read_until_closed(sock, timeout):
    """Reads what the server sends until it closes the connection; None if still open at `timeout`."""
    sock.settimeout(0.2)
    received = b""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            chunk = sock.recv(65536)
        except socket.timeout:
            continue
        except ConnectionResetError:
            return received
        if not chunk:
            return received
        received += chunk
    return None


def test_garbage_bytes_and_half_open_sockets_do_not_hurt(server):
    idle = []
    try:
        # Sockets that connect and then stay silent, mid-request or mid-frame.
        for partial in [b"", b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n", b"\x16\x03\x01\x00"]:
            sock = socket.create_connection(("127.0.0.1", server.port), timeout=5)
            sock.sendall(partial)
            idle.append(sock)
        half_frame = RawWebSocket(server.port)
        half_frame.sock.sendall(b"\x81\xfe\x10")  # a text frame header cut short
        idle.append(half_frame.sock)
        # Garbage, each on its own connection: the server answers or closes, and goes on.
        garbage = [
            os.urandom(4096),
            b"\x00" * 100 + b"\r\n\r\n",
            b"HELLO WORLD\r\n\r\n",
            b"GET /ws HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            b"Sec-WebSocket-Version: 13\r\n\r\n",  # no key
            b"GET " + b"/a" * 5000 + b" HTTP/1.1\r\n\r\n",
            b"\x81\x85\x00\x00\x00\x00hello",  # a WebSocket frame without a handshake
        ]
        for payload in garbage:
            sock = socket.create_connection(("127.0.0.1", server.port), timeout=5)
            try:
                sock.sendall(payload)
            except (BrokenPipeError, ConnectionResetError):
                pass
            answer = read_until_closed(sock, timeout=10)
            sock.close()
            assert answer is not None, f"the server kept a connection open after {payload[:40]!r}…"
            assert server.alive(), f"the server died after {payload[:40]!r}"
        # A normal session works while the half-open sockets are still connected.
        run(works(server.ws_url))
        # A garbage WebSocket frame after a good handshake (reserved opcode) closes that connection only.
        raw = RawWebSocket(server.port)
        raw.send_json({"type": "hello", "app": "phone"})
        raw.send_frame(0x3, b"reserved opcode")
        assert raw.recv_until_close() in (1002, None)
        raw.close()
        run(works(server.ws_url))
    finally:
        for sock in idle:
            sock.close()
    assert server.alive()


def test_abrupt_close_mid_animation(server):
    async def body():
        other = await session(server.ws_url, subscribe=True)
        dropped = await session(server.ws_url)
        token = dropped.messages(type="welcome")[0]["session"]
        start = dropped.mark()
        await dropped.send_command("push", screen=DETAIL)
        other_push = await other.send_command("push", screen={"name": "Other"})
        await dropped.wait_message(lambda m: m["type"] == "frame", since=start)
        dropped.abort()
        # The other session finishes its push, with its frames consistent (checked by the client).
        reply = await other.reply(other_push)
        assert reply["type"] == "result" and reply["ok"], reply
        await other.settle()
        assert [p["name"] for p in other.pages()] == ["Other"]
        await works(server.ws_url)
        # The dropped session is kept, and its push completed meanwhile.
        resumed = await open_client(server.ws_url)
        start = resumed.mark()
        welcome = await resumed.hello(session=token)
        assert welcome["type"] == "welcome" and welcome["resumed"] is True, welcome
        await resumed.wait_frame(since=start)
        await resumed.settle()
        assert [e["screen"] for e in (await resumed.state())["stack"]] == ["Home", "Detail"]
        assert [(p["name"], p["frame"][0]) for p in resumed.pages()] == [("Detail", 0)]
        await resumed.close()
        await other.close()
    run(body())


BIG_VIEWPORT = {"width": 1000, "height": 10000, "scale": 1}
BIG_ROWS = [{"title": f"Row {i}", "detail": "detail"} for i in range(240)]


@pytest.mark.rss
def test_stalled_reader_keeps_memory_bounded(server):
    """A client that stops reading while its session animates for several seconds: the server
    must not queue every frame for it (latest wins). With a 1000 x 10000 viewport and 240 rows a
    page, each delta of a slide is about 100 KB at 60 frames a second, so queueing them all would
    grow the server by tens of MB."""

    async def body():
        # Warm up the same session with a reading controller (allocator, frame history).
        warm = await session(server.ws_url, viewport=BIG_VIEWPORT)
        token = warm.messages(type="welcome")[0]["session"]
        await warm.ok("push", screen={"name": "Big", "rows": BIG_ROWS}, transition="none")
        await warm.ok("configure", slowMotion=6)
        await warm.ok("push", screen={"name": "Big2", "rows": BIG_ROWS}, timeout=30)
        await warm.ok("pop", timeout=30)
        await warm.settle()
        warm_seq = warm.seq
        await warm.close()
        other = await session(server.ws_url)
        await asyncio.sleep(0.3)
        baseline = server.rss_kib()

        # The stalled reader takes the session over and queues ~9 s of continuous animation.
        stalled = RawWebSocket(server.port, rcvbuf=4096)
        stalled.send_json({"type": "hello", "app": "phone", "session": token, "viewport": BIG_VIEWPORT})
        for index, op in enumerate(["push", "pop", "push", "pop"]):
            command = {"type": "command", "id": f"s{index}", "op": op}
            if op == "push":
                command["screen"] = {"name": "Big2", "rows": BIG_ROWS}
            stalled.send_json(command)

        peak = baseline
        deadline = time.monotonic() + 7
        checks = 0
        while time.monotonic() < deadline:
            # Other sessions keep working meanwhile.
            if checks < 2:
                await other.ok("push", screen={"name": f"Other{checks}"})
                await other.ok("pop")
                checks += 1
            start = other.mark()
            await other.send({"type": "ping", "id": f"p{time.monotonic()}", "t": 0})
            await other.wait_message(lambda m: m["type"] == "pong", since=start, timeout=5)
            peak = max(peak, server.rss_kib())
            await asyncio.sleep(0.25)
        assert checks == 2
        growth_mb = (peak - baseline) / 1024
        assert growth_mb < 20, f"server RSS grew {growth_mb:.1f} MB while a client did not read"

        # Reading again, the stalled client catches up: latest wins, so it gets far fewer frames
        # than the session made, each a delta from the one before, and ends on the right picture.
        # (A server may instead cut a reader this slow off: then a close frame ends the reading.)
        stalled.sock.settimeout(1.0)
        display = DisplayState()
        frames = 0
        results = []
        closed = False
        read_deadline = time.monotonic() + 30
        while time.monotonic() < read_deadline:
            try:
                opcode, payload = stalled.recv_frame()
            except socket.timeout:
                if len(results) == 4:
                    break  # a quiet second after the last result: settled
                continue
            except (EOFError, ConnectionResetError):
                closed = True
                break
            if opcode == 0x8:
                closed = True
                break
            if opcode != 0x1:
                continue
            message = json.loads(payload)
            if message["type"] == "frame":
                display.apply(message)
                frames += 1
            elif message["type"] in ("result", "error"):
                results.append(message)
        stalled.close()
        if not closed:
            assert [(r["type"], r["id"]) for r in results] == [("result", f"s{i}") for i in range(4)], results
            produced = display.seq - warm_seq
            assert frames < produced / 2, f"the stalled reader got {frames} of {produced} frames: no frame was skipped"
            assert [(p["name"], p["frame"][0]) for p in display.pages()] == [("Big", 0)], display.pages()
            metrics = urllib.request.urlopen(f"{server.http_url}/metrics", timeout=5).read().decode()
            skipped = [line for line in metrics.splitlines() if line.startswith("stackcast_frames_skipped_total ")]
            assert skipped and float(skipped[0].split()[1]) > 0, skipped
        await other.close()
        await works(server.ws_url)
    run(body(), timeout=120)


@pytest.mark.rss
def test_stalled_reader_of_big_replies_is_cut_off(server):
    """Replies cannot be dropped like frames: a client that does not read but keeps sending
    pings with 50 KB ids (each pong echoes its id) must be cut off at a cap, not buffered."""

    async def body():
        other = await session(server.ws_url)
        baseline = server.rss_kib()
        stalled = RawWebSocket(server.port, rcvbuf=4096)
        stalled.send_json({"type": "hello", "app": "phone"})
        padding = "z" * 50_000
        peak = baseline
        cut_off = False
        for i in range(600):  # 30 MB of pongs if the server queued them all
            try:
                stalled.send_json({"type": "ping", "id": f"{padding}{i}", "t": 0})
            except (BrokenPipeError, ConnectionResetError):
                cut_off = True
                break
            if i % 20 == 0:
                peak = max(peak, server.rss_kib())
            if i >= 350:
                await asyncio.sleep(1 / 150)  # stay under the rate limit: every ping is answered
        peak = max(peak, server.rss_kib())
        if not cut_off:
            # Sent everything: the server must have closed the connection by now.
            stalled.sock.settimeout(5)
            try:
                for _ in range(1000):
                    opcode, _payload = stalled.recv_frame()
                    if opcode == 0x8:
                        break
                else:
                    raise AssertionError("the stalled reader was still being served after 30 MB of replies")
            except (EOFError, ConnectionResetError):
                pass
            except socket.timeout:
                raise AssertionError("the stalled reader's connection is still open after 30 MB of unread replies") from None
        stalled.close()
        growth_mb = (peak - baseline) / 1024
        assert growth_mb < 20, f"server RSS grew {growth_mb:.1f} MB for a client that does not read"
        start = other.mark()
        await other.send({"type": "ping", "id": "still", "t": 0})
        await other.wait_message(lambda m: m["type"] == "pong", since=start)
        await other.ok("push", screen=DETAIL)
        await other.close()
    run(body())


def test_sigterm_drains_then_closes_clients_with_1012_and_exits_0(start_server):
    """SIGTERM drains: /healthz turns 503 and a new session is refused with busy, while the
    sessions held carry on through --grace; then every viewer gets 1012 (reconnect) and the
    process exits 0."""
    server = start_server("--grace", "30")

    async def body():
        idle = await session(server.ws_url)
        busy = await session(server.ws_url)
        assert urllib.request.urlopen(f"{server.http_url}/healthz", timeout=5).status == 200
        os.kill(server.pid, signal.SIGTERM)
        wait_until(lambda: health(server) == 503, 10, "/healthz answering 503")
        late = await open_client(server.ws_url)
        refused = await late.hello()
        assert (refused["type"], refused["code"]) == ("error", "busy"), refused
        assert "shutting down" in refused["message"]
        await late.close()
        # The sessions held carry on during the grace period.
        start = busy.mark()
        await busy.ok("push", screen=DETAIL)
        await busy.wait_frame(since=start)
        # SIGINT cuts the grace short; a draining server still says 1012 (on which the client
        # tries to reconnect: there is nothing to reconnect to here).
        os.kill(server.pid, signal.SIGINT)
        for client in (idle, busy):
            await client.wait_until(lambda: client.core.closes, timeout=10, what="the server's close")
            assert client.core.closes[0][0] == 1012, client.core.closes
            await client.close()
    run(body())
    code = server.terminate()
    assert code == 0, f"exit code {code} after SIGTERM\n{server.log_tail()}"


def test_a_command_under_way_at_the_stop_is_answered_before_the_close(start_server, tmp_path):
    """A push still sliding when the drain's grace ends is played to its end at once: its result,
    written to the state folder first, reaches the viewer before the 1012."""
    server = start_server("--grace", "1", "--state-dir", str(tmp_path / "state"))

    async def body():
        client = await session(server.ws_url)
        # Ten times slower: the slide takes 3.5 s, longer than the grace.
        await client.ok("configure", slowMotion=10)
        command_id = await client.send_command("push", screen=DETAIL)
        await client.wait_frame(since=client.mark())
        os.kill(server.pid, signal.SIGTERM)
        await client.wait_until(lambda: client.core.closes, timeout=15, what="the server's close")
        assert client.core.closes[0][0] == 1012, client.core.closes
        answers = [m for m in client.messages(0, "result") if m.get("id") == command_id]
        assert answers and answers[0]["ok"] is True, client.messages(0, "error")
        await client.close()
    run(body())
    assert server.terminate() == 0, server.log_tail()


def test_a_drain_with_nothing_connected_ends_at_once(start_server):
    server = start_server("--grace", "3600", "--drain-after", "0.2")
    wait_until(lambda: not server.alive(), 10, "the server exiting after --drain-after with nothing connected")
    assert server.process.returncode == 0, server.log_tail()
    server.stopped = True


def health(server):
    try:
        return urllib.request.urlopen(f"{server.http_url}/healthz", timeout=5).status
    except urllib.error.HTTPError as error:
        return error.code


def test_sigint_closes_clients_with_1001_and_exits_0(start_server):
    server = start_server()

    async def body():
        client = await session(server.ws_url)
        os.kill(server.pid, signal.SIGINT)
        assert await client.wait_closed(timeout=10) == 1001
    run(body())
    code = server.terminate()
    assert code == 0, f"exit code {code} after SIGINT\n{server.log_tail()}"


def test_sigterm_right_after_the_url_line_exits_0(start_server):
    """A script that starts the server, reads the URL line and stops it at once must see it exit
    0: the signal may not be lost (a hang) nor kill the process (-15)."""
    for attempt in range(5):
        server = start_server()
        code = server.terminate(timeout=5, settle=False)
        assert code == 0, (f"attempt {attempt}: SIGTERM sent right after the URL line gave "
                           f"{'no exit within 5 s' if code is None else f'exit code {code}'}\n{server.log_tail()}")


def test_permessage_deflate_round_trip(start_server):
    """`websockets` offers permessage-deflate unless told not to: the server accepts it (the
    answer names the extension), and hello, welcome, the full frame, a push with its frames and a
    ping all come through compressed. With --no-deflate the offer is declined and the same round
    trip works uncompressed."""
    async def round_trip(url, compressed):
        ws = await connect(url, subprotocols=[SUBPROTOCOL], proxy=None, max_size=None, ping_interval=None,
                           open_timeout=10, close_timeout=5)
        extensions = ws.response.headers.get("Sec-WebSocket-Extensions")
        # The answer tells the client to start each of its messages afresh: the server keeps no
        # inflater between them.
        assert extensions == ("permessage-deflate; client_no_context_takeover" if compressed else None), extensions
        assert [type(e).__name__ for e in ws.protocol.extensions] == (["PerMessageDeflate"] if compressed else [])
        assert not compressed or ws.protocol.extensions[0].local_no_context_takeover
        client = Client(ws)
        start = client.mark()
        welcome = await client.hello(app="phone")
        assert welcome["type"] == "welcome", welcome
        full = await client.wait_frame(since=start)
        assert full.get("full") is True
        await client.ok("push", screen=DETAIL)
        start = client.mark()
        await client.send({"type": "ping", "id": "z" * 20000, "t": 1})
        pong = await client.wait_message(lambda m: m["type"] == "pong", since=start)
        assert pong["id"] == "z" * 20000
        await client.close()
        assert client.violation is None, client.violation

    def deflate_connections(server):
        with urllib.request.urlopen(f"{server.http_url}/metrics", timeout=5) as response:
            metrics = response.read().decode()
        return next(int(line.split()[1]) for line in metrics.splitlines()
                    if line.startswith("stackcast_connections_deflate_total "))

    server = start_server()
    run(round_trip(server.ws_url, compressed=True))
    assert deflate_connections(server) == 1
    plain = start_server("--no-deflate")
    run(round_trip(plain.ws_url, compressed=False))
    assert deflate_connections(plain) == 0
