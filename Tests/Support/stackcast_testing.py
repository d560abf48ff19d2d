"""Helpers shared by the Python suites (end-to-end and browser): where the server binary is, and
bounded waiting. Both suites put this folder on `sys.path` in their conftest."""

import os
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def server_binary():
    """The server to test: $STACKCAST_BIN, else `.build/debug/stackcast` (what `swift build`
    makes). A missing binary fails the test; it is never skipped."""
    path = Path(os.environ.get("STACKCAST_BIN") or ".build/debug/stackcast")
    if not path.is_absolute():
        path = ROOT / path
    if not (path.is_file() and os.access(path, os.X_OK)):
        pytest.fail(f"no stackcast binary at {path} (run `swift build`, or set STACKCAST_BIN)")
    return path


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
