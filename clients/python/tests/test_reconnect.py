"""After a 1012 (the server restarting) both clients reconnect with the session's token and go on,
even when an attempt fails the way a restarting server makes it fail: the connection reset while
the handshake is sent, which `websockets` reports as `ConnectionClosedError`, not as a refused
connection (the reader thread used to die of it and leave the session hanging)."""

import asyncio

import pytest
import websockets.asyncio.client
from websockets.exceptions import ConnectionClosedError

import stackcast
import stackcast.aio
from stackcast.session import open_websocket
from stackcast.transport import websocket_options, with_session
from stackcast_testing import ServerProcess, wait_until


@pytest.fixture
def two_servers(tmp_path):
    """Two servers sharing one state folder: the first is stopped (SIGTERM: 1012), the second takes
    its session over."""
    args = ["--state-dir", str(tmp_path / "state"), "--app", "stack"]
    servers = [ServerProcess(args, tmp_path / "first.log"), ServerProcess(args, tmp_path / "second.log")]
    yield servers
    assert [server.terminate() for server in servers] == [0, 0]


def carried_over(first, reconnect):
    """A blocking client's session with a page pushed on `first`, which then stops (1012), the
    client opening its connections again through `reconnect`: once another server rebuilt the
    session, its state is the one it had. Returns the client's (token, reconnects, resume_failed)."""
    with stackcast.connect(first.ws_url, app="stack", protocol=2) as client:
        client.push(screen={"name": "Detail", "title": "Detail"})
        client.settle()
        before = client.command("query", what="state")
        client._reconnect = reconnect
        assert first.terminate() == 0
        wait_until(lambda: client._reading(lambda core: core.welcome.migrated), 20,
                   lambda: f"a resume on another server; closes {client._reading(lambda core: core.closes)}")
        assert client.command("query", what="state") == before
        return client._reading(lambda core: (core.welcome.session, core.reconnects, core.resume_failed))


def carried_over_asyncio(first, reconnect):
    """`carried_over` with the asyncio client."""
    async def body():
        async with await stackcast.aio.connect(first.ws_url, app="stack", protocol=2) as client:
            await client.push(screen={"name": "Detail", "title": "Detail"})
            await client.settle()
            before = await client.command("query", what="state")
            client._reconnect = reconnect
            await asyncio.to_thread(first.terminate)
            for _ in range(200):
                if client.core.welcome.migrated:
                    break
                await asyncio.sleep(0.1)
            assert client.core.welcome.migrated, client.core.closes
            assert await client.command("query", what="state") == before
            return client.core.welcome.session, client.core.reconnects, client.core.resume_failed

    return asyncio.run(body())


def test_the_blocking_client_goes_on_after_a_reset_reconnection(two_servers):
    first, second = two_servers
    attempts = []

    def reconnect(token):
        attempts.append(token)
        if len(attempts) == 1:
            raise ConnectionClosedError(None, None)
        return open_websocket(with_session(second.ws_url, token), 10, {})

    token, reconnects, _ = carried_over(first, reconnect)
    assert (attempts, reconnects) == ([token] * 2, 1)


def test_the_asyncio_client_goes_on_after_a_reset_reconnection(two_servers):
    first, second = two_servers
    attempts = []

    async def reconnect(token):
        attempts.append(token)
        if len(attempts) == 1:
            raise ConnectionClosedError(None, None)
        return await websockets.asyncio.client.connect(with_session(second.ws_url, token), **websocket_options({}))

    token, reconnects, _ = carried_over_asyncio(first, reconnect)
    assert (attempts, reconnects) == ([token] * 2, 1)


@pytest.fixture
def a_full_server_between(tmp_path):
    """Three servers sharing one state folder: the first is stopped (SIGTERM: 1012); the second
    already holds its one session (`--max-sessions 1`), so a resume there is answered `busy`; the
    third takes the session over."""
    args = ["--state-dir", str(tmp_path / "state"), "--app", "stack"]
    servers = [ServerProcess(args, tmp_path / "first.log"), ServerProcess([*args, "--max-sessions", "1"], tmp_path / "full.log"),
               ServerProcess(args, tmp_path / "third.log")]
    with stackcast.connect(servers[1].ws_url, app="stack"):
        yield servers
    assert [server.terminate() for server in servers] == [0, 0, 0]


def test_the_blocking_client_resumes_again_after_a_busy_answer(a_full_server_between):
    first, full, third = a_full_server_between
    attempts = []

    def reconnect(token):
        attempts.append(token)
        return open_websocket(with_session((full if len(attempts) == 1 else third).ws_url, token), 10, {})

    token, _, failed = carried_over(first, reconnect)
    assert (attempts, failed) == ([token] * 2, None)


def test_the_asyncio_client_resumes_again_after_a_busy_answer(a_full_server_between):
    first, full, third = a_full_server_between
    attempts = []

    async def reconnect(token):
        attempts.append(token)
        url = with_session((full if len(attempts) == 1 else third).ws_url, token)
        return await websockets.asyncio.client.connect(url, **websocket_options({}))

    token, _, failed = carried_over_asyncio(first, reconnect)
    assert (attempts, failed) == ([token] * 2, None)
