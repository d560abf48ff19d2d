"""What a user meets when things go wrong: each a typed error with a clear message."""

import asyncio
import socket

import pytest
from websockets.exceptions import ConnectionClosedError

import stackcast
from stackcast.transport import connect_error


def free_port():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def test_an_unreachable_server():
    url = f"ws://127.0.0.1:{free_port()}/ws"
    with pytest.raises(stackcast.ConnectError, match="nothing is listening there .connection refused.") as error:
        stackcast.connect(url)
    assert error.value.url == url
    with pytest.raises(stackcast.ConnectError, match="not a WebSocket URL"):
        stackcast.connect("http://127.0.0.1:1/ws")


def test_a_refused_handshake(url):
    with pytest.raises(stackcast.ConnectError, match="refused the WebSocket handshake: HTTP 403 Forbidden"):
        stackcast.connect(url, origin="http://evil.example")


def test_a_refused_hello(url):
    with pytest.raises(stackcast.HelloError) as unknown:
        stackcast.connect(url, app="nope")
    assert (unknown.value.code, unknown.value.message) == ("not_found", "no app named nope; available: phone, tablet, stack")
    with pytest.raises(stackcast.HelloError) as expired:
        stackcast.connect(url, session="0" * 32)
    assert expired.value.code == "not_found" and "no session with that token" in expired.value.message
    with pytest.raises(stackcast.HelloError) as viewport:
        stackcast.connect(url, width=0)
    assert viewport.value.code == "bad_message" and viewport.value.message.startswith("viewport.width")


def test_a_command_that_takes_too_long(url):
    with stackcast.connect(url, app="stack") as s:
        s.configure(slow_motion=100)
        with pytest.raises(stackcast.Timeout, match="the answer to push did not come within 0.5 s"):
            s.push("Slow", timeout=0.5)
        assert isinstance(stackcast.Timeout("x"), TimeoutError)


def test_the_connection_closing_mid_command(url):
    async def body():
        s = await stackcast.aio.connect(url, app="stack")
        await s.configure(slow_motion=100)
        push = asyncio.create_task(s.push("Slow"))
        await asyncio.sleep(0.3)
        # Another controller takes the session over: the first is closed with 1008.
        async with await stackcast.aio.connect(url, session=s.token):
            with pytest.raises(stackcast.ConnectionClosedError) as closed:
                await push
        assert (closed.value.code, closed.value.reason) == (1008, "another viewer took control of this session")
        assert "while waiting for the answer to push" in str(closed.value)
        with pytest.raises(stackcast.ConnectionClosedError, match="while waiting for sending"):
            await s.pop()
        await s.close()
    asyncio.run(asyncio.wait_for(body(), 60))


def test_a_closed_session_says_so(url):
    s = stackcast.connect(url)
    s.close()
    with pytest.raises(stackcast.ConnectionClosedError, match=r"closed \(code 1000"):
        s.push("Late")


def test_a_connection_reset_during_the_handshake_reads_as_a_connect_error():
    # What `websockets` raises when a restarting server resets the connection mid-handshake.
    error = connect_error("ws://127.0.0.1:9/ws", ConnectionClosedError(None, None), 10)
    assert isinstance(error, stackcast.ConnectError)
    assert "closed during the WebSocket handshake" in str(error)
