"""Server limits and session lifetime: --session-ttl, --max-sessions, --max-connections, the
per-connection rate limit leaving other connections alone, unknown apps."""

import asyncio
import urllib.request

from stackcast import ConnectError

from stackcast_client import open_client, run, session


def test_session_expires_after_ttl(start_server):
    server = start_server("--session-ttl", "1")

    async def body():
        client = await session(server.ws_url)
        token = client.messages(type="welcome")[0]["session"]
        await client.close()
        # Within the TTL it resumes.
        again = await open_client(server.ws_url)
        welcome = await again.hello(session=token)
        assert welcome["type"] == "welcome" and welcome["resumed"] is True, welcome
        await again.close()
        await asyncio.sleep(2.5)
        # The server sweeps the session when its time is up, on its own: nothing has touched it
        # since (reading /metrics or a new connection would sweep too).
        assert "session expired" in server.log_tail(200), server.log_tail()
        # Expired sessions are dropped even when nobody says hello.
        metrics = urllib.request.urlopen(f"{server.http_url}/metrics", timeout=5).read().decode()
        assert "\nstackcast_sessions 0\n" in metrics, [line for line in metrics.splitlines() if "sessions" in line]
        late = await open_client(server.ws_url)
        error = await late.hello(session=token)
        assert error["type"] == "error" and error["code"] == "not_found", error
        await late.close()
    run(body())


def test_max_sessions(start_server):
    server = start_server("--max-sessions", "2")

    async def body():
        first = await session(server.ws_url)
        second = await session(server.ws_url)
        third = await open_client(server.ws_url)
        reply = await third.hello()
        assert reply["type"] == "error", f"a third session on --max-sessions 2: {reply}"
        assert third.messages(type="frame") == []
        # The two sessions go on.
        await first.ok("push", screen={"name": "A"})
        await second.ok("push", screen={"name": "B"})
        # A resume does not count as a new session.
        token = first.messages(type="welcome")[0]["session"]
        await first.close()
        back = await open_client(server.ws_url)
        welcome = await back.hello(session=token)
        assert welcome["type"] == "welcome" and welcome["resumed"] is True, welcome
        for client in (second, third, back):
            await client.close()
    run(body())


def test_max_connections(start_server):
    server = start_server("--max-connections", "2")

    async def body():
        first = await session(server.ws_url)
        second = await session(server.ws_url)
        refused = False
        try:
            third = await open_client(server.ws_url)
        except ConnectError:
            refused = True
        else:
            start = third.mark()
            try:
                await third.send({"type": "hello", "app": "phone"})
                await third.wait_message(lambda m: m["type"] == "welcome", since=start, timeout=3)
            except AssertionError:
                refused = True
            await third.close()
        assert refused, "a third WebSocket was served on --max-connections 2"
        await first.ok("push", screen={"name": "A"})
        # Once one closes, a new one is accepted.
        await second.close()
        await asyncio.sleep(0.3)
        fourth = await session(server.ws_url)
        await fourth.ok("push", screen={"name": "D"})
        await fourth.close()
        await first.close()
    run(body())


def test_rate_limit_is_per_connection(server):
    async def body():
        flooder = await session(server.ws_url)
        calm = await session(server.ws_url)
        for i in range(1000):
            await flooder.send(f'{{"type":"ping","id":{i},"t":0}}')
        await flooder.wait_message(lambda m: m["type"] == "error" and m["code"] == "rate_limited")
        for i in range(20):
            start = calm.mark()
            await calm.send({"type": "ping", "id": f"calm{i}", "t": 0})
            pong = await calm.wait_message(lambda m: m["type"] in ("pong", "error"), since=start)
            assert pong["type"] == "pong", pong
        await calm.ok("push", screen={"name": "A"})
        await flooder.close()
        await calm.close()
    run(body())


def test_unknown_app_is_not_found(server):
    async def body():
        client = await open_client(server.ws_url)
        error = await client.hello(app="spreadsheet")
        assert error["type"] == "error" and error["code"] == "not_found" and "spreadsheet" in error["message"], error
        start = client.mark()
        welcome = await client.hello(app="tablet")
        assert welcome["type"] == "welcome" and welcome["app"] == "tablet", welcome
        await client.wait_frame(since=start)
        assert client.pages()
        await client.close()
    run(body())
