"""`serve --trusted-proxy`: a load balancer's connections stand for their clients. The client's
address comes from the PROXY protocol v2 header the balancer sends first (whole at once, or in
pieces), or from X-Forwarded-For, and only from a trusted address; the per-address limits and the
log then name the client. HAProxy in front is covered in test_cluster.py."""

import asyncio
import socket
import struct

import pytest
import stackcast

from stackcast_client import open_client, run
from stackcast_testing import wait_until

SIGNATURE = b"\r\n\r\n\x00\r\nQUIT\n"


def proxy_header(client, port=50000):
    """A PROXY v2 header (TCP over IPv4) saying the connection comes from `client`."""
    block = socket.inet_aton(client) + socket.inet_aton("127.0.0.1") + struct.pack("!HH", port, 8080)
    return SIGNATURE + bytes([0x21, 0x11]) + struct.pack("!H", len(block)) + block


async def through_balancer(server, header, pause=0.0, source="127.0.0.1", **options):
    """A WebSocket from `source` whose first bytes are `header`, its second half `pause` s late."""
    sock = socket.socket()
    sock.bind((source, 0))
    sock.connect(("127.0.0.1", server.port))
    half = len(header) // 2
    sock.sendall(header[:half])
    await asyncio.sleep(pause)
    sock.sendall(header[half:])
    sock.setblocking(False)
    return await open_client(server.ws_url, sock=sock, **options)


def opened_from(server, address):
    return "WebSocket opened" in server.log_tail(100000) and f"peer={address} " in server.log_tail(100000)


def test_a_trusted_balancers_proxy_header_names_the_client(start_server):
    server = start_server("--trusted-proxy", "127.0.0.1", "--max-connections-per-peer", "2")

    async def body():
        first = await through_balancer(server, proxy_header("198.51.100.7"))
        # A header that arrives in two pieces is read as it comes.
        second = await through_balancer(server, proxy_header("198.51.100.7"), pause=0.3)
        assert (await second.hello(app="stack"))["type"] == "welcome"
        # The client's third connection is over its limit; another client behind the same
        # balancer is not.
        with pytest.raises(stackcast.ConnectError, match="503"):
            await through_balancer(server, proxy_header("198.51.100.7"))
        other = await through_balancer(server, proxy_header("198.51.100.8"))
        for client in (first, second, other):
            await client.close()
    run(body())
    wait_until(lambda: opened_from(server, "198.51.100.8"), 5, "the log naming the client")
    assert "peer=127.0.0.1 " not in server.log_tail(100000)


def test_a_trusted_balancers_forwarded_for_names_the_client_and_anyone_elses_is_ignored(start_server):
    server = start_server("--trusted-proxy", "127.0.0.1")

    async def body():
        forwarded = await open_client(server.ws_url, additional_headers={"X-Forwarded-For": "10.1.1.1, 203.0.113.5"})
        forged = await open_client(server.ws_url, local_addr=("127.0.0.2", 0),
                                   additional_headers={"X-Forwarded-For": "203.0.113.6"})
        for client in (forwarded, forged):
            await client.close()
    run(body())
    wait_until(lambda: opened_from(server, "127.0.0.2"), 5, "the log naming the forger")
    assert opened_from(server, "203.0.113.5")
    assert "203.0.113.6" not in server.log_tail(100000) and "10.1.1.1" not in server.log_tail(100000)


def test_a_proxy_header_from_an_untrusted_address_is_not_believed(start_server):
    server = start_server("--trusted-proxy", "127.0.0.1")

    async def body():
        with pytest.raises(stackcast.ConnectError):
            await through_balancer(server, proxy_header("198.51.100.7"), source="127.0.0.2")
        # The server goes on serving.
        client = await open_client(server.ws_url)
        assert (await client.hello(app="stack"))["type"] == "welcome"
        await client.close()
    run(body())
    assert "198.51.100.7" not in server.log_tail(100000)


def test_a_balancers_connection_that_never_finishes_its_header_is_closed(start_server):
    server = start_server("--trusted-proxy", "127.0.0.1")
    sock = socket.create_connection(("127.0.0.1", server.port))
    sock.sendall(proxy_header("198.51.100.7")[:10])
    sock.settimeout(20)
    # Closed by the server within its 5 s (the test allows for a slow machine).
    assert sock.recv(1) == b""
    sock.close()
    wait_until(lambda: "no whole PROXY header within 5 s" in server.log_tail(100000), 5, "the log saying why")


def test_a_trusted_proxy_must_be_an_address():
    import subprocess
    from stackcast_testing import server_binary
    result = subprocess.run([str(server_binary()), "serve", "--trusted-proxy", "lb.example"], capture_output=True, text=True,
                            timeout=30)
    assert result.returncode != 0
    assert "--trusted-proxy: lb.example is not an IPv4 or IPv6 address" in result.stderr
