"""A `redis-server` of a test's own for the Python suites: on a free loopback port, its append-only
file fsynced at every write in a folder of the test's, paused and resumed (SIGSTOP, SIGCONT),
killed and started again on the same port and folder (the AOF read back). Commands go over a
plain socket speaking RESP, so no Redis package is needed. The `start_redis` fixture stops every
Redis a test started.

`redis-server` comes from Scripts/setup (--test, --cluster); tests that need it are skipped
(`needs_redis`) only where it is not installed."""

import os
import shutil
import signal
import socket
import subprocess
import time
from pathlib import Path

import pytest

from stackcast_testing import wait_until

REDIS_SERVER = shutil.which("redis-server") or ("/usr/bin/redis-server" if os.access("/usr/bin/redis-server", os.X_OK) else None)

needs_redis = pytest.mark.skipif(REDIS_SERVER is None, reason="redis-server is not installed (Scripts/setup --test installs it)")

STARTUP_SECONDS = 20


class RedisError(Exception):
    """An error reply (`-ERR …`)."""


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def encode(args):
    """A RESP array of bulk strings."""
    parts = [f"*{len(args)}\r\n".encode()]
    for arg in args:
        data = arg if isinstance(arg, bytes) else str(arg).encode()
        parts.append(b"$%d\r\n%s\r\n" % (len(data), data))
    return b"".join(parts)


class RespReader:
    """Reads RESP2 replies off a socket: simple strings and bulk strings as str (None for a null),
    integers as int, arrays as lists, error replies as `RedisError` values (not raised)."""

    def __init__(self, sock):
        self.sock = sock
        self.buffer = b""

    def _line(self):
        while b"\r\n" not in self.buffer:
            self._fill()
        line, self.buffer = self.buffer.split(b"\r\n", 1)
        return line

    def _exactly(self, count):
        while len(self.buffer) < count:
            self._fill()
        data, self.buffer = self.buffer[:count], self.buffer[count:]
        return data

    def _fill(self):
        chunk = self.sock.recv(65536)
        if not chunk:
            raise ConnectionError("Redis closed the connection")
        self.buffer += chunk

    def reply(self):
        line = self._line()
        kind, rest = line[:1], line[1:].decode(errors="replace")
        if kind == b"+":
            return rest
        if kind == b"-":
            return RedisError(rest)
        if kind == b":":
            return int(rest)
        if kind == b"$":
            if int(rest) < 0:
                return None
            data = self._exactly(int(rest) + 2)[:-2]
            return data.decode(errors="replace")
        if kind == b"*":
            if int(rest) < 0:
                return None
            return [self.reply() for _ in range(int(rest))]
        raise ConnectionError(f"not a RESP reply: {line!r}")


def resp_command(port, *args, timeout=5):
    """One command on a new connection to 127.0.0.1:`port`: the parsed reply; an error reply is raised."""
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as sock:
        sock.sendall(encode(args))
        reply = RespReader(sock).reply()
    if isinstance(reply, RedisError):
        raise reply
    return reply


class RedisProcess:
    """`redis-server` on 127.0.0.1 only, with the append-only file fsynced at every write in `dir`
    and no snapshots. Its output goes to `dir`/redis.log."""

    def __init__(self, dir):
        self.dir = Path(dir)
        self.dir.mkdir(parents=True, exist_ok=True)
        self.log_path = self.dir / "redis.log"
        self.process = None
        self.paused = False
        # A port found free can be taken by another process before Redis binds it: then another.
        for attempt in range(3):
            self.port = free_port()
            if self._start(fail=attempt == 2):
                break

    @property
    def url(self):
        return f"redis://127.0.0.1:{self.port}"

    @property
    def pid(self):
        return self.process.pid

    def _start(self, fail=True):
        """Starts redis-server on `port` and waits for its PONG (after the AOF is read back). False
        when it exited at once and `fail` is not set (the port was taken)."""
        log = open(self.log_path, "a")
        self.process = subprocess.Popen(
            [REDIS_SERVER, "--port", str(self.port), "--bind", "127.0.0.1", "--protected-mode", "yes",
             "--save", "", "--appendonly", "yes", "--appendfsync", "always", "--dir", str(self.dir),
             "--daemonize", "no"],
            stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
        log.close()
        self.paused = False
        deadline = time.monotonic() + STARTUP_SECONDS
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                if not fail:
                    return False
                pytest.fail(f"redis-server exited ({self.process.returncode}) at start\n{self.log_tail()}")
            try:
                if resp_command(self.port, "PING", timeout=1) == "PONG":
                    return True
            except (OSError, ConnectionError, RedisError):
                pass  # not listening yet, or still loading its AOF (-LOADING)
            time.sleep(0.05)
        self.kill()
        pytest.fail(f"redis-server on port {self.port} did not answer PING within {STARTUP_SECONDS} s\n{self.log_tail()}")

    def command(self, *args, timeout=5):
        """Sends one command (`command("LRANGE", key, 0, -1)`); returns the parsed reply."""
        return resp_command(self.port, *args, timeout=timeout)

    def alive(self):
        return self.process is not None and self.process.poll() is None

    def pause(self):
        """SIGSTOP: connections are still accepted by the kernel, nothing is answered."""
        self.process.send_signal(signal.SIGSTOP)
        self.paused = True

    def resume(self):
        self.process.send_signal(signal.SIGCONT)
        self.paused = False

    def kill(self):
        """SIGKILL: what was acknowledged is in the AOF (fsynced at every write), nothing else."""
        if self.alive():
            self.process.kill()
            self.process.wait(10)
        self.paused = False

    def restart(self):
        """Kills it (if it runs) and starts it again on the same port and folder: it reads its AOF
        back before answering PING."""
        self.kill()
        # The port is free again once the killed process is reaped; a TIME_WAIT does not stop a bind.
        wait_until(lambda: self._start(fail=False), 20, f"redis-server starting again on port {self.port}", interval=0.2)

    def stop(self):
        """SIGTERM (SIGCONT first if it is paused), then SIGKILL if it does not exit in 10 s."""
        if not self.alive():
            return
        if self.paused:
            self.resume()
        self.process.terminate()
        try:
            self.process.wait(10)
        except subprocess.TimeoutExpired:
            self.kill()

    def log_tail(self, lines=20):
        try:
            return "\n".join(self.log_path.read_text(errors="replace").splitlines()[-lines:])
        except OSError:
            return "(no log)"


@pytest.fixture
def start_redis(tmp_path):
    """A factory: `start_redis()` starts one more Redis (in tmp_path/redisN). Each is stopped at
    the end of the test; list it before `start_server` in a test's arguments so that the servers
    using it stop first."""
    started = []

    def start():
        redis = RedisProcess(tmp_path / f"redis{len(started)}")
        started.append(redis)
        return redis

    yield start
    for redis in started:
        redis.stop()
