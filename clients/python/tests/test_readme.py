"""The ten-line script of the client's README and of the repository's runs as written (against the
test's server) and prints what the README says."""

import re
import subprocess
import sys
from pathlib import Path

import pytest

CLIENT = Path(__file__).resolve().parents[1]
READMES = [CLIENT / "README.md", CLIENT.parents[1] / "README.md"]


@pytest.mark.parametrize("readme", READMES, ids=["clients/python/README.md", "README.md"])
def test_the_readme_script_runs_and_prints_what_it_shows(url, tmp_path, readme):
    text = readme.read_text()
    blocks = re.findall(r"```python\n(.*?)```", text, re.S)
    script = blocks[0]
    assert len([line for line in script.splitlines() if line.strip()]) <= 10, script
    shown = re.search(r"prints\n\n```\n(.*?)```", text, re.S).group(1)
    result = subprocess.run([sys.executable, "-c", script.replace("ws://127.0.0.1:8080/ws", url)], cwd=tmp_path,
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    assert result.stdout == shown
    assert (tmp_path / "picture.png").stat().st_size > 1000
