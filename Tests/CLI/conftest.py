"""Fixtures of the command-line suite: the repository's root and the built `stackcast`."""
import os
import pathlib

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]


@pytest.fixture(scope="session")
def stackcast_bin():
    path = pathlib.Path(os.environ.get("STACKCAST_BIN", ROOT / ".build/debug/stackcast"))
    if not path.exists():
        pytest.fail(f"{path} does not exist: build first (swift build), or set STACKCAST_BIN")
    return str(path)
