"""`Scripts/lint --root DIR` against small git repositories made here: planted traces, broken
links and syntax errors fail with their file and line, and a clean tree passes.

The planted phrases are put together at run time, so this file stays clean itself."""

import shutil
import subprocess

import pytest

from conftest import ROOT

ISSUE = "issue " + "12"
SESSION = "Twelfth" + " session"


@pytest.fixture
def tree(tmp_path):
    """A function writing {path: text} into a fresh git repository (staged, as a checkout's
    files are tracked) and running Scripts/lint on it; returns the finished process."""
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)

    def lint(files, *options):
        for name, text in files.items():
            path = tmp_path / name
            path.parent.mkdir(parents=True, exist_ok=True)
            if isinstance(text, bytes):
                path.write_bytes(text)
            else:
                path.write_text(text)
        subprocess.run(["git", "-C", str(tmp_path), "add", "-A"], check=True)
        return subprocess.run([str(ROOT / "Scripts/lint"), "--root", str(tmp_path), *options],
                              capture_output=True, text=True, timeout=120)

    return lint


def findings(done):
    return [line for line in done.stdout.splitlines() if not line.startswith("lint: ")]


def test_planted_traces_and_a_broken_link_fail_with_file_and_line(tree):
    done = tree({
        "notes.txt": f"A line about the product.\nAs {ISSUE} asks, the stack pops.\n",
        "docs/guide.md": f"# Guide\n\nText.\n\n## {SESSION} (2026-11-28)\n\nSee [the list](missing.md) and [above](#guide).\n",
    })
    assert done.returncode == 1, done
    lines = findings(done)
    assert any(line.startswith("notes.txt:2: trace: an issue number") for line in lines), lines
    assert any(line.startswith("docs/guide.md:5: trace: a numbered working session") for line in lines), lines
    assert any(line.startswith("docs/guide.md:7: links: missing.md") for line in lines), lines
    assert not any("#guide" in line for line in lines), lines   # that anchor exists
    assert done.stdout.splitlines()[-1].startswith(f"lint: {len(lines)} findings"), done.stdout


def test_a_clean_tree_passes(tree):
    done = tree({
        "README.md": "# Demo\n\nThe [guide](docs/guide.md#3-two-words-here) and [the folder](docs/).\n"
                     "A third session on --max-sessions 2 is refused; invariant run seed 6 found it.\n",
        "docs/guide.md": "# Guide\n\n## 3. Two words, `here`\n\n```\n# not a heading\n```\n",
        "Scripts/tool.sh": "#!/bin/sh\necho 'from /tmp/out'\n",
    })
    assert done.returncode == 0, done
    assert findings(done) == [] and done.stdout.splitlines()[-1].startswith("lint: clean"), done.stdout


def test_every_pattern_is_found_and_a_wrapped_phrase_at_its_first_line(tree):
    planted = ["seed " + "003", "the bri" + "ef", "/wo" + "rk/shared/x.md", "../" + "shared/y", "BEHAVIOUR" + ".md",
               "PROTOCOL" + ".md", "16" + "th session", "session (" + "2026-11-28)"]
    text = "\n".join(f"line {n}: {phrase}" for n, phrase in enumerate(planted, 1))
    done = tree({"a.txt": text + "\nthe sixteenth\nsession ended\n"}, "--only", "trace")
    lines = findings(done)
    for number in range(1, len(planted) + 1):
        assert any(line.startswith(f"a.txt:{number}: trace:") for line in lines), (number, lines)
    assert any(line.startswith(f"a.txt:{len(planted) + 1}: trace: a numbered working session") for line in lines), lines


def test_the_repositorys_own_documents_and_words_pass(tree):
    done = tree({"a.txt": "See docs/protocol.md and docs/behaviour.md; briefly, https://example.com/home/x.\n"
                          "The second session resumes; sessions 1 to 3; seeds 11 and 606 of the invariant runs.\n"},
                "--only", "trace")
    assert done.returncode == 0, done


def test_binary_files_and_the_fuzz_corpus_are_data(tree):
    done = tree({"image.bin": b"\0\x01" + ISSUE.encode(), "Fuzz/Corpus/Target/seed-1": ISSUE + "\n"}, "--only", "trace")
    assert done.returncode == 0, done


def test_an_anchor_must_name_a_heading_of_the_target(tree):
    done = tree({"README.md": "[x](docs/guide.md#nowhere)\n", "docs/guide.md": "# Guide\n"}, "--only", "links")
    assert done.returncode == 1 and findings(done) == ["README.md:1: links: docs/guide.md#nowhere: docs/guide.md has no heading #nowhere"], done.stdout


def test_a_module_with_a_syntax_error_fails(tree):
    # Node reads a .js file without a package.json as CommonJS, where `node --check` passes a broken
    # module: the lint checks it as the module it is.
    done = tree({"Web/src/good.js": "export const x = 1;\n", "Web/src/bad.js": "export const y = 1;\nconst z = ;\n"}, "--only", "js")
    assert done.returncode == 1, done
    assert [line.split(" ", 1)[0] for line in findings(done)] == ["Web/src/bad.js:2:"], done.stdout


def test_python_is_checked_with_the_committed_configuration(tree):
    done = tree({"ruff.toml": (ROOT / "ruff.toml").read_text(), "Scripts/tool": "#!/usr/bin/env python3\nimport os\n",
                 "Tests/x/test_ok.py": "def test_x():\n    assert True\n"}, "--only", "python")
    assert done.returncode == 1, done
    assert findings(done) == ["Scripts/tool:2: python: F401 [*] `os` imported but unused"], done.stdout


@pytest.mark.skipif(shutil.which("swift") is None, reason="the Swift toolchain builds everything else")
def test_swift_rule_findings_count_and_layout_does_not(tree):
    source = ("enum E { case a(Int, Int) }\n\nfunc f(_ e: E) -> Int {\n    switch e {\n"
              "    case let .a(x, y): return g(x,\n                                y)\n    }\n}\n\nfunc g(_ x: Int, _ y: Int) -> Int { x + y }\n")
    done = tree({".swift-format": (ROOT / ".swift-format").read_text(), "Sources/A/A.swift": source}, "--only", "swift")
    assert done.returncode == 1, done
    assert [line.split(" ", 2)[:2] for line in findings(done)] == [["Sources/A/A.swift:5:", "swift:"]], done.stdout
    assert "UseLetInEveryBoundCaseVariable" in done.stdout, done.stdout
