"""Fixtures for the client's tests: the real `stackcast serve` on a free loopback port, from
$STACKCAST_BIN (else the repository's `.build/debug/stackcast`), stopped with SIGTERM after each
test, which fails unless the server exits 0."""

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "Tests" / "Support"))
from stackcast_testing import ServerProcess  # noqa: E402  (path set just above)


@pytest.fixture
def server(tmp_path):
    process = ServerProcess([], tmp_path / "server.log")
    yield process
    alive = process.alive()
    code = process.terminate()
    assert alive and code == 0, f"the server {'exited' if not alive else 'stopped'} with {code}\n{process.log_tail()}"


@pytest.fixture
def url(server):
    return server.ws_url
