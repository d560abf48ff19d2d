"""`Scripts/cluster N` for the Python suites (end-to-end and browser): the cluster as a process, its
nodes and HAProxy's runtime socket, and the `start_cluster` fixture, which stops every cluster a
test started and fails the test unless it exited 0."""

import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import threading
import urllib.request

import pytest

from stackcast_testing import SANITIZED_SERVER_ARGS, ROOT, server_binary, wait_until

HAPROXY = shutil.which("haproxy") or ("/usr/sbin/haproxy" if os.access("/usr/sbin/haproxy", os.X_OK) else None)

NODE_LINE = re.compile(r"cluster: node (s\d+) pid (\d+) port (\d+)")
HAPROXY_LINE = re.compile(r"cluster: haproxy pid (\d+) config (\S+) stats socket (\S+)")
REDIS_LINE = re.compile(r"cluster: redis pid (\d+) port (\d+)")


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Cluster:
    """`Scripts/cluster N` as a process: its nodes (name -> pid, port), HAProxy's URL and runtime
    socket. Stopped with SIGINT at the end of the test, which fails unless it exits 0."""

    def __init__(self, tmp_path, nodes=3, *extra):
        self.dir = tmp_path / "cluster"
        self.changed = threading.Condition()
        env = {**os.environ, "STACKCAST_BIN": str(server_binary()), "PATH": os.environ.get("PATH", "") + ":/usr/sbin"}
        # A port found free can be taken by another test's server before HAProxy binds it; then
        # HAProxy cannot start, and the cluster is started again on another.
        for attempt in range(3):
            self.port = free_port()
            self.lines = []
            self.nodes = {}
            self.redis = None  # (pid, port) with --redis
            self.process = subprocess.Popen(
                [sys.executable, str(ROOT / "Scripts/cluster"), str(nodes), "--port", str(self.port), "--dir", str(self.dir),
                 "--app", "stack", *SANITIZED_SERVER_ARGS, *extra],
                cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
            threading.Thread(target=self._read, daemon=True).start()
            if attempt < 2 and not self.wait_line(lambda line: line.startswith("Open "), "the URL line", retry_if="haproxy did not start"):
                continue
            break
        # Every node up in HAProxy's view before the test begins.
        wait_until(lambda: self.states().count("2") == nodes, 10, "every node UP in HAProxy")

    def _read(self):
        for line in self.process.stdout:
            with self.changed:
                self.lines.append(line.rstrip("\n"))
                match = NODE_LINE.search(line)
                if match:
                    self.nodes[match.group(1)] = (int(match.group(2)), int(match.group(3)))
                match = HAPROXY_LINE.search(line)
                if match:
                    self.socket_path = match.group(3)
                match = REDIS_LINE.search(line)
                if match:
                    self.redis = (int(match.group(1)), int(match.group(2)))
                self.changed.notify_all()

    def wait_line(self, predicate, what, timeout=60, retry_if=None):
        """Waits for a line of the cluster's output matching `predicate`. False when the cluster
        exited saying `retry_if` instead; a failure of the test otherwise."""
        with self.changed:
            if not self.changed.wait_for(lambda: any(predicate(line) for line in self.lines) or self.process.poll() is not None,
                                         timeout) or not any(predicate(line) for line in self.lines):
                if retry_if and self.process.poll() is not None and any(retry_if in line for line in self.lines):
                    return False
                pytest.fail(f"Scripts/cluster: no {what} within {timeout} s; output:\n" + "\n".join(self.lines))
        return True

    @property
    def ws_url(self):
        return f"ws://127.0.0.1:{self.port}/ws"

    def admin(self, command):
        """One command on HAProxy's runtime socket; returns its answer."""
        with socket.socket(socket.AF_UNIX) as s:
            s.connect(self.socket_path)
            s.sendall(command.encode() + b"\n")
            chunks = []
            while chunk := s.recv(65536):
                chunks.append(chunk)
        return b"".join(chunks).decode()

    def states(self):
        """Each server's operational state (2: UP, 0: DOWN), in order."""
        rows = [line.split() for line in self.admin("show servers state nodes").splitlines()[2:] if line.strip()]
        return [row[5] for row in rows]

    def metric(self, node, name):
        text = urllib.request.urlopen(f"http://127.0.0.1:{self.nodes[node][1]}/metrics", timeout=5).read().decode()
        for line in text.splitlines():
            if line.startswith(name + " "):
                return float(line.split()[1])
        raise AssertionError(f"no {name} in the /metrics of {node}")

    def logs(self):
        return "\n".join(path.read_text(errors="replace") for path in sorted(self.dir.glob("*.log")))

    def stop(self):
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
        try:
            return self.process.wait(30)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(5)
            return None


@pytest.fixture
def start_cluster(tmp_path):
    clusters = []

    def start(*extra, nodes=3):
        cluster = Cluster(tmp_path, nodes, *extra)
        clusters.append(cluster)
        return cluster

    yield start
    for cluster in clusters:
        code = cluster.stop()
        assert code == 0, f"Scripts/cluster exited {code}; output:\n" + "\n".join(cluster.lines[-20:])
