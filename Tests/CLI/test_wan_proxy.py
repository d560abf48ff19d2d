"""`Scripts/wan proxy`'s timing: an echo server on loopback behind the proxy at a round trip of
100 ms with 20 ms of jitter (each way 50 ± 10 ms). Numbered messages sent 4 ms apart, closer than
the jitter, come back in order and intact, each after 80 to 120 ms (more on a loaded machine:
the upper bound allows for it), and not all after the same time."""

import re
import socket
import subprocess
import sys
import threading
import time

import pytest

from conftest import ROOT

URL = re.compile(r"http://127\.0\.0\.1:(\d+)/")
MESSAGES = 25
GAP_SECONDS = 0.004
# Scheduling on a loaded machine adds to a delay, never takes from one.
SLACK_MS = 150


@pytest.fixture
def echo_port():
    listener = socket.create_server(("127.0.0.1", 0))
    port = listener.getsockname()[1]

    def serve():
        with listener:
            connection, _ = listener.accept()
            with connection:
                while data := connection.recv(65536):
                    connection.sendall(data)

    threading.Thread(target=serve, daemon=True).start()
    return port


@pytest.fixture
def proxy_port(echo_port):
    process = subprocess.Popen([sys.executable, str(ROOT / "Scripts/wan"), "proxy", "--target", f"127.0.0.1:{echo_port}",
                                "--rtt", "100", "--jitter", "20"], stdout=subprocess.PIPE, text=True)
    try:
        line = process.stdout.readline()
        match = URL.search(line)
        assert match, f"the proxy printed no URL: {line!r}"
        yield int(match.group(1))
    finally:
        process.terminate()
        process.wait(10)


def test_delays_each_chunk_in_order(proxy_port):
    client = socket.create_connection(("127.0.0.1", proxy_port))
    client.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    client.settimeout(5)
    sent = {}
    received = {}
    stream = bytearray()

    def read():
        while len(received) < MESSAGES:
            data = client.recv(65536)
            now = time.perf_counter()
            if not data:
                return
            stream.extend(data)
            for line in bytes(stream).split(b"\n")[:-1]:
                received.setdefault(int(line), now)

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    expected = b""
    for number in range(MESSAGES):
        message = f"{number}\n".encode()
        sent[number] = time.perf_counter()
        client.sendall(message)
        expected += message
        time.sleep(GAP_SECONDS)
    reader.join(10)
    client.close()

    assert bytes(stream) == expected, "the echoed stream is not the stream sent: a chunk was reordered or lost"
    round_trips = [(received[number] - sent[number]) * 1000 for number in range(MESSAGES)]
    for number, ms in enumerate(round_trips):
        assert 80 <= ms <= 120 + SLACK_MS, f"message {number} came back after {ms:.1f} ms: {round_trips}"
    arrivals = [received[number] for number in range(MESSAGES)]
    assert arrivals == sorted(arrivals), "messages came back out of order"
    assert max(round_trips) - min(round_trips) > 3, f"no jitter in the round trips: {round_trips}"


def test_refuses_a_target_off_loopback():
    result = subprocess.run([sys.executable, str(ROOT / "Scripts/wan"), "proxy", "--target", "192.0.2.1:80"],
                            capture_output=True, text=True, timeout=30)
    assert result.returncode != 0
    assert "not a loopback address" in result.stderr
