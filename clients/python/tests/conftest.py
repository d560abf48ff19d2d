"""Fixtures for the client's tests: the real `stackcast serve` on a free loopback port, from
$STACKCAST_BIN (else the repository's `.build/debug/stackcast`), stopped with SIGTERM after each
test, which fails unless the server exits 0."""

import subprocess
import sys
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

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


@pytest.fixture
def run_example():
    """Starts `clients/python/examples/NAME` with ARGS as a person would and returns the session
    token of the viewer link it prints; stops it at the end."""
    started = []

    def start(name, *args):
        script = Path(__file__).resolve().parents[1] / "examples" / name
        process = subprocess.Popen([sys.executable, str(script), *args], stdout=subprocess.PIPE,
                                   stderr=subprocess.STDOUT, text=True)
        started.append(process)
        line = process.stdout.readline()
        if " open http://" not in line:
            process.kill()
            pytest.fail(f"{name} did not print its link: {line}{process.stdout.read()}")
        return parse_qs(urlsplit(line.split(" open ", 1)[1].strip()).query)["session"][0]

    yield start
    for process in started:
        process.terminate()
        process.wait(10)
