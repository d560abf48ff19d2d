"""Fixtures for the protocol end-to-end tests: the real `stackcast serve` on a free loopback port.

The binary comes from $STACKCAST_BIN, else `.build/debug/stackcast`; a missing binary is a
failure, never a skip. Every server a test starts is stopped with SIGTERM at the end of the test,
and the test fails unless the process exits with code 0 (a crash at any point shows up here).
"""

import re
import signal
import subprocess
import threading
import time
import urllib.request
from pathlib import Path

import sys

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "Support"))
from stackcast_testing import ROOT, server_binary  # noqa: E402  (path set just above)


def pytest_configure(config):
    config.addinivalue_line(
        "markers",
        "rss: the test measures the server's resident memory; Scripts/sanitize leaves it out, since "
        "AddressSanitizer's quarantine and shadow memory are most of an ASan build's RSS")


URL_LINE = re.compile(r"Stackcast serving (https?)://127\.0\.0\.1:(\d+)/")
STARTUP_SECONDS = 20
STOP_SECONDS = 10


class ServerProcess:
    """One `stackcast serve --port 0` process. stdout is drained by a thread (the URL line gives
    the port); stderr (the log) goes to a file, shown when something fails."""

    def __init__(self, args, log_path):
        self.args = list(args)
        self.log_path = log_path
        self.stdout_lines = []
        self.scheme = None
        self.port = None
        self._found = threading.Event()
        self._log = open(log_path, "w")
        command = [str(server_binary()), "serve", "--port", "0", "--web", "Web", *self.args]
        self.process = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE, stderr=self._log,
                                        text=True, bufsize=1)
        threading.Thread(target=self._drain, daemon=True).start()
        if not self._found.wait(STARTUP_SECONDS) or self.port is None:
            self.kill()
            pytest.fail(f"`{' '.join(command)}` printed no URL line within {STARTUP_SECONDS} s\n"
                        f"stdout: {self.stdout_lines}\nlog:\n{self.log_tail()}")
        self.stopped = False
        self.returncode = None

    def _drain(self):
        for line in self.process.stdout:
            self.stdout_lines.append(line.rstrip("\n"))
            match = URL_LINE.search(line)
            if match and self.port is None:
                self.scheme, self.port = match.group(1), int(match.group(2))
                self.started_at = time.monotonic()
                self._found.set()
        self._found.set()

    @property
    def pid(self):
        return self.process.pid

    @property
    def http_url(self):
        return f"{self.scheme}://127.0.0.1:{self.port}"

    @property
    def ws_url(self):
        return f"{'wss' if self.scheme == 'https' else 'ws'}://127.0.0.1:{self.port}/ws"

    def alive(self):
        return self.process.poll() is None

    def metric(self, name):
        """The value of `name` (with its labels, as in `stackcast_closes_total{code="1006"}`) in
        the server's /metrics."""
        text = urllib.request.urlopen(f"{self.http_url}/metrics", timeout=5).read().decode()
        for line in text.splitlines():
            if line.startswith(name + " "):
                return float(line.split()[1])
        raise AssertionError(f"no {name} in /metrics")

    def rss_kib(self):
        """VmRSS of the server process in KiB, from /proc."""
        with open(f"/proc/{self.pid}/status") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
        raise AssertionError("no VmRSS line in /proc/PID/status")

    def log_tail(self, lines=40):
        self._log.flush()
        try:
            text = Path(self.log_path).read_text(errors="replace").splitlines()
        except OSError:
            return "(no log)"
        return "\n".join(text[-lines:])

    def terminate(self, timeout=STOP_SECONDS, settle=True):
        """SIGTERM, then wait: returns the exit code (None when it did not exit in time; it is
        then killed). With `settle`, never sooner than 0.3 s after the URL line: a signal right
        after that line is test_transport.py's own test, not every test's."""
        if self.stopped:
            return self.returncode
        if settle:
            time.sleep(max(0.0, self.started_at + 0.3 - time.monotonic()))
        self.stopped = True
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
        try:
            self.returncode = self.process.wait(timeout)
        except subprocess.TimeoutExpired:
            self.kill()
            self.returncode = None
        return self.returncode

    def kill(self):
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait(5)


@pytest.fixture
def start_server(tmp_path):
    """A factory: `start_server("--allow-origin", "http://x")` starts one more server. Each one
    is stopped with SIGTERM after the test, which fails unless it exits 0."""
    started = []

    def start(*args):
        server = ServerProcess(args, tmp_path / f"server{len(started)}.log")
        started.append(server)
        return server

    yield start
    problems = []
    for server in started:
        if server.stopped:
            continue  # the test stopped it and checked the exit itself
        was_alive = server.alive()
        code = server.terminate()
        if not was_alive:
            problems.append(f"server {server.args} had died before the end of the test "
                            f"(exit {server.process.returncode})\n{server.log_tail()}")
        elif code != 0:
            problems.append(f"server {server.args}: SIGTERM gave exit code {code}, expected 0\n{server.log_tail()}")
    if problems:
        pytest.fail("\n\n".join(problems))


@pytest.fixture
def server(start_server):
    """A server with the default options (app phone)."""
    return start_server()


