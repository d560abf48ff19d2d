"""The inspector in real Chromium against the real server.

- A watcher (`?session=WATCH_TOKEN&role=view`) opens the inspector at 1600 × 900: the panel
  stands beside the stage (the device is not covered), the node tree lists the session's nodes
  with roles, names, texts and frames; pointing at a row's title shows its text, font and colour.
  A push run by the controller (a protocol client) streams into the event log in the exact
  lifecycle order of docs/protocol.md §7, and afterwards the covered page is marked standby in
  the tree (not seen, not outlined).
- A controller at 390 × 844 opens it as a drawer under the device: the device keeps its
  proportions above the drawer, a tap on a row reaches the canvas and pushes, and the push's
  events arrive in the log.
Screenshots `inspector-*.png` at 1600 × 900 and 390 × 844 go to .build/test-artifacts/screenshots/.
"""

import contextlib
import json
import threading

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from websockets.sync.client import connect

from stackcast_testing import wait_until
from test_viewer import (  # noqa: F401 (fixtures)
    ARTIFACTS, VIEWPORT, artifacts, canvas_rect, click_at, driver, set_inner_size, start_server, wait_for_viewer,
)

SCREENSHOTS = ARTIFACTS / "screenshots"
COMMAND_SECONDS = 5
PUSH_EVENTS = ["viewDidLoad", "viewWillDisappear", "viewWillAppear", "transitionStart", "viewDidDisappear",
               "viewDidAppear", "transitionEnd"]


class Controller:
    """A protocol client that starts a phone session and runs commands on it."""

    def __init__(self, port):
        self.cleanup = contextlib.ExitStack()
        self.socket = self.cleanup.enter_context(
            connect(f"ws://127.0.0.1:{port}/ws", subprotocols=["stackcast.v1"], open_timeout=10))
        self.socket.send(json.dumps({"type": "hello", "app": "phone", "role": "control", "viewport": VIEWPORT}))
        while True:
            message = json.loads(self.socket.recv(timeout=10))
            if message["type"] == "welcome":
                self.welcome = message
                break
        self.replies = {}
        self.replied = threading.Condition()
        self.closing = threading.Event()
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self):
        while not self.closing.is_set():
            try:
                raw = self.socket.recv(timeout=0.2)
            except TimeoutError:
                continue
            except Exception:  # closed
                return
            message = json.loads(raw)
            if message["type"] in ("result", "error") and "id" in message:
                with self.replied:
                    self.replies[message["id"]] = message
                    self.replied.notify_all()

    def command(self, ident, op, **fields):
        self.socket.send(json.dumps({"type": "command", "id": ident, "op": op, **fields}))
        with self.replied:
            assert self.replied.wait_for(lambda: ident in self.replies, COMMAND_SECONDS), f"no answer to {op}"
            reply = self.replies.pop(ident)
        assert reply["type"] == "result", reply
        return reply["value"]

    def close(self):
        self.closing.set()
        self.thread.join(timeout=5)
        self.cleanup.close()


def tree_entries(driver):
    """The node tree's lines: id, depth, state and text."""
    return driver.execute_script("""
        return [...document.querySelectorAll('#inspector-panel .nodes li')].map((li) => ({
          id: Number(li.dataset.id), state: li.dataset.state,
          depth: Number(li.style.getPropertyValue('--depth')), text: li.textContent }));
    """)


def logged_events(driver):
    return driver.execute_script(
        "return [...document.querySelectorAll('#inspector-panel .events li')].map((li) => li.textContent)")


def event_names(lines):
    """The event names of log lines (`   603.2 ms viewWillAppear Detail (vc2) …`)."""
    return [line.split()[2] for line in lines]


def rect_of(driver, selector):
    return driver.execute_script(
        "const r = document.querySelector(arguments[0]).getBoundingClientRect(); return [r.left, r.top, r.width, r.height]",
        selector)


