"""Fixtures for the protocol end-to-end tests: the real `stackcast serve` on a free loopback port.

The binary comes from $STACKCAST_BIN, else `.build/debug/stackcast`; a missing binary is a
failure, never a skip. Every server a test starts is stopped with SIGTERM at the end of the test,
and the test fails unless the process exits with code 0 (a crash at any point shows up here).
"""

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "Support"))
from stackcast_testing import ROOT, ServerProcess  # noqa: E402, F401  (path set just above; test_http.py takes ROOT from here)


def pytest_configure(config):
    config.addinivalue_line(
        "markers",
        "rss: the test measures the server's resident memory; Scripts/sanitize leaves it out, since "
        "AddressSanitizer's quarantine and shadow memory are most of an ASan build's RSS")


@pytest.fixture
def start_server(tmp_path):
    """A factory: `start_server("--allow-origin", "http://x")` starts one more server (with
    `env=` variables added to its environment). Each one is stopped with SIGTERM after the test,
    which fails unless it exits 0."""
    started = []

    def start(*args, env=None):
        server = ServerProcess(args, tmp_path / f"server{len(started)}.log", env)
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


