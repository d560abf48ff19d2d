"""`Scripts/serve`'s own steps, run from a copy of the script beside stubs: a `swift` that prints
what a build would and exits as it would, and a `stackcast` that says how it was started. So the
script's handling of the build's output is checked without a release build.

An up-to-date build prints only "Build of product 'stackcast' complete!", which the script's
filter once dropped entirely: under `pipefail` the empty filter failed the script, and a second
`Scripts/serve` exited 1 without a word."""

import os
import shutil
import subprocess

import pytest

from conftest import ROOT


@pytest.fixture
def serve_copy(tmp_path):
    """A repository-shaped folder with the real `Scripts/serve`, a setup that does nothing and a
    `stackcast` that prints its arguments; returns a function that runs the script with a stub
    `swift` printing `output` and exiting `status`."""
    (tmp_path / "Scripts").mkdir()
    shutil.copy(ROOT / "Scripts/serve", tmp_path / "Scripts/serve")
    write_executable(tmp_path / "Scripts/setup", "#!/bin/sh\necho 'setup: ready'\n")
    write_executable(tmp_path / ".build/release/stackcast", '#!/bin/sh\necho "stackcast started: $*"\n')

    def run(output, status):
        stub = tmp_path / "bin/swift"
        write_executable(stub, f"#!/bin/sh\nprintf '%s\\n' {shell_quote(output)}\nexit {status}\n")
        env = {**os.environ, "PATH": f"{stub.parent}:{os.environ['PATH']}"}
        return subprocess.run([str(tmp_path / "Scripts/serve"), "--port", "9"], cwd=tmp_path, env=env,
                              capture_output=True, text=True, timeout=30)

    return run


def write_executable(path, text):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    path.chmod(0o755)


def shell_quote(text):
    return "'" + text.replace("'", "'\\''") + "'"


def test_an_up_to_date_build_still_starts_the_server(serve_copy):
    done = serve_copy("Building for production...\nBuild of product 'stackcast' complete! (0.17s)", 0)
    assert done.returncode == 0, done
    assert "Build of product 'stackcast' complete!" in done.stdout, done.stdout
    assert "stackcast started: serve --web Web --port 9" in done.stdout, done.stdout


def test_a_build_that_compiles_shows_its_last_lines_and_starts_the_server(serve_copy):
    done = serve_copy("Compiling NavKit Layer.swift\nCompiling stackcast Stackcast.swift\nBuild of product 'stackcast' complete! (94.2s)", 0)
    assert done.returncode == 0, done
    assert "Compiling stackcast Stackcast.swift" in done.stdout, done.stdout
    assert "stackcast started: serve --web Web --port 9" in done.stdout, done.stdout


def test_a_failed_build_shows_the_error_and_starts_nothing(serve_copy):
    done = serve_copy("Compiling NavKit Layer.swift\nLayer.swift:3:1: error: expected declaration", 1)
    assert done.returncode != 0, done
    assert "error: expected declaration" in done.stdout, done.stdout
    assert "stackcast started" not in done.stdout, done.stdout