def test_a_watchers_inspector_shows_the_node_tree_and_streams_a_push(start_server, driver):
    server = start_server()
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    controller = Controller(server.port)
    try:
        set_inner_size(driver, 1600, 900)
        driver.get(f"{server.url}?session={controller.welcome['watchToken']}&role=view")
        wait_for_viewer(driver)
        assert driver.execute_script("return window.stackcast.role") == "view"
        driver.find_element(By.ID, "inspector-toggle").click()

        # The node tree: every drawn node of the watcher's picture, with roles, names and texts.
        nodes = driver.execute_script("return window.stackcast.nodes()")
        wait_until(lambda: {entry["id"] for entry in tree_entries(driver) if entry["state"] in ("drawn", "covered")}
                   == {node["id"] for node in nodes}, 5,
                   lambda: f"the tree to list every drawn node: {tree_entries(driver)} {nodes}")
        entries = {entry["id"]: entry for entry in tree_entries(driver)}
        row = next(node for node in nodes if node.get("role") == "row")
        title = next(node for node in nodes if node.get("kind") == "text" and node.get("text") == row["name"])
        assert f"row “{row['name']}”" in entries[row["id"]]["text"], entries[row["id"]]
        assert f"\"{row['name']}\"" in entries[title["id"]]["text"]
        frame = "[" + ", ".join(str(round(v)) for v in title["frame"]) + "]"
        assert frame in entries[title["id"]]["text"]
        # The v2 tree nests: the row's title is deeper than its row.
        assert entries[title["id"]]["depth"] > entries[row["id"]]["depth"] > 0

        # The panel stands beside the stage: the device is whole and uncovered.
        panel = rect_of(driver, "#inspector-panel")
        left, top, width, height = canvas_rect(driver)
        assert left + width <= panel[0] and panel[2] >= 300 and height > 700, (panel, canvas_rect(driver))

        # Pointing at the row's title: its text, font and colour.
        point = driver.execute_script("return window.stackcast.viewToCanvas(arguments[0], arguments[1])",
                                      title["frame"][0] + 4, title["frame"][1] + title["frame"][3] / 2)
        ActionChains(driver).move_by_offset(round(point["x"]), round(point["y"])).perform()
        details = lambda: driver.execute_script(  # noqa: E731
            "return Object.fromEntries([...document.querySelectorAll('#inspector-panel dt')]"
            ".map((dt) => [dt.textContent, dt.nextElementSibling.textContent]))")
        wait_until(lambda: details().get("text") == json.dumps(title["text"]), 3,
                   lambda: f"the title's fields; shown {details()}")
        shown = details()
        assert shown["font"] == f"{title['font']['size']} pt, weight {title['font']['weight']}", shown
        assert shown["color"] == title["color"] and shown["state"] == "drawn", shown
        tip = driver.execute_script("return document.getElementById('inspector-tip').textContent")
        # A row's title label is named `title` (docs/protocol.md, `row`), which the tip shows.
        assert title["name"] == "title", title
        assert tip.startswith(f"text “title” \"{title['text']}\"") and "page " in tip, tip

        # The controller pushes: the log streams the push's events in protocol order.
        wait_until(lambda: "Events:" in driver.execute_script(
            "return document.querySelector('#inspector-panel .note').textContent"), 5, "the subscription")
        before = len(logged_events(driver))
        controller.command("p1", "push", screen={"name": "Inspected", "title": "Inspected"})
        wait_until(lambda: "transitionEnd" in event_names(logged_events(driver)[before:]), 5,
                   lambda: f"the push's events; log {logged_events(driver)}")
        pushed = logged_events(driver)[before:]
        assert event_names(pushed) == PUSH_EVENTS, pushed
        for index in (0, 2, 5):
            assert " Inspected (vc" in pushed[index], pushed
        assert "op=push" in pushed[3] and "interactive=false" in pushed[3], pushed

        # At rest the covered page waits on standby: in the tree, dimmed, not outlined.
        def covered_page():
            tree = tree_entries(driver)
            pages = [entry for entry in tree if entry["text"].startswith("page ")]
            return (len(pages) == 2 and pages[0]["state"] == "standby" and pages[1]["state"] == "drawn"
                    and "“Inspected”" in pages[1]["text"] and pages)
        wait_until(covered_page, 5, lambda: f"the covered page on standby; tree {tree_entries(driver)[:12]}")
        driver.execute_script("document.getElementById('inspector-tip').hidden = true")
        driver.save_screenshot(str(SCREENSHOTS / "inspector-watcher-1600x900.png"))
        assert not [e for e in driver.get_log("browser") if e["level"] == "SEVERE"]
    finally:
        controller.close()


def test_the_inspector_is_a_drawer_at_390_px_that_leaves_the_device_usable(start_server, driver):
    server = start_server()
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    set_inner_size(driver, 390, 844)
    driver.get(server.url)
    wait_for_viewer(driver)
    before = canvas_rect(driver)
    driver.find_element(By.TAG_NAME, "body").send_keys("i")
    wait_until(lambda: driver.execute_script(
        "return !document.getElementById('inspector-panel').hidden && window.stackcast.layout.scale < arguments[0]",
        before[2] / 390), 3, "the drawer to open and the device to shrink above it")
    wait_until(lambda: "Events:" in driver.execute_script(
        "return document.querySelector('#inspector-panel .note').textContent"), 5, "the subscription")

    # The drawer is under the device, the full width, and the device keeps its proportions.
    panel = rect_of(driver, "#inspector-panel")
    left, top, width, height = canvas_rect(driver)
    assert abs(panel[2] - 390) < 1 and panel[1] >= top + height - 0.5 and panel[3] > 250, (panel, canvas_rect(driver))
    assert abs(width / height - 390 / 844) < 0.01 and height > 400, canvas_rect(driver)

    # A tap on a row reaches the canvas and pushes a page; the log shows it.
    row = driver.execute_script("return window.stackcast.nodes().find((node) => node.role === 'row')")
    x, y, w, h = row["frame"]
    point = driver.execute_script("return window.stackcast.viewToCanvas(arguments[0], arguments[1])", x + w / 2, y + h / 2)
    assert driver.execute_script("return document.elementFromPoint(arguments[0], arguments[1]).id",
                                 point["x"], point["y"]) == "display"
    pages = {node["id"] for node in driver.execute_script("return window.stackcast.nodes()") if node.get("role") == "page"}
    click_at(driver, x + w / 2, y + h / 2)
    wait_until(lambda: any(node.get("role") == "page" and node["id"] not in pages and abs(node["frame"][0]) < 0.5
                           for node in driver.execute_script("return window.stackcast.nodes()")),
               5, "a page pushed by the tap, at rest")
    wait_until(lambda: event_names(logged_events(driver))[-len(PUSH_EVENTS):] == PUSH_EVENTS, 5,
               lambda: f"the push's events in the log; log {logged_events(driver)}")
    driver.execute_script("document.getElementById('inspector-tip').hidden = true")
    driver.save_screenshot(str(SCREENSHOTS / "inspector-drawer-390x844.png"))
    assert not [e for e in driver.get_log("browser") if e["level"] == "SEVERE"]
