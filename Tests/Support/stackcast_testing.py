"""Helpers shared by the Python suites (end-to-end, browser and the Python client's): where the
server binary is, a server process on a free port, and bounded waiting. Each suite puts this
folder on `sys.path` in its conftest, which also makes `import stackcast` load this checkout's
client (clients/python/src) rather than whichever copy pip installed last: several checkouts on
one machine share one Python."""

import os
import re
import signal
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "clients" / "python" / "src"))


def server_binary():
    """The server to test: $STACKCAST_BIN, else `.build/debug/stackcast` (what `swift build`
    makes). A missing binary fails the test; it is never skipped."""
    path = Path(os.environ.get("STACKCAST_BIN") or ".build/debug/stackcast")
    if not path.is_absolute():
        path = ROOT / path
    if not (path.is_file() and os.access(path, os.X_OK)):
        pytest.fail(f"no stackcast binary at {path} (run `swift build`, or set STACKCAST_BIN)")
    return path


# Under AddressSanitizer or ThreadSanitizer every turn of a service loop outlasts a frame, so a
# server would refuse the sessions a test starts for load (--shed-below-fps): the sanitizer runs
# turn shedding off, except in the tests of shedding itself, which give the flag.
SANITIZED_SERVER_ARGS = ["--shed-below-fps", "0"] if os.environ.get("ASAN_OPTIONS") or os.environ.get("TSAN_OPTIONS") else []


def wait_until(condition, timeout, what, interval=0.02):
    """Polls `condition` until it returns something truthy, for at most `timeout` seconds; fails
    saying `what` (a string, or a function giving one) did not happen."""
    deadline = time.monotonic() + timeout
    while True:
        value = condition()
        if value:
            return value
        if time.monotonic() > deadline:
            pytest.fail(f"timed out after {timeout} s waiting for {what() if callable(what) else what}")
        time.sleep(interval)


URL_LINE = re.compile(r"Stackcast serving (https?)://127\.0\.0\.1:(\d+)/")
STARTUP_SECONDS = 20
STOP_SECONDS = 10


class ServerProcess:
    """One `stackcast serve --port 0` process (or `command`). stdout is drained by a thread (the
    URL line gives the port); stderr (the log) goes to a file, shown when something fails."""

    def __init__(self, args, log_path, env=None, command=None):
        self.args = list(args)
        self.log_path = log_path
        self.stdout_lines = []
        self.scheme = None
        self.port = None
        self._found = threading.Event()
        self._log = open(log_path, "w")
        # A drain (SIGTERM) without a grace period, so that stopping a server a test left
        # connections open on is quick; a test's own --grace comes later and wins.
        # `command`: another program that serves and prints the same URL line (an app of one's own).
        sanitized = [] if "--shed-below-fps" in self.args else SANITIZED_SERVER_ARGS
        command = command or [str(server_binary()), "serve", "--port", "0", "--web", "Web", "--grace", "0", *sanitized, *self.args]
        # `env` adds to the test's own environment (LD_PRELOAD, say).
        self.process = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE, stderr=self._log,
                                        text=True, bufsize=1, env={**os.environ, **env} if env else None)
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
