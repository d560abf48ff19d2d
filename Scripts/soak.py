#!/usr/bin/env python3
"""Soak and churn against a real `stackcast serve` on loopback: `Scripts/soak`
builds the release server and runs this; see docs/operations.md, "Soak".

For SECONDS (60 by default), from one process and one address (127.0.0.1):

- CHURN workers (300) each loop: open a WebSocket, hello (a new session; apps, wire formats and
  compression taken in turn), push a screen, wait for its result, close. Two cycles in three
  close cleanly (1000); one in three is reset (SO_LINGER 0, so the kernel sends RST), half of
  those right after the result, half in the middle of the push's transition, before its result.
  The sessions they leave behind wait for a resume for --session-ttl (5 s here) and expire.
- 20 sessions animate all the time: `stackcast load --mode drag` (a separate process with its
  own epoll loop, so the latency it measures is the server's, not this driver's loop lag): an
  interactive pop dragged back and forth at 60 Hz; it reports input -> frame p50/p99.
- One stalled reader: a raw socket with a 4 KiB receive buffer says hello, then sends 32 KiB
  pings without ever reading the pongs. The server must drop it once more than 1 MiB waits for
  it (docs/protocol.md §1, "Stalled readers"); then it comes back, for the whole run.
- One silent reader: says hello, then neither reads nor writes. Frames are never queued (latest
  wins), so it holds a socket and nothing else until the heartbeat drops it (40 s).

The server's RSS and open fds (/proc/PID/status, /proc/PID/fd) are read at the baseline, every
0.5 s during the run (the peak) and AFTER seconds (10) after the churn ends, by which time every
churned session has expired. The baseline is the idle server after a warm-up (every kind of
cycle once, a 1 s drag, then the 20 dragging sessions alone for 5 s, and every session expired),
not the cold process: the first use of each code path makes what the process makes once and
keeps (the Swift runtime's metadata and conformance caches, libwebsockets' per-thread buffers,
a malloc arena per service thread), which is no growth a churn causes. The cold figure is
printed too. The drag alone also gives its latency without the churn, to compare with. The bar: RSS after within 10 % of the baseline, fds after equal to
the baseline, no warning or error in the server's log but the expected ones (EXPECTED_LOG), every
churn cycle done without an error, and /metrics showing no session and no connection left.
Exit status 1 when part of the bar is missed, naming it.

Everything is bounded: each wait has a timeout, the run stops at SECONDS, the workers' count is
fixed, and the server is killed if it does not stop within 10 s of SIGTERM.
"""

import argparse
import asyncio
import base64
import json
import os
import random
import re
import resource
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidStatus

ROOT = Path(__file__).resolve().parents[1]
SUBPROTOCOL = "stackcast.v1"

# Log lines at warning level or above that the soak causes on purpose. Anything else fails it.
EXPECTED_LOG = [
    # The stalled reader is dropped, by design, each time more than 1 MiB waits for it.
    (re.compile(r" warning .*\] Dropping a stalled reader$"), "the stalled reader, dropped by design"),
]
LOG_LINE = re.compile(r"^\S+ (trace|debug|info|notice|warning|error|critical) ")

# What churn cycle n does (n counts cycles across all workers): wire format, compression and
# app in turn, and how it ends.
WIRES = [
    {"protocol": 1},                             # v1 JSON
    {"protocol": 2},                             # v2 JSON
    {"protocol": 2, "encoding": "binary"},       # v2 binary
]
APPS = ["phone", "stack", "tablet"]
PUSH_SCREEN = {"name": "Soak", "title": "Soak", "rows": [
    {"title": "One", "detail": "1"}, {"title": "Two", "detail": "2"},
    {"title": "Back", "action": {"op": "pop"}},
]}
CLEAN, RESET_AFTER, RESET_DURING = "clean", "reset after result", "reset mid-push"


def log(message):
    print(message, flush=True)


# MARK: the server process


