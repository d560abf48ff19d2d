"""HTTP on the same port: the viewer's static files with their MIME types, 404, no path
traversal, /metrics in Prometheus text; the Origin check on the WebSocket; TLS (https and wss)
with a self-signed certificate made here."""

import http.client
import socket
import ssl
import subprocess

import pytest
from stackcast import ConnectError

from conftest import ROOT
from stackcast_client import client_tls_context, open_client, run, session


def get(server, path, context=None, timeout=10):
    """(status, headers dict lowercased, body) of a GET sent exactly as `path` (no normalising);
    `timeout` in seconds for each socket operation."""
    if server.scheme == "https":
        connection = http.client.HTTPSConnection("127.0.0.1", server.port, timeout=timeout, context=context)
    else:
        connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=timeout)
    try:
        connection.request("GET", path)
        response = connection.getresponse()
        return response.status, {k.lower(): v for k, v in response.getheaders()}, response.read()
    finally:
        connection.close()


def raw_get(port, path):
    """The raw response to a hand-written request line (for paths http.client might refuse)."""
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        sock.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n\r\n".encode())
        received = b""
        while True:
            try:
                chunk = sock.recv(65536)
            except (socket.timeout, ConnectionResetError):
                break
            if not chunk:
                break
            received += chunk
            if len(received) > 1_000_000:
                break
    return received


def test_index_html_at_root(server):
    status, headers, body = get(server, "/")
    assert status == 200
    assert headers.get("content-type", "").startswith("text/html"), headers
    assert body == (ROOT / "Web" / "index.html").read_bytes()
    status, headers, body = get(server, "/index.html")
    assert status == 200 and body == (ROOT / "Web" / "index.html").read_bytes()


def test_javascript_and_css_mime_types(server):
    status, headers, body = get(server, "/src/app.js")
    assert status == 200
    mime = headers.get("content-type", "").split(";")[0].strip()
    assert mime in ("text/javascript", "application/javascript"), headers
    assert body == (ROOT / "Web" / "src" / "app.js").read_bytes()
    status, headers, _ = get(server, "/style.css")
    assert status == 200 and headers.get("content-type", "").startswith("text/css"), headers


def test_missing_file_is_404(server):
    for path in ["/nope.js", "/src/nope.js", "/nothing/here/"]:
        status, _, _ = get(server, path)
        assert status == 404, (path, status)


@pytest.mark.parametrize("path", [
    "/../Package.swift",
    "/%2e%2e/Package.swift",
    "/%2E%2E/Package.swift",
    "/src/../../Package.swift",
    "/src/%2e%2e/%2e%2e/Package.swift",
    "/..%2fPackage.swift",
    "/%2e%2e%2fPackage.swift",
    "/....//Package.swift",
    "//proc/self/cwd/Package.swift",  # absolute: the server runs in the repository
    "/..\\Package.swift",
])
def test_path_traversal_does_not_leak(server, path):
    secret = (ROOT / "Package.swift").read_bytes()
    marker = secret.splitlines()[0]  # "// swift-tools-version:…"
    response = raw_get(server.port, path)
    assert marker not in response, f"GET {path} leaked Package.swift:\n{response[:300]!r}"
    status_line = response.split(b"\r\n", 1)[0]
    assert b" 200 " not in status_line or secret not in response, status_line
    # The server goes on.
    assert get(server, "/")[0] == 200


def test_metrics(server):
    async def body():
        client = await session(server.ws_url)
        start = client.mark()
        await client.send("{oops")
        await client.wait_message(lambda m: m["type"] == "error", since=start)
        await client.ok("push", screen={"name": "Detail"})
        return client

    async def scenario():
        client = await body()
        status, headers, text = get(server, "/metrics")
        await client.close()
        return status, headers, text.decode()

    status, headers, text = run(scenario())
    assert status == 200
    assert headers.get("content-type", "").startswith("text/plain"), headers
    values = {}
    for line in text.splitlines():
        if line and not line.startswith("#"):
            name, _, value = line.rpartition(" ")
            values[name] = float(value)
    assert values.get("stackcast_sessions") == 1, text
    assert values.get("stackcast_frames_sent_total", 0) >= 3, text
    assert values.get('stackcast_errors_total{code="bad_json"}') == 1, text
    buckets = [name for name in values if name.startswith("stackcast_tick_duration_seconds_bucket")]
    assert buckets and any('le="+Inf"' in name for name in buckets), text
    assert values[next(n for n in buckets if 'le="+Inf"' in n)] >= 1, "ticks ran, but the histogram counted none"
    assert "# TYPE stackcast_frames_sent_total counter" in text
    assert "# TYPE stackcast_tick_duration_seconds histogram" in text


async def hello_through(url, origin=None, ssl_context=None):
    """True when a WebSocket with that Origin gets a welcome and a frame; False when refused."""
    try:
        client = await open_client(url, origin=origin, ssl=ssl_context)
    except ConnectError:
        return False
    try:
        start = client.mark()
        welcome = await client.hello()
        if welcome["type"] != "welcome":
            return False
        await client.wait_frame(since=start)
        return True
    except AssertionError:
        if client.closed:
            return False
        raise
    finally:
        await client.close()


def test_foreign_origin_is_refused(server):
    assert run(hello_through(server.ws_url, origin="http://evil.example")) is False
    assert run(hello_through(server.ws_url, origin=f"http://127.0.0.1:{server.port + 1}")) is False
    assert run(hello_through(server.ws_url, origin="null")) is False
    # Same origin, and no Origin at all (not a browser), are allowed.
    assert run(hello_through(server.ws_url, origin=f"http://127.0.0.1:{server.port}")) is True
    assert run(hello_through(server.ws_url)) is True


def test_allow_origin_lets_a_listed_origin_in(start_server):
    server = start_server("--allow-origin", "http://evil.example")
    assert run(hello_through(server.ws_url, origin="http://evil.example")) is True
    assert run(hello_through(server.ws_url, origin="http://other.example")) is False


@pytest.fixture
def certificate(tmp_path):
    cert, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    made = subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=localhost",
         "-addext", "subjectAltName=IP:127.0.0.1", "-keyout", str(key), "-out", str(cert)],
        capture_output=True, text=True, timeout=60)
    assert made.returncode == 0, made.stderr
    return cert, key


def test_tls_serves_https_and_wss(start_server, certificate):
    cert, key = certificate
    server = start_server("--tls-cert", str(cert), "--tls-key", str(key))
    assert server.scheme == "https", server.stdout_lines
    context = client_tls_context(cert)
    status, headers, body = get(server, "/", context=context)
    assert status == 200 and headers.get("content-type", "").startswith("text/html")
    assert body == (ROOT / "Web" / "index.html").read_bytes()
    # A client that does not trust the certificate fails the handshake.
    with pytest.raises(ssl.SSLError):
        get(server, "/", context=ssl.create_default_context())

    async def body_wss():
        client = await open_client(server.ws_url, ssl=context)
        start = client.mark()
        welcome = await client.hello()
        assert welcome["type"] == "welcome" and welcome["protocol"] == 1, welcome
        await client.wait_frame(since=start)
        assert [p["name"] for p in client.pages()] == ["Home"]
        await client.ok("push", screen={"name": "Secure"})
        await client.close()
    assert server.ws_url.startswith("wss://")
    run(body_wss())
