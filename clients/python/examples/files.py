"""A file browser whose logic is this program: a person browses a folder in the viewer.

    Scripts/serve &                                          # a Stackcast server on port 8080
    python3 clients/python/examples/files.py ~/Documents     # prints the link to open
    python3 clients/python/examples/files.py DIR ws://HOST:PORT/ws

Each folder is a page of rows, folders first (their item count on the right), then files (their
size); a folder pushes its own page, a file a page of what it is. The counts and sizes stay live:
every second the program looks again at the folders on screen and changes their rows in place.
"""

import sys
from pathlib import Path

import stackcast

URL = "ws://127.0.0.1:8080/ws"


def describe(path):
    """The detail of an entry: how many items a folder holds, how big a file is."""
    try:
        if path.is_dir():
            count = sum(1 for _ in path.iterdir())
            return f"{count} item{'' if count == 1 else 's'}"
        size = path.stat().st_size
    except OSError:
        return "unreadable"
    return f"{size} B" if size < 1024 else f"{size / 1024:.1f} KB" if size < 1024 ** 2 else f"{size / 1024 ** 2:.1f} MB"


def entries(folder):
    """The entries of `folder` as rows, folders first, hidden ones left out."""
    try:
        paths = sorted((p for p in folder.iterdir() if not p.name.startswith(".")), key=lambda p: (not p.is_dir(), p.name.lower()))
    except OSError:
        return []
    return [{"title": p.name, "detail": describe(p),
             "action": {"emit": "open", "value": {"path": str(p)}}} for p in paths]


def screen(folder):
    return {"name": folder.name or str(folder), "title": folder.name or str(folder), "rows": entries(folder)}


class Browser:
    """The folders on screen, by their page's vc, with the rows each page shows."""

    def __init__(self):
        self.pages = {}

    def edits(self, shown, now):
        """Row edits that turn `shown` into `now`: deletes of what went (last first), reloads of
        what changed, inserts of what came, each at its place in `now`."""
        titles = [row["title"] for row in now]
        edits = [{"delete": i} for i in reversed(range(len(shown))) if shown[i]["title"] not in titles]
        kept = [row for row in shown if row["title"] in titles]
        for index, row in enumerate(now):
            if index < len(kept) and kept[index]["title"] == row["title"]:
                if kept[index] != row:
                    edits.append({"reload": row, "at": index})
            else:
                edits.append({"insert": row, "at": index})
                kept.insert(index, row)
        return edits

    def refresh(self, session):
        """Looks again at every folder on screen and changes the rows that differ."""
        state = session.query_state()
        alive = {page["vc"] for page in state["stack"]}
        for vc in list(self.pages):
            if vc not in alive:
                del self.pages[vc]
                continue
            folder, shown = self.pages[vc]
            now = entries(folder)
            edits = self.edits(shown, now)
            if edits:
                session.update(vc=vc, rows=edits)
                self.pages[vc] = (folder, now)


root = Path(sys.argv[1] if len(sys.argv) > 1 else ".").expanduser().resolve()
app = stackcast.App({"kind": "stack", "root": screen(root)})
browser = Browser()


@app.on("open")
def open_entry(event, session):
    path = Path(event.value["path"])
    if path.is_dir():
        vc = session.push(screen(path))["vc"]
        browser.pages[vc] = (path, entries(path))
    else:
        rows = [{"title": "Size", "detail": describe(path)}, {"title": "Kind", "detail": path.suffix[1:] or "file"}]
        session.push({"name": path.name, "title": path.name, "rows": rows})


if __name__ == "__main__":
    url = sys.argv[2] if len(sys.argv) > 2 else URL
    program, token = app.start(url)
    browser.pages[program.query_state()["stack"][0]["vc"]] = (root, entries(root))
    print(f"files: open {stackcast.viewer_link(url, token)}", flush=True)
    with program:
        while not program.closed:
            app.answer(program, timeout=1)
            browser.refresh(program)