class Server:
    def __init__(self, binary, args, log_path):
        self.log_path = log_path
        self._log = open(log_path, "w")
        # SIGTERM drains; the soak stops it with its clients still connected: no grace period.
        command = [str(binary), "serve", "--port", "0", "--web", str(ROOT / "Web"), "--grace", "0", *args]
        self.command = command
        self.process = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE, stderr=self._log,
                                        stdin=subprocess.DEVNULL, text=True, close_fds=True)
        self.port = None
        found = threading.Event()

        def drain():
            for line in self.process.stdout:
                match = re.search(r"Stackcast serving http://127\.0\.0\.1:(\d+)/", line)
                if match and self.port is None:
                    self.port = int(match.group(1))
                    found.set()
            found.set()

        threading.Thread(target=drain, daemon=True).start()
        if not found.wait(20) or self.port is None:
            self.stop()
            raise SystemExit(f"soak: the server did not start:\n{Path(log_path).read_text()[-2000:]}")

    @property
    def pid(self):
        return self.process.pid

    @property
    def ws_url(self):
        return f"ws://127.0.0.1:{self.port}/ws"

    def alive(self):
        return self.process.poll() is None

    def sample(self):
        """(RSS in KiB, open fds) of the server, from /proc."""
        rss = 0
        with open(f"/proc/{self.pid}/status") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    rss = int(line.split()[1])
        return rss, len(os.listdir(f"/proc/{self.pid}/fd"))

    def cpu_seconds(self):
        """User + system CPU seconds the server has used, from /proc/PID/stat."""
        with open(f"/proc/{self.pid}/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def schedstat(self):
        """(seconds on a CPU, seconds runnable but waiting for one) of the server's threads alive
        now, from /proc/PID/task/*/schedstat."""
        ran = waited = 0
        for task in os.listdir(f"/proc/{self.pid}/task"):
            try:
                with open(f"/proc/{self.pid}/task/{task}/schedstat") as stat:
                    fields = stat.read().split()
            except OSError:
                continue
            ran, waited = ran + int(fields[0]), waited + int(fields[1])
        return ran / 1e9, waited / 1e9

    def fd_kinds(self):
        """Open fds by kind (socket, pipe, anon_inode:[eventfd], a path)."""
        kinds = {}
        for fd in os.listdir(f"/proc/{self.pid}/fd"):
            try:
                target = os.readlink(f"/proc/{self.pid}/fd/{fd}")
            except OSError:
                continue
            kind = target.split(":")[0] if target.startswith(("socket:", "pipe:")) else target
            kinds[kind] = kinds.get(kind, 0) + 1
        return kinds

    def metrics(self):
        """GET /metrics as {name{labels}: value}."""
        with urllib.request.urlopen(f"http://127.0.0.1:{self.port}/metrics", timeout=5) as response:
            text = response.read().decode()
        values = {}
        for line in text.splitlines():
            if line and not line.startswith("#"):
                name, _, value = line.rpartition(" ")
                values[name] = float(value)
        return values

    def stop(self):
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(5)
        self._log.close()
        return self.process.returncode


# MARK: churn


class ChurnStats:
    def __init__(self):
        self.done = {CLEAN: 0, RESET_AFTER: 0, RESET_DURING: 0}
        self.open = 0
        self.errors = {}
        self.error_samples = []
        self.cycle = 0

    @property
    def total(self):
        return sum(self.done.values())

    def error(self, kind, detail):
        self.errors[kind] = self.errors.get(kind, 0) + 1
        if len(self.error_samples) < 10:
            self.error_samples.append(f"{kind}: {detail}"[:300])


def reset(ws):
    """Closes the connection with RST: SO_LINGER 0, then close without a close frame."""
    sock = ws.transport.get_extra_info("socket")
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    ws.transport.abort()


async def receive_until(ws, done, timeout):
    """Reads messages until `done(message)` is true (message: dict for JSON control messages,
    "frame" for any frame); raises on an error message or after `timeout` seconds."""
    deadline = time.monotonic() + timeout
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            raise TimeoutError("no answer in time")
        raw = await asyncio.wait_for(ws.recv(), left)
        if isinstance(raw, bytes) or raw.startswith('{"type":"frame"'):
            message = "frame"
        else:
            message = json.loads(raw)
            if message.get("type") == "error":
                raise RuntimeError(f"server error: {raw[:200]}")
        if done(message):
            return message


async def churn_cycle(url, number, stats):
    wire = WIRES[number % len(WIRES)]
    app = APPS[(number // len(WIRES)) % len(APPS)]
    deflate = (number // (len(WIRES) * len(APPS))) % 2 == 0
    ending = [CLEAN, RESET_AFTER, CLEAN, CLEAN, RESET_DURING, CLEAN][number % 6]
    ws = await connect(url, subprotocols=[SUBPROTOCOL], compression="deflate" if deflate else None,
                       max_size=None, ping_interval=None, open_timeout=10, close_timeout=5, proxy=None)
    stats.open += 1
    try:
        await ws.send(json.dumps({"type": "hello", "app": app, **wire}))
        await receive_until(ws, lambda m: isinstance(m, dict) and m.get("type") == "welcome", 10)
        await receive_until(ws, lambda m: m == "frame", 10)
        await ws.send(json.dumps({"type": "command", "id": 1, "op": "push", "screen": PUSH_SCREEN}))
        if ending == RESET_DURING:
            # The push's first frame: the transition runs; reset the connection in its middle.
            await receive_until(ws, lambda m: m == "frame", 10)
            reset(ws)
        else:
            await receive_until(ws, lambda m: isinstance(m, dict) and m.get("type") == "result", 10)
            if ending == RESET_AFTER:
                reset(ws)
            else:
                await ws.close()
        stats.done[ending] += 1
    finally:
        if ws.state.name != "CLOSED":
            ws.transport.abort()
        stats.open -= 1


async def churn_worker(url, deadline, stats, think):
    while time.monotonic() < deadline:
        number = stats.cycle
        stats.cycle += 1
        try:
            await asyncio.wait_for(churn_cycle(url, number, stats), 30)
        except InvalidStatus as error:
            stats.error("refused", error)
        except (ConnectionClosed, OSError, RuntimeError, TimeoutError, asyncio.TimeoutError) as error:
            stats.error(type(error).__name__, error)
        await asyncio.sleep(random.uniform(0, think))


# MARK: stalled and silent readers (raw sockets, own threads)


def raw_websocket(port, rcvbuf=4096):
    """A handshaken WebSocket on a blocking socket with a small receive buffer."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
    sock.settimeout(10)
    sock.connect(("127.0.0.1", port))
    key = base64.b64encode(os.urandom(16)).decode()
    sock.sendall((f"GET /ws?deflate=0 HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
                  f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n"
                  f"Sec-WebSocket-Protocol: {SUBPROTOCOL}\r\n\r\n").encode())
    head = b""
    while b"\r\n\r\n" not in head:
        chunk = sock.recv(1)  # byte by byte: nothing after the head is read
        if not chunk:
            raise ConnectionError("closed during the handshake")
        head += chunk
    if b" 101 " not in head.split(b"\r\n")[0] + b" ":
        raise ConnectionError(head.split(b"\r\n")[0].decode())
    return sock


def masked_text(text):
    payload = text.encode()
    length = len(payload)
    header = bytes([0x81])
    if length < 126:
        header += bytes([0x80 | length])
    else:
        header += bytes([0x80 | 126]) + struct.pack("!H", length)
    mask = os.urandom(4)
    # XOR with the repeated mask, in one big-integer operation rather than byte by byte.
    key = (mask * (length // 4 + 1))[:length]
    masked = (int.from_bytes(payload, "big") ^ int.from_bytes(key, "big")).to_bytes(length, "big")
    return header + mask + masked


class StalledReader(threading.Thread):
    """Says hello, then sends 32 KiB pings (40 a second, under the 200 a second limit) and never
    reads. Each time the server drops it, it counts the drop, and the time it took, and comes back."""

    PAYLOAD = "x" * 32_000

    def __init__(self, port, stop):
        super().__init__(daemon=True)
        self.port, self.stop = port, stop
        self.dropped = []          # seconds from hello to the drop, per drop
        self.problems = []

    def run(self):
        while not self.stop.is_set():
            try:
                sock = raw_websocket(self.port)
            except OSError as error:
                self.problems.append(f"connect: {error}")
                self.stop.wait(1)
                continue
            started = time.monotonic()
            try:
                sock.sendall(masked_text(json.dumps({"type": "hello", "app": "stack"})))
                sent = 0
                while not self.stop.is_set():
                    sock.sendall(masked_text(json.dumps({"type": "ping", "id": sent, "t": self.PAYLOAD})))
                    sent += 1
                    self.stop.wait(0.025)
                    if time.monotonic() - started > 60:
                        self.problems.append(f"not dropped after {sent} pings in 60 s")
                        break
            except socket.timeout:
                self.problems.append("a send blocked for 10 s: the server stopped reading")
            except OSError:
                # The server reset the connection: it was dropped.
                self.dropped.append(time.monotonic() - started)
            finally:
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
                sock.close()
            self.stop.wait(1)


class SilentReader(threading.Thread):
    """Says hello, then neither reads nor writes until the end. The heartbeat should drop it 40 s
    later; the server's log says so (its close cannot be seen from here: the server's unsent data
    and FIN wait behind this socket's full receive window)."""

    def __init__(self, port, stop):
        super().__init__(daemon=True)
        self.port, self.stop = port, stop
        self.problems = []

    def run(self):
        try:
            sock = raw_websocket(self.port)
            sock.sendall(masked_text(json.dumps({"type": "hello", "app": "phone"})))
        except OSError as error:
            self.problems.append(f"connect: {error}")
            return
        self.stop.wait()
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        sock.close()


# MARK: the run


def mib(kib):
    return f"{kib / 1024:.1f} MiB"


def driver_cpu():
    """CPU seconds this driver (every thread) has used."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def load_command(options, server, seconds):
    return [options.bin, "load", "--url", server.ws_url, "--sessions", str(options.animating), "--seconds", str(seconds),
            "--mode", "drag", "--app", "phone", "--wire", "binary", "--json"]


def run_load(options, server, seconds):
    """Runs `stackcast load` to its end; its JSON report, or None."""
    done = subprocess.run(load_command(options, server, seconds), capture_output=True, text=True, timeout=seconds + 60)
    try:
        return json.loads(done.stdout.strip().splitlines()[-1])
    except (ValueError, IndexError):
        log(f"soak: stackcast load gave no report:\n{done.stderr[-2000:]}")
        return None


def warm_up(server, binary, ttl):
    """One of every kind of cycle, on both service threads, and a short drag load, then waits
    until the sessions they left have expired."""
    async def run():
        stats = ChurnStats()
        for number in range(36):  # every wire x app x compression x ending at least once
            await churn_cycle(server.ws_url, number, stats)
        return stats
    stats = asyncio.run(asyncio.wait_for(run(), 120))
    subprocess.run([str(binary), "load", "--url", server.ws_url, "--sessions", "4", "--seconds", "1",
                    "--mode", "drag", "--app", "phone", "--json"], capture_output=True, timeout=60, check=True)
    time.sleep(ttl + 1.5)
    metrics = server.metrics()
    time.sleep(0.5)
    return stats, metrics


def main():
    parser = argparse.ArgumentParser(description="Soak and churn a release stackcast server on loopback.")
    parser.add_argument("seconds", nargs="?", type=float, default=60, help="how long to churn (1 to 3600, default 60)")
    parser.add_argument("--bin", default=str(ROOT / ".build-soak/release/stackcast"), help="the stackcast binary")
    parser.add_argument("--churn", type=int, default=300, help="churning connections at once")
    parser.add_argument("--animating", type=int, default=20, help="sessions dragging at 60 Hz")
    parser.add_argument("--think", type=float, default=0.2, help="longest pause between a worker's cycles (s)")
    parser.add_argument("--ttl", type=float, default=5, help="the server's --session-ttl (s)")
    parser.add_argument("--after", type=float, default=10, help="seconds after the churn to measure again")
    parser.add_argument("--threads", type=int, default=os.cpu_count() or 2)
    parser.add_argument("--log", default=None, help="server log file (default: a temporary file)")
    parser.add_argument("--keep", type=float, default=0, help="keep the server up this long after the report (to inspect it)")
    options = parser.parse_args()
    if not (1 <= options.seconds <= 3600):
        parser.error("seconds must be from 1 to 3600")
    if not (1 <= options.churn <= 2000 and 1 <= options.animating <= 1000):
        parser.error("--churn must be from 1 to 2000 and --animating from 1 to 1000")
    if not (0 <= options.think <= 10 and 0.5 <= options.ttl <= 60 and options.after <= 600 and 0 <= options.keep <= 3600):
        parser.error("--think from 0 to 10 s, --ttl from 0.5 to 60 s, --after at most 600 s, --keep at most 3600 s")
    if options.after <= options.ttl:
        parser.error("--after must be longer than --ttl, so that churned sessions have expired")

    log_path = options.log or os.path.join(tempfile.mkdtemp(prefix="stackcast-soak-"), "server.log")
    connections = options.churn + options.animating + 16
    server_args = [
        "--threads", str(options.threads), "--session-ttl", str(options.ttl),
        "--max-connections-per-peer", str(connections),
        "--max-sessions", "20000", "--max-sessions-per-peer", "20000",
        "--peer-messages-per-second", "200000", "--peer-cpu-percent", "0", "--shed-below-fps", "0",
    ]
    server = Server(options.bin, server_args, log_path)
    log(f"soak: server pid {server.pid} on port {server.port}: {' '.join(server_args)}")
    log(f"soak: log {log_path}")
    cold = server.sample()
    try:
        try:
            ok = soak(server, options, cold)
        except (OSError, subprocess.SubprocessError, asyncio.TimeoutError, ValueError) as error:
            alive = "running" if server.alive() else f"exited with {server.process.returncode}"
            log(f"soak: FAIL: {type(error).__name__}: {error} (the server is {alive})")
            with open(log_path, errors="replace") as text:
                log("".join(text.readlines()[-20:]))
            ok = False
        if options.keep > 0:
            log(f"soak: keeping the server (pid {server.pid}) up for {options.keep:.0f} s")
            time.sleep(options.keep)
    finally:
        code = server.stop()
    if code != 0:
        log(f"soak: FAIL: the server exited with {code} on SIGTERM")
        ok = False
    log(f"soak: log kept at {log_path}")
    return 0 if ok else 1


def soak(server, options, cold):
    log(f"soak: cold start RSS {mib(cold[0])}, {cold[1]} fds; warming up (every kind of cycle once, "
        f"a 1 s drag, then {options.ttl + 2:.0f} s for the sessions to expire)")
    warm_stats, warm_metrics = warm_up(server, options.bin, options.ttl)
    if warm_stats.errors or warm_metrics.get("stackcast_sessions", 0) != 0:
        log(f"soak: FAIL: warm-up: errors {warm_stats.errors} {warm_stats.error_samples}, "
            f"sessions left {warm_metrics.get('stackcast_sessions')}")
        return False
    # The same dragging sessions alone first, for 5 s: what their latency is on this machine
    # right now without the churn, to compare with the figure under it.
    alone = run_load(options, server, 5)
    if alone:
        log(f"soak: {options.animating} sessions dragging alone for 5 s: input -> frame p50 {alone['latency_ms_p50']} ms, "
            f"p99 {alone['latency_ms_p99']} ms; fps p50 {alone['fps_p50']}")
    time.sleep(options.ttl + 1.5)  # their sessions expire before the churn

    baseline = server.sample()
    baseline_fd_kinds = server.fd_kinds()
    log(f"soak: baseline RSS {mib(baseline[0])}, {baseline[1]} fds (idle, after {warm_stats.total} warm-up cycles and the drag)")

    samples = []
    stats = ChurnStats()
    stop_readers = threading.Event()
    stalled = StalledReader(server.port, stop_readers)
    silent = SilentReader(server.port, stop_readers)
    load = subprocess.Popen(load_command(options, server, options.seconds),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    stalled.start()
    silent.start()
    server_cpu_before, driver_cpu_before, sched_before = server.cpu_seconds(), driver_cpu(), server.schedstat()
    started = time.monotonic()
    deadline = started + options.seconds

    async def run():
        async def sampler():
            next_progress = started + 5
            while time.monotonic() < deadline + 1:
                samples.append((time.monotonic() - started, *server.sample()))
                if time.monotonic() >= next_progress:
                    next_progress += 5
                    t, rss, fds = samples[-1]
                    peak = max(s[1] for s in samples)
                    log(f"  {t:5.0f} s  churned {stats.total:6,} ({stats.done[CLEAN]:,} clean, "
                        f"{stats.done[RESET_AFTER] + stats.done[RESET_DURING]:,} reset)  open {stats.open:3}  "
                        f"errors {sum(stats.errors.values())}  |  server RSS {mib(rss)} (peak {mib(peak)})  "
                        f"fds {fds}  |  stalled reader dropped {len(stalled.dropped)}x")
                await asyncio.sleep(0.5)

        workers = [churn_worker(server.ws_url, deadline, stats, options.think) for _ in range(options.churn)]
        await asyncio.wait_for(asyncio.gather(sampler(), *workers), options.seconds + 60)

    log(f"soak: churning {options.churn} connections, {options.animating} sessions dragging, "
        f"one stalled and one silent reader, for {options.seconds:.0f} s")
    asyncio.run(run())
    churn_seconds = time.monotonic() - started
    server_cpu = (server.cpu_seconds() - server_cpu_before) / churn_seconds * 100
    driver_cpu_percent = (driver_cpu() - driver_cpu_before) / churn_seconds * 100
    load_average = Path("/proc/loadavg").read_text().split()[0]
    sched = [now - before for now, before in zip(server.schedstat(), sched_before)]
    stop_readers.set()
    stalled.join(15)
    silent.join(15)
    try:
        load_out, load_err = load.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        load.kill()
        load_out, load_err = load.communicate()
    try:
        load_report = json.loads(load_out.strip().splitlines()[-1])
    except (ValueError, IndexError):
        load_report = None
    peak_during = max(samples, key=lambda s: s[1])
    peak_fds = max(s[2] for s in samples)
    ended = time.monotonic()
    log(f"soak: churn over after {churn_seconds:.1f} s; waiting {options.after:.0f} s "
        f"(sessions expire {options.ttl:.0f} s after their last viewer)")
    while time.monotonic() < ended + options.after:
        samples.append((time.monotonic() - started, *server.sample()))
        time.sleep(0.5)
    after_metrics = server.metrics()
    time.sleep(0.5)  # the /metrics connection closes
    after = server.sample()
    after_fd_kinds = server.fd_kinds()

    # The log: every line at warning level or above must be one we expect.
    unexpected, expected_counts, lines, heartbeat_drops, trims = [], {}, 0, 0, []
    with open(server.log_path, errors="replace") as text:
        for line in text:
            lines += 1
            line = line.rstrip("\n")
            if line.endswith("] Dropping a WebSocket that stopped answering pings"):
                heartbeat_drops += 1
            elif line.endswith("] returned free heap memory to the system"):
                trims.append({key: float(value) for key, value in re.findall(r"(\w+)=([\d.]+)", line)})
            match = LOG_LINE.match(line)
            if match and match.group(1) in ("trace", "debug", "info", "notice"):
                continue
            for pattern, why in EXPECTED_LOG:
                if pattern.search(line):
                    expected_counts[why] = expected_counts.get(why, 0) + 1
                    break
            else:
                unexpected.append(line)

    m = after_metrics
    closes = {k[len('stackcast_closes_total{code="'):-2]: int(v) for k, v in m.items() if k.startswith("stackcast_closes_total")}
    rss_limit = baseline[0] * 1.10
    checks = [
        (f"RSS after within 10 % of the baseline ({mib(after[0])} <= {mib(rss_limit)})", after[0] <= rss_limit),
        (f"fds after back to the baseline ({after[1]} == {baseline[1]})", after[1] == baseline[1]),
        (f"no unexpected warning or error in the log ({len(unexpected)} found)", not unexpected),
        (f"every churn cycle done without an error ({sum(stats.errors.values())} errors)", not stats.errors),
        (f"no session or connection left (sessions {m.get('stackcast_sessions', -1):.0f}, "
         f"connections {m.get('stackcast_connections', -1):.0f})",
         m.get("stackcast_sessions") == 0 and m.get("stackcast_connections") == 0),
        (f"the stalled reader was dropped ({len(stalled.dropped)} times)", len(stalled.dropped) > 0 and not stalled.problems),
        ("the silent reader was dropped by the heartbeat", heartbeat_drops > 0 or options.seconds < 50),
        (f"the animating sessions ran without errors ({'no report' if load_report is None else load_report['errors']} errors)",
         load_report is not None and load_report["errors"] == 0),
    ]

    log("")
    log(f"== soak: {churn_seconds:.0f} s, {options.churn} churning connections, {options.animating} "
        f"dragging sessions, {options.threads} service threads, session TTL {options.ttl:.0f} s")
    log(f"  RSS     cold {mib(cold[0])}  baseline {mib(baseline[0])}  peak {mib(peak_during[1])} "
        f"(at {peak_during[0]:.0f} s)  after {mib(after[0])} ({(after[0] / baseline[0] - 1) * 100:+.1f} %)")
    log(f"  fds     cold {cold[1]}  baseline {baseline[1]}  peak {peak_fds}  after {after[1]}")
    if after_fd_kinds != baseline_fd_kinds:
        log(f"          baseline {baseline_fd_kinds}\n          after    {after_fd_kinds}")
    log(f"  churn   {stats.total:,} cycles ({stats.total / churn_seconds:.0f}/s): {stats.done[CLEAN]:,} clean closes, "
        f"{stats.done[RESET_AFTER]:,} resets after the result, {stats.done[RESET_DURING]:,} resets mid-push; "
        f"errors {stats.errors or 0}")
    for sample in stats.error_samples:
        log(f"          {sample}")
    log(f"  server  sessions created {m.get('stackcast_sessions_created_total', 0):,.0f}, expired "
        f"{m.get('stackcast_sessions_expired_total', 0):,.0f}; connections {m.get('stackcast_connections_total', 0):,.0f} "
        f"(deflate {m.get('stackcast_connections_deflate_total', 0):,.0f}); closes {closes}; "
        f"stalled readers killed {m.get('stackcast_stalled_readers_killed_total', 0):.0f}; "
        f"frames {m.get('stackcast_frames_sent_total', 0):,.0f}")
    if load_report:
        log(f"  drag    {load_report['sessions']} sessions: input -> frame p50 {load_report['latency_ms_p50']} ms, "
            f"p99 {load_report['latency_ms_p99']} ms, max {load_report['latency_ms_max']} ms "
            f"({load_report['latency_samples']:,} samples); fps p50 {load_report['fps_p50']}, p5 {load_report['fps_p5']}; "
            f"generator CPU {load_report['generator_cpu_percent']} %, loop lag p99 {load_report['loop_lag_ms_p99']} ms")
    else:
        log(f"  drag    no report from stackcast load:\n{load_err[-2000:]}")
    if alone:
        log(f"          alone before the churn (5 s): p50 {alone['latency_ms_p50']} ms, p99 {alone['latency_ms_p99']} ms, "
            f"max {alone['latency_ms_max']} ms; fps p50 {alone['fps_p50']}")
    drops = ", ".join(f"{d:.1f}" for d in stalled.dropped[:8])
    log(f"  stalled dropped {len(stalled.dropped)} times, {drops}{' …' if len(stalled.dropped) > 8 else ''} s after its hello"
        + (f"; problems: {stalled.problems[:3]}" if stalled.problems else ""))
    log("  silent  " + (f"dropped by the heartbeat ({heartbeat_drops} heartbeat drop in the log)" if heartbeat_drops
                       else "not dropped yet (the heartbeat drops it 40 s after its hello)")
        + (f"; problems: {silent.problems}" if silent.problems else ""))
    log(f"  cpu     server {server_cpu:.0f} % of a core, this driver {driver_cpu_percent:.0f} %, "
        f"load average {load_average} at the end of the churn ({os.cpu_count()} cores); the server's threads "
        f"waited {sched[1]:.1f} s for a CPU while they ran {sched[0]:.1f} s")
    if trims:
        log(f"  memory  the allocator kept {trims[0]['rssBeforeMiB']:.0f} MiB once the churn was over; "
            f"malloc_trim ran {len(trims)} times: {' -> '.join(f'{t:.0f}' for t in [trims[0]['rssBeforeMiB']] + [t['rssAfterMiB'] for t in trims])} MiB, "
            f"{sum(t['cpuMilliseconds'] for t in trims):.0f} ms of CPU in all (longest {max(t['milliseconds'] for t in trims):.0f} ms)")
    else:
        log("  memory  malloc_trim did not run")
    log(f"  log     {lines:,} lines; expected: {expected_counts or 'none'}; unexpected: {len(unexpected)}")
    for line in unexpected[:10]:
        log(f"          {line[:300]}")
    log("")
    for what, passed in checks:
        log(f"  {'ok  ' if passed else 'FAIL'} {what}")
    failed = [what for what, passed in checks if not passed]
    log(f"soak: {'PASS' if not failed else 'FAIL: ' + '; '.join(failed)}")
    return not failed


if __name__ == "__main__":
    sys.exit(main())
