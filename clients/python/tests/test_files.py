"""The file browser example (clients/python/examples/files.py) against a real server, on a folder
the test makes and changes: the program runs on its own and the test browses through its link."""

import time

import pytest

import stackcast


@pytest.fixture
def folder(tmp_path):
    root = tmp_path / "docs"
    (root / "Letters").mkdir(parents=True)
    (root / "Letters" / "a.txt").write_text("hello")
    (root / "notes.md").write_text("x" * 2048)
    (root / ".hidden").write_text("")
    return root


@pytest.fixture
def browser(url, folder, run_example):
    return run_example("files.py", str(folder), url)


def rows(person):
    texts = {n.frame[1]: n.text for n in person.nodes(name="detail")}
    return [(n.name, texts.get(n.frame[1])) for n in person.nodes(role="row")]


def wait_for(person, expected, timeout=10):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        person.settle()
        if rows(person) == expected:
            return
        time.sleep(0.1)
    assert rows(person) == expected


def test_folders_push_files_describe_and_counts_stay_live(url, folder, browser):
    with stackcast.connect(url, session=browser) as person:
        person.settle()
        assert rows(person) == [("Letters", "1 item"), ("notes.md", "2.0 KB")]
        x, y, w, h = person.node(role="row", name="Letters").frame
        person.tap(x + w / 2, y + h / 2)
        wait_for(person, [("a.txt", "5 B")])
        assert [p["screen"] for p in person.query_state()["stack"]] == ["docs", "Letters"]

        # A file appears and another changes on disk: the page shown changes in place.
        (folder / "Letters" / "b.txt").write_text("bb")
        (folder / "Letters" / "a.txt").write_text("hello, world")
        wait_for(person, [("a.txt", "12 B"), ("b.txt", "2 B")])
        (folder / "Letters" / "a.txt").unlink()
        wait_for(person, [("b.txt", "2 B")])

        # The folder above counted along, off screen; back there it shows.
        person.edge_swipe_back()
        wait_for(person, [("Letters", "1 item"), ("notes.md", "2.0 KB")])
        x, y, w, h = person.node(role="row", name="notes.md").frame
        person.tap(x + w / 2, y + h / 2)
        wait_for(person, [("Size", "2.0 KB"), ("Kind", "md")])
