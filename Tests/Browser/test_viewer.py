"""End-to-end test of the browser viewer against the real server.

Starts `stackcast serve --port 0 --web Web --app phone`, opens the viewer in headless Chromium,
and watches the same session from a second protocol client (role `view`) to check what the
server did with the viewer's input: a tap on a row pushes a page, a drag from the left edge pops
it; a click on the Search tab item selects that tab and a wheel over its list scrolls it (read
back with `query`). Also checks that the canvas is drawn (the tab bar's tints and badge
included) and that the browser console stays free of errors, and takes screenshots of the tab
bar at phone, tablet and desktop window sizes.

The tablet tests start `--app tablet` and open `?app=tablet`, which the viewer shows on its iPad
(1024 × 768; `?device=ipad-pro` is 1366 × 1024): the side tab bar, a tap that pushes a half page
into the stacked split, a mouse drag (held, then released on the move) and a horizontal wheel that
scroll the split on the server, read back with `query` while they happen and once it has snapped;
screenshots `tablet-*.png` at 1366 × 1000, 1024 × 900 and 390 × 844 windows.

The viewer speaks protocol v2 in binary by default. `test_v2_wires_draw_what_v1_draws` watches
the controller's session from two more viewers in iframes, `?wire=v1` and `?wire=json`, through
the same steps (phone: push, a held interactive pop, a tab and a wheel; tablet: pushes into the
clipping split and a held split drag), and checks that all three draw the same items.

Needs Debian's chromium and chromium-driver and the PyPI packages selenium, websockets, pytest.
The server binary comes from $STACKCAST_BIN, else .build/debug/stackcast; a missing binary is
a failure, not a skip.
Screenshots go to .build/test-artifacts/.

Run: python3 -m pytest Tests/Browser -v
"""

import contextlib
import json
import re
import signal
import subprocess
import threading
import time

import pytest
from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.actions.action_builder import ActionBuilder
from selenium.webdriver.common.actions.wheel_input import ScrollOrigin
from websockets.sync.client import connect

from stackcast_testing import ROOT, server_binary, wait_until

ARTIFACTS = ROOT / ".build" / "test-artifacts"
URL_PATTERN = re.compile(r"http://127\.0\.0\.1:(\d+)/")
STARTUP_SECONDS = 20
COMMAND_SECONDS = 5
# The viewport the viewer announces for the default device (`?device=iphone`).
VIEWPORT = {"width": 390, "height": 844, "scale": 1,
            "safeArea": {"top": 47, "left": 0, "bottom": 34, "right": 0}}


class Server:
    """The server process; its output is kept for failure messages."""

    def __init__(self, app="phone", *extra):
        self.output = []
        self.process = subprocess.Popen(
            # SIGTERM drains: without a grace period, stop() does not wait 30 s for the browser.
            [str(server_binary()), "serve", "--port", "0", "--web", "Web", "--app", app, "--grace", "0", *extra],
            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, bufsize=1)
        self.port_found = threading.Event()
        self.port = None
        threading.Thread(target=self._read, daemon=True).start()
        if not self.port_found.wait(STARTUP_SECONDS) or self.port is None:
            self.kill()
            pytest.fail(f"the server printed no http://127.0.0.1:PORT/ line within {STARTUP_SECONDS} s; "
                        f"output:\n{self.log()}")
        self.url = f"http://127.0.0.1:{self.port}/"

    def _read(self):
        for line in self.process.stdout:
            self.output.append(line)
            match = URL_PATTERN.search(line)
            if match and self.port is None:
                self.port = int(match.group(1))
                self.port_found.set()
        self.port_found.set()  # the process ended: stop waiting

    def log(self):
        return "".join(self.output[-50:])

    def stop(self):
        """SIGTERM, then the exit status (the server must shut down cleanly)."""
        self.process.send_signal(signal.SIGTERM)
        try:
            return self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.kill()
            pytest.fail(f"the server did not exit within 10 s of SIGTERM; output:\n{self.log()}")

    def kill(self):
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()


class DisplayList:
    """The watcher's copy of the display list, by the rules of docs/protocol.md, §3 "Frames"."""

    def __init__(self):
        self.seq = None
        self.nodes = {}
        self.order = []

    def apply(self, frame):
        if frame.get("full"):
            self.nodes = {node["id"]: dict(node) for node in frame["nodes"]}
            self.order = [node["id"] for node in frame["nodes"]]
        else:
            assert frame.get("base") == self.seq, f"delta {frame['seq']} on base {frame.get('base')}, held {self.seq}"
            for gone in frame.get("remove", []):
                self.nodes.pop(gone, None)
            new = []
            for patch in frame.get("set", []):
                node = self.nodes.setdefault(patch["id"], {})
                if not node:
                    new.append(patch["id"])
                node.update(patch)
                for key in [k for k, v in node.items() if v is None]:
                    del node[key]
            if frame.get("order") is not None:
                self.order = list(frame["order"])
            else:
                self.order = [i for i in self.order if i in self.nodes] + new
        self.seq = frame["seq"]

    def in_order(self):
        return [self.nodes[i] for i in self.order if i in self.nodes]

    def pages(self):
        return [node for node in self.in_order() if node.get("role") == "page"]


class Watcher:
    """A second protocol client watching the session (role `view`), receiving on its own thread."""

    def __init__(self, socket, session, app="phone", viewport=None):
        self.model = DisplayList()
        self.welcome = None
        self.problems = []
        self.lock = threading.Lock()
        self.closing = threading.Event()
        self.replies = {}
        self.replied = threading.Condition(self.lock)
        self.next_id = 0
        self.socket = socket
        self.socket.send(json.dumps({"type": "hello", "app": app, "viewport": viewport or VIEWPORT,
                                     "role": "view", "session": session}))
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self):
        while not self.closing.is_set():
            try:
                raw = self.socket.recv(timeout=0.2)
            except TimeoutError:
                continue
            except Exception as error:  # closed: recorded unless we closed it
                if not self.closing.is_set():
                    self.problems.append(f"watcher connection ended: {error!r}")
                return
            message = json.loads(raw)
            with self.lock:
                if message["type"] == "welcome":
                    self.welcome = message
                elif message["type"] == "frame":
                    try:
                        self.model.apply(message)
                    except AssertionError as error:
                        self.problems.append(str(error))
                elif message["type"] in ("result", "error") and message.get("id") in self.replies:
                    self.replies[message["id"]] = message
                    self.replied.notify_all()
                elif message["type"] == "error":
                    self.problems.append(f"error to the watcher: {message}")

    def command(self, op, **fields):
        """Sends a command (watchers may `query`) and returns its value; fails on an error."""
        with self.lock:
            self.next_id += 1
            ident = f"w{self.next_id}"
            self.replies[ident] = None
        self.socket.send(json.dumps({"type": "command", "id": ident, "op": op, **fields}))
        with self.lock:
            if not self.replied.wait_for(lambda: self.replies[ident] is not None, COMMAND_SECONDS):
                pytest.fail(f"no answer to the watcher's {op} within {COMMAND_SECONDS} s")
            reply = self.replies.pop(ident)
        assert reply["type"] == "result" and reply.get("ok"), f"{op} failed: {reply}"
        return reply.get("value")

    def state(self):
        return self.command("query", what="state")

    def find(self, role, name=None):
        """Nodes with `role` (and `name`) in the watcher's display list, in paint order."""
        with self.lock:
            return [dict(node) for node in self.model.in_order()
                    if node.get("role") == role and (name is None or node.get("name") == name)]

    def pages(self):
        with self.lock:
            return [dict(page) for page in self.model.pages()]

    def stop(self):
        self.closing.set()
        self.thread.join(timeout=5)


@pytest.fixture
def start_server():
    """Starts the server inside the test (so a missing binary fails the test itself)."""
    started = []

    def start(app="phone", *extra):
        started.append(Server(app, *extra))
        return started[-1]
    yield start
    for running in started:
        running.kill()


@pytest.fixture
def watch_session():
    """Starts watchers of a session; closes them at the end."""
    with contextlib.ExitStack() as cleanup:
        def watch(port, session, app="phone", viewport=None):
            socket = cleanup.enter_context(
                connect(f"ws://127.0.0.1:{port}/ws", subprotocols=["stackcast.v1"], open_timeout=10))
            watcher = Watcher(socket, session, app, viewport)
            cleanup.callback(watcher.stop)
            return watcher
        yield watch


@pytest.fixture
def driver():
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for argument in ("--headless=new", "--no-sandbox", "--window-size=1200,1000", "--disable-gpu"):
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    browser = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    yield browser
    browser.quit()


@pytest.fixture
def artifacts():
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    return ARTIFACTS


def canvas_colours(driver):
    """Distinct colours on a 40 × 40 grid of the canvas's pixels (read back from its backing store)."""
    return driver.execute_script("""
        const canvas = document.querySelector('canvas');
        const { width, height } = canvas;
        const data = canvas.getContext('2d').getImageData(0, 0, width, height).data;
        const colours = new Set();
        let opaque = 0;
        for (let i = 0; i < 40; i++) for (let j = 0; j < 40; j++) {
          const x = Math.floor((i + 0.5) * width / 40), y = Math.floor((j + 0.5) * height / 40);
          const k = 4 * (y * width + x);
          if (data[k + 3] > 0) opaque++;
          colours.add(data.slice(k, k + 4).join(','));
        }
        return { width, height, colours: colours.size, opaque };
    """)


def click_at(driver, x, y):
    """Clicks a viewport point of the app (converted to page coordinates by the viewer)."""
    point = driver.execute_script("return window.stackcast.viewToCanvas(arguments[0], arguments[1])", x, y)
    actions = ActionBuilder(driver)
    actions.pointer_action.move_to_location(round(point["x"]), round(point["y"])).click()
    actions.perform()


def drag(driver, start, end, steps=10):
    """Presses at `start`, moves to `end` in `steps` moves with pauses, releases (viewport points)."""
    to_page = "return window.stackcast.viewToCanvas(arguments[0], arguments[1])"
    first = driver.execute_script(to_page, *start)
    last = driver.execute_script(to_page, *end)
    actions = ActionBuilder(driver, duration=40)
    pointer = actions.pointer_action
    pointer.move_to_location(round(first["x"]), round(first["y"])).pointer_down()
    for step in range(1, steps + 1):
        fraction = step / steps
        pointer.move_to_location(round(first["x"] + (last["x"] - first["x"]) * fraction),
                                 round(first["y"] + (last["y"] - first["y"]) * fraction))
        pointer.pause(0.05)
    pointer.pointer_up()
    actions.perform()


def press_and_move(driver, start, end, steps=10, release=False):
    """Presses at `start` and moves to `end` (viewport points) in `steps` moves of 40 ms. Without
    `release`, pauses after each move and keeps the button down at the end (`release_pointer`
    lets go; a later `perform` may cancel the pointer). With it, moves without pauses and lets go
    right after the last move, while the pointer has a speed (the server's velocity estimate
    looks back 0.1 s)."""
    to_page = "return window.stackcast.viewToCanvas(arguments[0], arguments[1])"
    first = driver.execute_script(to_page, *start)
    last = driver.execute_script(to_page, *end)
    actions = ActionBuilder(driver, duration=40)
    pointer = actions.pointer_action
    pointer.move_to_location(round(first["x"]), round(first["y"])).pointer_down()
    for step in range(1, steps + 1):
        fraction = step / steps
        x = round(first["x"] + (last["x"] - first["x"]) * fraction)
        y = round(first["y"] + (last["y"] - first["y"]) * fraction)
        if release and step == steps:
            # A move takes its duration after it is dispatched: the last one takes none, so that
            # the release comes on its heels, as a real one would.
            pointer.source.create_pointer_move(duration=0, x=x, y=y, origin="viewport")
        else:
            pointer.move_to_location(x, y)
        if not release:
            pointer.pause(0.05)
    if release:
        pointer.pointer_up()
    actions.perform()


def release_pointer(driver):
    """Lets go of the button `press_and_move` left down."""
    actions = ActionBuilder(driver)
    actions.pointer_action.pointer_up()
    actions.perform()


def test_viewer_draws_and_drives_the_session(start_server, watch_session, driver, artifacts):
    server = start_server()
    driver.get(server.url)
    wait_until(lambda: driver.execute_script(
        "return window.stackcast && window.stackcast.connected && window.stackcast.nodes().length > 0"),
        15, "the viewer to connect and receive a frame")
    time.sleep(0.3)  # one animation frame is enough to draw; leave a margin
    driver.save_screenshot(str(artifacts / "viewer-1-initial.png"))

    pixels = canvas_colours(driver)
    assert pixels["width"] > 0 and pixels["height"] > 0, pixels
    assert pixels["opaque"] > 1000, f"the canvas is blank: {pixels}"
    assert pixels["colours"] >= 4, f"the canvas has too few colours to be an app screen: {pixels}"

    session = driver.execute_script("return window.stackcast.session")
    assert session, "window.stackcast.session is empty after welcome"
    assert driver.execute_script("return window.stackcast.role") == "control"

    watcher = watch_session(server.port, session)
    wait_until(lambda: watcher.welcome and watcher.model.seq is not None, 10,
               lambda: f"the watcher's welcome and first frame (problems: {watcher.problems})")
    assert watcher.welcome["role"] == "view"
    assert watcher.welcome["session"] == session
    first_pages = {page["id"] for page in watcher.pages()}
    assert first_pages, "the watcher sees no node with role page"

    # Tap the first row: the server pushes a page, which slides in and settles at x = 0.
    row = driver.execute_script(
        "return window.stackcast.nodes().find(node => node.role === 'row') || null")
    assert row, "the viewer's display list has no node with role row"
    x, y, w, h = row["frame"]
    click_at(driver, x + w / 2, y + h / 2)

    def pushed_page_at_rest():
        new = [page for page in watcher.pages() if page["id"] not in first_pages]
        return new and abs(new[-1]["frame"][0]) < 0.5 and new[-1]
    pushed = wait_until(pushed_page_at_rest, 5,
                        lambda: f"a new page at x = 0 after tapping row {row.get('name')!r}; "
                                f"pages: {[(p['id'], p.get('name'), p['frame']) for p in watcher.pages()]}")
    time.sleep(0.5)
    assert pushed_page_at_rest(), "the pushed page did not stay at x = 0"
    driver.save_screenshot(str(artifacts / "viewer-2-pushed.png"))

    # The viewer holds what the watcher got: the same nodes with the same fields, in the same order
    # (its delta handling agrees with an independent one).
    def same_display_list():
        with watcher.lock:
            expected = watcher.model.in_order()
        return driver.execute_script("return window.stackcast.nodes()") == expected
    wait_until(same_display_list, 3, "the viewer's display list to equal the watcher's")

    # Drag from the left third to the right by 300 points and let go: interactive pop.
    height = VIEWPORT["height"]
    drag(driver, (20, height / 2), (320, height / 2))
    wait_until(lambda: all(page["id"] != pushed["id"] for page in watcher.pages()), 5,
               lambda: f"the pushed page {pushed['id']} to be removed after the drag; "
                       f"pages: {[(p['id'], p.get('name'), p['frame']) for p in watcher.pages()]}")
    driver.save_screenshot(str(artifacts / "viewer-3-popped.png"))
    assert not watcher.problems, watcher.problems

    errors = [entry for entry in driver.get_log("browser") if entry["level"] == "SEVERE"]
    assert not errors, f"browser console errors: {errors}"

    assert server.stop() == 0, f"the server did not exit cleanly on SIGTERM; output:\n{server.log()}"


# Window sizes (the page's inner size, CSS pixels) for the tab bar screenshots.
WINDOW_SIZES = {"phone": (390, 844), "tablet": (1200, 1000), "desktop": (1600, 900)}
BLUE, GREY, RED, WHITE = (0, 122, 255), (153, 153, 153), (255, 59, 48), (255, 255, 255)


def open_phone_in_slow_motion(start_server, watch_session, driver, width=390, height=844):
    """Starts the phone app, opens it in a `width` × `height` page, turns Slow motion on from the
    toolbar (the button shows it once the server has it) and watches the session; returns the
    server and the watcher, which holds the first frame."""
    server = start_server()
    set_inner_size(driver, width, height)
    driver.get(server.url)
    wait_for_viewer(driver)
    watcher = watch_session(server.port, driver.execute_script("return window.stackcast.session"))
    wait_until(lambda: watcher.welcome and watcher.model.seq is not None, 10, "the watcher's first frame")
    driver.execute_script("document.getElementById('slow-motion').click()")
    wait_until(lambda: driver.execute_script(
        "return document.getElementById('slow-motion').getAttribute('aria-pressed')") == "true",
        5, "Slow motion to be on")
    return server, watcher


def wait_for_viewer(driver):
    wait_until(lambda: driver.execute_script(
        "return window.stackcast && window.stackcast.connected && window.stackcast.nodes().length > 0"),
        15, "the viewer to connect and receive a frame")


def viewer_nodes(driver):
    return driver.execute_script("return window.stackcast.nodes()")


def inside(outer, inner):
    ox, oy, ow, oh = outer
    x, y, w, h = inner
    return x >= ox - 0.01 and y >= oy - 0.01 and x + w <= ox + ow + 0.01 and y + h <= oy + oh + 0.01


def tab_items(nodes):
    """Each tab item by title: its node, its icon node and its title text node (painted after the
    item, inside it; rows scrolled under the bar are painted before it)."""
    items = {}
    for index, tab in enumerate(nodes):
        if tab.get("role") != "tab":
            continue
        parts = [node for node in nodes[index + 1:] if inside(tab["frame"], node["frame"])]
        icons = [node for node in parts if node.get("kind") == "icon"]
        titles = [node for node in parts if node.get("kind") == "text" and node.get("text") == tab["name"]]
        assert len(icons) == 1 and len(titles) == 1, f"tab {tab['name']!r}: icons {icons}, titles {titles}"
        items[tab["name"]] = {"tab": tab, "icon": icons[0], "title": titles[0]}
    return items


def pixels_like(driver, frame, rgb, tolerance=40, viewport_width=VIEWPORT["width"]):
    """How many canvas pixels inside `frame` (viewport points of a viewport `viewport_width` wide,
    the iPhone's unless told) are close to `rgb`, read back from the canvas's backing store."""
    return driver.execute_script("""
        const [[x, y, w, h], [r, g, b], tolerance, viewportWidth] = arguments;
        const canvas = document.querySelector('canvas');
        const k = canvas.width / viewportWidth;
        const left = Math.floor(x * k), top = Math.floor(y * k);
        const width = Math.max(1, Math.ceil(w * k)), height = Math.max(1, Math.ceil(h * k));
        const data = canvas.getContext('2d').getImageData(left, top, width, height).data;
        let count = 0;
        for (let i = 0; i < data.length; i += 4) {
          if (Math.abs(data[i] - r) + Math.abs(data[i + 1] - g) + Math.abs(data[i + 2] - b) <= tolerance) count++;
        }
        return count;
    """, frame, rgb, tolerance, viewport_width)


def set_inner_size(driver, width, height):
    """Resizes the window so that the page itself (innerWidth × innerHeight) has this size."""
    driver.set_window_size(width, height)
    inner = driver.execute_script("return [window.innerWidth, window.innerHeight]")
    if inner != [width, height]:
        driver.set_window_size(2 * width - inner[0], 2 * height - inner[1])
    wait_until(lambda: driver.execute_script("return [window.innerWidth, window.innerHeight]") == [width, height],
               3, lambda: f"a {width} × {height} page; it is "
                          f"{driver.execute_script('return [window.innerWidth, window.innerHeight]')}")


def canvas_rect(driver):
    return driver.execute_script(
        "const r = document.querySelector('canvas').getBoundingClientRect();"
        "return [r.left, r.top, r.width, r.height]")


def test_tab_bar_select_scroll_and_window_sizes(start_server, watch_session, driver, artifacts):
    server = start_server()
    driver.get(server.url)
    wait_for_viewer(driver)
    watcher = watch_session(server.port, driver.execute_script("return window.stackcast.session"))
    wait_until(lambda: watcher.welcome and watcher.model.seq is not None, 10,
               lambda: f"the watcher's welcome and first frame (problems: {watcher.problems})")

    state = watcher.state()
    assert (state["kind"], state["selected"]) == ("tabs", 0), state
    assert [tab["title"] for tab in state["tabs"]] == ["Library", "Search", "Settings"], state
    assert [tab["badge"] for tab in state["tabs"]] == [None, "3", None], state

    # The bar as the viewer holds it: along the bottom, three items of equal width side by side,
    # an icon above each title, Library tinted blue, a badge at the Search icon's top right.
    nodes = viewer_nodes(driver)
    bars = [node for node in nodes if node.get("role") == "tabbar"]
    assert len(bars) == 1, bars
    bx, by, bw, bh = bars[0]["frame"]
    assert (bx, bw, by + bh) == (0, VIEWPORT["width"], VIEWPORT["height"]), bars[0]
    items = tab_items(nodes)
    assert list(items) == ["Library", "Search", "Settings"], items
    frames = [item["tab"]["frame"] for item in items.values()]
    assert all(abs(frame[2] - bw / 3) < 0.01 and frame[1] == by for frame in frames), frames
    assert [frame[0] for frame in frames] == sorted(frame[0] for frame in frames), frames
    for name, item in items.items():
        icon, title = item["icon"]["frame"], item["title"]["frame"]
        assert icon[1] + icon[3] <= title[1] + 0.01, f"{name}: icon {icon} not above title {title}"
        assert item["title"]["font"]["size"] == 10 and item["title"]["align"] == "center", item["title"]
    assert [(item["icon"]["color"], item["title"]["color"]) for item in items.values()] == \
        [("#007AFF", "#007AFF"), ("#999999", "#999999"), ("#999999", "#999999")]
    badges = [node for node in nodes if node.get("role") == "badge"]
    assert [badge["name"] for badge in badges] == ["Search"], badges
    badge, search_icon = badges[0]["frame"], items["Search"]["icon"]["frame"]
    assert badge[3] == 18 and badges[0]["radius"] == 9 and badges[0]["fill"] == "#FF3B30", badges[0]
    assert search_icon[0] + search_icon[2] / 2 <= badge[0] + badge[2] / 2 and badge[1] <= search_icon[1], \
        f"badge {badge} is not at the top right of the Search icon {search_icon}"

    # ...and as the canvas shows it: the tints and the pill are really painted.
    assert pixels_like(driver, items["Library"]["icon"]["frame"], BLUE) > 20, "no blue in the Library icon"
    assert pixels_like(driver, items["Settings"]["icon"]["frame"], GREY) > 20, "no grey in the Settings icon"
    assert pixels_like(driver, badge, RED) > 50, "no red badge pill"
    assert pixels_like(driver, badge, WHITE, tolerance=60) > 3, "no white text in the badge"
    driver.save_screenshot(str(artifacts / "viewer-tabs-1-library.png"))

    # A real click on the canvas at the Search item's centre selects the Search tab.
    x, y, w, h = items["Search"]["tab"]["frame"]
    click_at(driver, x + w / 2, y + h / 2)

    def search_shown():
        state = watcher.state()
        top = state["tabs"][1]["stack"][-1]
        return state["selected"] == 1 and top["screen"] == "Search" and top["appearance"] == "appeared" and state
    state = wait_until(search_shown, 5, lambda: f"the Search tab selected and shown; state: {watcher.state()}",
                       interval=0.1)
    assert state["tabs"][1]["stack"][-1].get("scrollOffset", 0) == 0, state
    wait_until(lambda: watcher.find("page", "Search") and not watcher.find("page", "Library"), 3,
               lambda: f"the Search page alone on screen; pages: {[p.get('name') for p in watcher.pages()]}")

    def search_tinted():
        items = tab_items(viewer_nodes(driver))
        return items["Search"]["title"]["color"] == "#007AFF" and items["Library"]["title"]["color"] == "#999999"
    wait_until(search_tinted, 3, "the viewer's Search item tinted blue and Library grey")
    time.sleep(0.3)  # let the viewer draw it
    assert pixels_like(driver, items["Search"]["icon"]["frame"], BLUE) > 20, "the Search icon is not drawn blue"

    # A wheel over the list scrolls it on the server: the offset grows and the rows move up by it.
    before = {row["name"]: row["frame"][1] for row in watcher.find("row")}
    assert "Pop" in before, before
    point = driver.execute_script("return window.stackcast.viewToCanvas(arguments[0], arguments[1])",
                                  VIEWPORT["width"] / 2, 400)
    ActionChains(driver).scroll_from_origin(
        ScrollOrigin.from_viewport(round(point["x"]), round(point["y"])), 0, 240).perform()

    def scrolled():
        offset = watcher.state()["tabs"][1]["stack"][-1].get("scrollOffset", 0)
        return offset > 0 and offset
    offset = wait_until(scrolled, 5, lambda: f"a scroll offset on the Search page; state: {watcher.state()}",
                        interval=0.1)

    def rows_moved():
        after = {row["name"]: row["frame"][1] for row in watcher.find("row")}
        common = set(before) & set(after)
        return common and all(abs(after[name] - (before[name] - offset)) < 0.5 for name in common) and after
    after = wait_until(rows_moved, 3, lambda: f"the rows to move up by {offset}; before {before}, "
                                              f"after {({r['name']: r['frame'][1] for r in watcher.find('row')})}")
    assert after.get("Pop", -1e9) < before["Pop"], (before, after)
    time.sleep(0.3)

    # Screenshots at phone, tablet and desktop window sizes, first with the iPhone device...
    for name, (width, height) in WINDOW_SIZES.items():
        set_inner_size(driver, width, height)
        time.sleep(0.3)  # the viewer lays out and draws again at the next animation frame
        left, top, cw, ch = canvas_rect(driver)
        assert cw > 0 and ch > 0 and left >= 0 and left + cw <= width + 0.5 and top + ch <= height + 0.5, \
            f"the iPhone screen does not fit a {width} × {height} window: canvas at {[left, top, cw, ch]}"
        assert abs(cw / ch - VIEWPORT["width"] / VIEWPORT["height"]) < 0.01, "the screen is distorted"
        driver.save_screenshot(str(artifacts / f"viewer-tabs-{name}.png"))

    # ...then with `device=fit` (a new session laid out at the window's size).
    driver.execute_script("sessionStorage.clear()")
    driver.get(server.url + "?device=fit")
    wait_for_viewer(driver)
    for name, (width, height) in WINDOW_SIZES.items():
        set_inner_size(driver, width, height)

        def laid_out_for_window():
            left, top, cw, ch = canvas_rect(driver)
            bar = [node for node in viewer_nodes(driver) if node.get("role") == "tabbar"]
            return bar and abs(bar[0]["frame"][2] - cw) < 1 and abs(sum(bar[0]["frame"][1::2]) - ch) < 1
        wait_until(laid_out_for_window, 5, lambda: f"the fit viewport laid out for {width} × {height}: "
                                                   f"canvas {canvas_rect(driver)}")
        time.sleep(0.3)
        driver.save_screenshot(str(artifacts / f"viewer-tabs-fit-{name}.png"))

    assert not watcher.problems, watcher.problems
    errors = [entry for entry in driver.get_log("browser") if entry["level"] == "SEVERE"]
    assert not errors, f"browser console errors: {errors}"
    assert server.stop() == 0, f"the server did not exit cleanly on SIGTERM; output:\n{server.log()}"


# The tablet app on the viewer's iPad (`?app=tablet` picks it): 1024 × 768, a 24 pt status bar.
IPAD = {"width": 1024, "height": 768, "scale": 1, "safeArea": {"top": 24, "left": 0, "bottom": 0, "right": 0}}
SIDEBAR_WIDTH = 80
HALF_PAGE = 472
# Window sizes for the tablet screenshots: each step at both desktop sizes, the end at phone width.
TABLET_WINDOWS = {"": (1366, 1000), "-1024x900": (1024, 900)}
PHONE_WINDOW = (390, 844)
SIDEBAR_FILL = (0x1C, 0x1C, 0x1E)


def library_split(state):
    """The Library tab's split state: its pages and its `offset`, `targetOffset`, `scrolling`..."""
    assert state["kind"] == "sideTabs", state
    return state["tabs"][0]


def snap_offsets(split, width):
    """The offsets the split may rest at: each page aligned with the left or the right edge of a
    split `width` wide (SPStackedNav's scrollOffsetForAligningPage:position:)."""
    offsets, location = set(), 0.0
    for page in split["stack"]:
        length = page["frame"][2]
        offsets.update({location, location - width + length})
        location += length
    return offsets


def settled(watcher, snaps=None):
    """The Library split once it has stopped: not scrolling, the offset at its target and, given
    `snaps`, at one of them (a wheel moves the offset without animating it and snaps only once it
    pauses; a released drag rests where it is until the server has the release)."""
    split = library_split(watcher.state())
    return not split["scrolling"] and split["offset"] == split["targetOffset"] and \
        (snaps is None or split["offset"] in snaps) and split


class OffsetRecorder:
    """Polls the watcher's `query` state on a thread while the browser performs an action, so the
    split's offsets during a drag or a wheel are seen, not only where it came to rest."""

    def __init__(self, watcher):
        self.watcher = watcher
        self.samples = []
        self.stopping = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)

    def _run(self):
        while not self.stopping.is_set():
            split = library_split(self.watcher.state())
            self.samples.append((split["offset"], split["scrolling"]))
            time.sleep(0.02)

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.stopping.set()
        self.thread.join(timeout=COMMAND_SECONDS + 1)


def wheel_split(driver, watcher, point, delta, snaps):
    """Sends a horizontal wheel of `delta` pixels at a viewport `point`; checks that the Library
    split's offset moved and returns its state once it has settled again at one of `snaps`."""
    before = library_split(watcher.state())["offset"]
    page = driver.execute_script("return window.stackcast.viewToCanvas(arguments[0], arguments[1])", *point)
    with OffsetRecorder(watcher) as recorder:
        ActionChains(driver).scroll_from_origin(
            ScrollOrigin.from_viewport(round(page["x"]), round(page["y"])), delta, 0).perform()
        time.sleep(0.1)
    split = wait_until(lambda: settled(watcher, snaps), 5,
                       lambda: f"the split to settle at a snap offset {sorted(snaps)} after the wheel; "
                               f"{library_split(watcher.state())}", interval=0.05)
    assert any(abs(offset - before) > abs(delta) / 4 for offset, _ in recorder.samples) or split["offset"] != before, \
        f"a wheel of {delta} at {point} did not move the split from {before}: {recorder.samples}"
    return split


def open_tablet(start_server, watch_session, driver, query="?app=tablet", viewport=IPAD):
    """Starts the server with the tablet app, opens the viewer at `query` in a 1366 × 1000 window
    and watches its session. Returns the server and the watcher."""
    server = start_server("tablet")
    set_inner_size(driver, *TABLET_WINDOWS[""])
    driver.get(server.url + query)
    wait_for_viewer(driver)
    watcher = watch_session(server.port, driver.execute_script("return window.stackcast.session"), "tablet", viewport)
    wait_until(lambda: watcher.welcome and watcher.model.seq is not None, 10,
               lambda: f"the watcher's welcome and first frame (problems: {watcher.problems})")
    return server, watcher


def tap_row(driver, watcher, page_name, index=0):
    """Clicks the `index`th row on the page named `page_name`; returns the row's name."""
    page = wait_until(lambda: watcher.find("page", page_name), 3, f"a page {page_name!r} on screen")[0]
    rows = [row for row in watcher.find("row") if inside(page["frame"], row["frame"])]
    assert len(rows) > index, f"no row {index} on the page {page}: {rows}"
    x, y, w, h = rows[index]["frame"]
    click_at(driver, x + w / 2, y + h / 2)
    return rows[index]["name"]


def pushed(watcher, count):
    """The Library split once it holds `count` pages, the last one appeared, and has stopped."""
    split = settled(watcher)
    return split and len(split["stack"]) == count and split["stack"][-1]["appearance"] == "appeared" and split


def push_artist_and_album(driver, watcher):
    """Library → the first artist → its first album; returns the split at rest."""
    artist = tap_row(driver, watcher, "Library")
    wait_until(lambda: pushed(watcher, 2), 5, lambda: f"the artist page pushed and at rest; {watcher.state()}",
               interval=0.1)
    tap_row(driver, watcher, artist)
    return wait_until(lambda: pushed(watcher, 3), 5, lambda: f"the album page pushed and at rest; {watcher.state()}",
                      interval=0.1)


def test_tablet_split_drag_and_wheel(start_server, watch_session, driver, artifacts):
    """The tablet app on the viewer's iPad: side tab bar, pushes into the stacked split, and real
    pointer drags and wheel deltas that scroll the split on the server, which snaps on release."""
    server, watcher = open_tablet(start_server, watch_session, driver)

    def shots(name):
        """Screenshots of what is on screen now at each desktop window size, back at the first."""
        for suffix, size in TABLET_WINDOWS.items():
            set_inner_size(driver, *size)
            time.sleep(0.3)  # the viewer lays out and draws again at the next animation frame
            driver.save_screenshot(str(artifacts / f"tablet-{name}{suffix}.png"))
        set_inner_size(driver, *TABLET_WINDOWS[""])
        time.sleep(0.2)

    # `?app=tablet` without a device is the iPad: the server lays out 1024 × 768, and the iPad
    # grows whole to the height of a 1366 × 1000 window.
    assert driver.execute_script("return document.getElementById('device-picker').value") == "ipad"
    assert "device-ipad" in driver.execute_script("return document.getElementById('device').className")
    left, top, cw, ch = canvas_rect(driver)
    stage = driver.execute_script("return document.getElementById('stage').clientHeight")
    assert abs(cw / ch - IPAD["width"] / IPAD["height"]) < 0.01 and ch > IPAD["height"], canvas_rect(driver)
    assert top + ch <= TABLET_WINDOWS[""][1] and ch > 0.8 * stage, (canvas_rect(driver), stage)
    nodes = viewer_nodes(driver)
    sidebars = [node for node in nodes if node.get("role") == "sidebar"]
    assert len(sidebars) == 1 and sidebars[0]["frame"] == [0, 0, SIDEBAR_WIDTH, IPAD["height"]], sidebars
    tabs = [node for node in nodes if node.get("role") == "tab"]
    assert [tab["name"] for tab in tabs] == ["Library", "Search", "Playlists", "Settings"], tabs
    assert [tab["frame"] for tab in tabs] == \
        [[0, IPAD["safeArea"]["top"] + 10 + 80 * k, SIDEBAR_WIDTH, 70] for k in range(4)], tabs
    badges = [node for node in nodes if node.get("role") == "badge"]
    assert [badge["name"] for badge in badges] == ["Search"], badges
    assert inside(tabs[1]["frame"], badges[0]["frame"]), (tabs[1], badges[0])
    split = library_split(watcher.state())
    assert [page["screen"] for page in split["stack"]] == ["Library"], split
    split_width = IPAD["width"] - SIDEBAR_WIDTH
    time.sleep(0.3)
    assert pixels_like(driver, [4, 400, 72, 300], SIDEBAR_FILL, tolerance=12,
                       viewport_width=IPAD["width"]) > 1000, "the side bar is not drawn"
    shots("library")

    # Tap an artist on the Library page: a half page is pushed into the split, beside it.
    assert tap_row(driver, watcher, "Library") == "Röyksopp"
    split = wait_until(lambda: pushed(watcher, 2), 5,
                       lambda: f"the artist page pushed and at rest; {watcher.state()}", interval=0.1)
    assert [page["screen"] for page in split["stack"]] == ["Library", "Röyksopp"], split
    frames = [page["frame"] for page in split["stack"]]
    assert [frame[2] for frame in frames] == [HALF_PAGE, HALF_PAGE], frames
    assert frames[0][0] + HALF_PAGE == frames[1][0], f"the half pages are not side by side: {frames}"
    wait_until(lambda: watcher.find("page", "Röyksopp"), 3, "the artist page in the display list")
    shots("pushed")

    # Tap an album on the artist page: three half pages are wider than the split, which now
    # scrolls to its end; the artist page is stacked over the Library page at the left edge.
    tap_row(driver, watcher, "Röyksopp")
    split = wait_until(lambda: pushed(watcher, 3), 5,
                       lambda: f"the album page pushed and at rest; {watcher.state()}", interval=0.1)
    snaps = snap_offsets(split, split_width)
    max_scroll = 3 * HALF_PAGE - split_width
    assert split["offset"] == max_scroll, split
    assert [page["frame"][0] for page in split["stack"]] == \
        [SIDEBAR_WIDTH, SIDEBAR_WIDTH + 3, SIDEBAR_WIDTH + HALF_PAGE], f"not stacked at the left edge: {split}"
    assert split["stack"][0]["dim"] > 0, f"the stacked Library page is not dimmed: {split['stack'][0]}"
    # The state answers at once; the watcher's frame of the split at rest may still be on its way.
    def album_at_rest():
        album = watcher.find("page")[-1]
        return album if album["frame"][0] == SIDEBAR_WIDTH + HALF_PAGE else None
    album = wait_until(album_at_rest, 3, lambda: f"the album page at rest in the watcher's frame: {watcher.find('page')[-1]}")
    assert album["name"] == split["stack"][-1]["screen"], album
    shots("stacked")

    # Press on the album page below its rows, move 300 px to the right and hold: the offset
    # follows the pointer (less the 10 pt pan slop), and the Library page comes out of the stack,
    # dimmed. Then let go (or the next action cancels the held pointer): back to the end.
    aw = album["frame"][2]
    start = (album["frame"][0] + aw / 2, IPAD["height"] - 30)
    end = (start[0] + 300, start[1])
    press_and_move(driver, start, end, steps=12)
    held = library_split(watcher.state())
    assert max_scroll - 301 < held["offset"] < max_scroll - 288 and not held["scrolling"], held
    dims = wait_until(lambda: [node for node in watcher.find("dim") if node.get("alpha", 1) > 0.05], 3,
                      lambda: f"a dim node while dragging; {[n for n in watcher.model.in_order() if n.get('role')]}")
    library = watcher.find("page", "Library")
    assert library and inside(library[0]["frame"], dims[0]["frame"]), (library, dims)
    # SPStackedNav dims a page 0.3 per page width it lies left of the edge.
    assert abs(dims[0]["alpha"] - 0.3 * held["offset"] / HALF_PAGE) < 0.01, (dims, held)
    time.sleep(0.3)
    driver.save_screenshot(str(artifacts / "tablet-dragging.png"))
    release_pointer(driver)
    split = wait_until(lambda: settled(watcher, snaps), 5,
                       lambda: f"the split back at rest; {library_split(watcher.state())}", interval=0.05)
    assert split["offset"] == max_scroll, split

    # Drag again, 300 px to the right in steps, and let go on the move: the offset follows the
    # pointer, then the split snaps back a page (SPStackedNav's snap for a release moving right:
    # the leftmost page on screen aligned with the left edge) and stops.
    with OffsetRecorder(watcher) as recorder:
        press_and_move(driver, start, end, steps=12, release=True)
        time.sleep(0.4)  # the snap animation
    split = wait_until(lambda: settled(watcher, snaps), 5,
                       lambda: f"the split to settle at a snap offset {sorted(snaps)}; {library_split(watcher.state())}",
                       interval=0.05)
    dragging = [offset for offset, scrolling in recorder.samples if not scrolling]
    assert any(max_scroll - 280 < offset < max_scroll - 20 for offset in dragging), \
        f"no offset on the way from {max_scroll} to {max_scroll - 300} during the drag: {recorder.samples}"
    assert any(scrolling for _, scrolling in recorder.samples), f"no snap animation: {recorder.samples}"
    assert split["offset"] == 0, f"released moving right, the split rests at {split}; on the way: {recorder.samples}"
    assert [page["frame"][0] for page in split["stack"][:2]] == [SIDEBAR_WIDTH, SIDEBAR_WIDTH + HALF_PAGE], split
    time.sleep(0.2)
    shots("dragged")

    # A horizontal wheel over the split (on a page's navigation bar) scrolls it too, and it snaps
    # once the wheel pauses, as a drag released without speed does: the rightmost page on screen
    # aligned with the right edge, here the album page at the end.
    wheel_point = (SIDEBAR_WIDTH + split_width * 0.7, IPAD["safeArea"]["top"] + 22)
    split = wheel_split(driver, watcher, wheel_point, 200, snaps)
    assert split["offset"] == max_scroll, split
    time.sleep(0.2)
    driver.save_screenshot(str(artifacts / "tablet-wheeled.png"))

    # At phone width the iPad is scaled down whole, not cropped.
    set_inner_size(driver, *PHONE_WINDOW)
    time.sleep(0.3)
    left, top, cw, ch = canvas_rect(driver)
    assert left >= 0 and left + cw <= PHONE_WINDOW[0] + 0.5 and top + ch <= PHONE_WINDOW[1] + 0.5, \
        f"the iPad does not fit a {PHONE_WINDOW} window: canvas at {[left, top, cw, ch]}"
    assert abs(cw / ch - IPAD["width"] / IPAD["height"]) < 0.01, "the screen is distorted"
    driver.save_screenshot(str(artifacts / "tablet-phone-390x844.png"))

    assert not watcher.problems, watcher.problems
    errors = [entry for entry in driver.get_log("browser") if entry["level"] == "SEVERE"]
    assert not errors, f"browser console errors: {errors}"
    assert server.stop() == 0, f"the server did not exit cleanly on SIGTERM; output:\n{server.log()}"


def test_tablet_on_the_ipad_pro(start_server, watch_session, driver, artifacts):
    """`?device=ipad-pro`: the tablet app laid out at 1366 × 1024, shrunk whole into the window."""
    pro = {**IPAD, "width": 1366, "height": 1024}
    server, watcher = open_tablet(start_server, watch_session, driver, "?app=tablet&device=ipad-pro", pro)
    sidebars = [node for node in viewer_nodes(driver) if node.get("role") == "sidebar"]
    assert sidebars and sidebars[0]["frame"] == [0, 0, SIDEBAR_WIDTH, pro["height"]], sidebars
    left, top, cw, ch = canvas_rect(driver)
    width, height = TABLET_WINDOWS[""]
    assert abs(cw / ch - pro["width"] / pro["height"]) < 0.01 and left >= 0 and left + cw <= width \
        and top + ch <= height, canvas_rect(driver)
    split = push_artist_and_album(driver, watcher)
    assert [page["screen"] for page in split["stack"]] == ["Library", "Röyksopp", "Melody 1"], split
    time.sleep(0.3)
    driver.save_screenshot(str(artifacts / "tablet-ipad-pro.png"))
    assert not watcher.problems, watcher.problems
    assert server.stop() == 0, f"the server did not exit cleanly on SIGTERM; output:\n{server.log()}"


def test_tablet_wheel_over_lists_and_back_to_the_start(start_server, watch_session, driver):
    """A trackpad's horizontal swipe scrolls the split wherever it is over the split, a list too,
    and one back to the start stays there."""
    server, watcher = open_tablet(start_server, watch_session, driver)
    split = push_artist_and_album(driver, watcher)
    split_width = IPAD["width"] - SIDEBAR_WIDTH
    snaps = snap_offsets(split, split_width)
    max_scroll = 3 * HALF_PAGE - split_width
    assert split["offset"] == max_scroll, split
    # Back past the start, from the navigation bar: the album page leaves the screen, and the split
    # should rest at 0 with the Library and artist pages side by side.
    wheel_point = (SIDEBAR_WIDTH + split_width * 0.7, IPAD["safeArea"]["top"] + 22)
    split = wheel_split(driver, watcher, wheel_point, -(max_scroll + 10), snaps)
    assert split["offset"] == 0, f"a wheel back to the start sprang back to {split['offset']}"
    # Over the rows of the artist page's list: the list cannot scroll sideways, the split can.
    row = next(row for row in watcher.find("row") if row["frame"][0] >= SIDEBAR_WIDTH + HALF_PAGE)
    x, y, w, h = row["frame"]
    split = wheel_split(driver, watcher, (x + w / 2, y + h / 2), 200, snaps)
    assert split["offset"] == max_scroll, split
    assert server.stop() == 0, f"the server did not exit cleanly on SIGTERM; output:\n{server.log()}"


# Protocol v2 (the default, binary) against v1: the same session seen by three viewers in one page,
# the controller on the default wire and two watchers in iframes, one on `?wire=v1` (the flat list
# the server flattens itself) and one on `?wire=json` (the same layer tree as JSON text).
WIRE_TOLERANCE_PT = 0.02
WIRE_TOLERANCE_ALPHA = 0.002
# Fields of a display item whose numbers are geometry (frame, clip) or styles (shadow, border, font).
GEOMETRY = ("frame", "clip")


def open_watchers(driver, server, app):
    """Adds the v1 and JSON watchers of the controller's session as iframes, off screen so that
    they take no clicks, and waits until both have a picture."""
    session = driver.execute_script("return window.stackcast.session")
    assert driver.execute_script("return window.stackcast.wire") == "binary", "binary is not the default wire"
    for wire in ("v1", "json"):
        driver.execute_script("""
            const frame = document.createElement('iframe');
            frame.id = `viewer-${arguments[1]}`;
            frame.src = arguments[0];
            frame.style.cssText = 'position:fixed;left:-3000px;top:0;width:1400px;height:1000px;border:0';
            document.body.append(frame);
        """, f"{server.url}?app={app}&session={session}&role=view&wire={wire}", wire)
    wait_until(lambda: driver.execute_script("""
        return ['v1', 'json'].every((wire) => {
          const viewer = document.getElementById(`viewer-${wire}`).contentWindow.stackcast;
          return viewer && viewer.connected && viewer.wire === wire && viewer.nodes().length > 0;
        });"""), 15, "the v1 and JSON watchers to connect and draw")


def wire_snapshot(driver):
    """`{wire: (seq, items)}` for the three viewers, read in one script, so no frame lands between."""
    return driver.execute_script("""
        const viewers = { binary: window.stackcast };
        for (const wire of ['v1', 'json']) viewers[wire] = document.getElementById(`viewer-${wire}`).contentWindow.stackcast;
        const out = {};
        for (const [wire, viewer] of Object.entries(viewers)) out[wire] = [viewer.lastSeq, viewer.nodes()];
        return out;""")


def item_differences(tree_items, list_items):
    """How the items drawn from the layer tree differ from v1's, beyond what §3.5 allows (0.01 pt
    per level of nesting, 0.001 alpha: here 0.02 pt and 0.002). A radius of 0 counts as none: v1
    leaves it out of whole nodes but may patch it to 0."""
    def fields(item):
        return {key: value for key, value in item.items() if not (key == "radius" and value == 0)}

    differences = []
    if [item["id"] for item in tree_items] != [item["id"] for item in list_items]:
        return [f"paint order: v2 {[item['id'] for item in tree_items]}, v1 {[item['id'] for item in list_items]}"]
    for tree, flat in zip(tree_items, list_items):
        tree, flat = fields(tree), fields(flat)
        if tree.keys() != flat.keys():
            differences.append(f"{tree['id']}: fields v2 {sorted(tree)}, v1 {sorted(flat)}")
            continue
        for key, value in tree.items():
            other = flat[key]
            if key in GEOMETRY:
                close = len(value) == len(other) == 4 and \
                    all(abs(a - b) <= WIRE_TOLERANCE_PT + 1e-9 for a, b in zip(value, other))
            elif key == "alpha":
                close = abs(value - other) <= WIRE_TOLERANCE_ALPHA + 1e-9
            else:
                close = value == other
            if not close:
                differences.append(f"{tree['id']} ({tree.get('role') or tree['kind']} {tree.get('name', '')!r}) "
                                   f"{key}: v2 {value}, v1 {other}")
    return differences


def compare_wires(snapshot):
    """Checks one snapshot of the three viewers showing one picture; returns the binary viewer's items."""
    (seq, binary), (_, v1), (_, json_items) = snapshot["binary"], snapshot["v1"], snapshot["json"]
    differences = item_differences(binary, v1)
    assert not differences, f"seq {seq}: the v2 picture differs from v1's:\n" + "\n".join(differences[:20])
    assert binary == json_items, f"seq {seq}: binary and JSON v2 drew different items"
    return binary


def same_seq(snapshot):
    return len({seq for seq, _ in snapshot.values()}) == 1


def compare_while(driver, seconds):
    """Compares every snapshot in which the three viewers hold the same frame, for `seconds`
    (pictures in motion); returns how many were compared."""
    compared = 0
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        snapshot = wire_snapshot(driver)
        if same_seq(snapshot):
            compare_wires(snapshot)
            compared += 1
        time.sleep(0.01)
    return compared


def compare_at_rest(driver, what, timeout=6):
    """Waits until no viewer has had a frame for 0.3 s, compares, and returns the items. The seqs
    may differ at rest: a frame is sent only to viewers whose picture it changes, and the session's
    seq also counts pictures that change for one format only (a v1 viewer joining made one)."""
    deadline = time.monotonic() + timeout
    while True:
        before = wire_snapshot(driver)
        time.sleep(0.3)
        after = wire_snapshot(driver)
        if all(after[wire][0] == before[wire][0] for wire in after):
            return compare_wires(after)
        if time.monotonic() > deadline:
            pytest.fail(f"the viewers did not come to rest {what}: seqs {[seq for seq, _ in after.values()]}")


@pytest.mark.parametrize("app", ["phone", "tablet"])
def test_v2_wires_draw_what_v1_draws(start_server, driver, artifacts, app):
    """The default wire (v2 binary), `?wire=json` and `?wire=v1` on the same session, through the
    same scripted steps: at rest and whenever they hold the same frame mid-motion, the v2 viewers
    draw v1's items, within §3.5's rounding, and exactly each other's."""
    server = start_server(app)
    if app == "tablet":
        set_inner_size(driver, *TABLET_WINDOWS[""])
    driver.get(server.url + ("?app=tablet" if app == "tablet" else ""))
    wait_for_viewer(driver)
    open_watchers(driver, server, app)
    items = compare_at_rest(driver, "at the start")
    moving = 0

    def rows_on(page_name):
        nodes = compare_at_rest(driver, f"before tapping a row on {page_name}")
        page = next(node for node in nodes if node.get("role") == "page" and node.get("name") == page_name)
        return [node for node in nodes if node.get("role") == "row" and inside(page["frame"], node["frame"])]

    if app == "phone":
        # Tap the first row: a slide push, compared as it moves and once at rest.
        row = next(node for node in items if node.get("role") == "row")
        x, y, w, h = row["frame"]
        click_at(driver, x + w / 2, y + h / 2)
        moving += compare_while(driver, 0.8)
        items = compare_at_rest(driver, "after the push")
        assert any(node.get("role") == "back" for node in items), "no back button after tapping a row"

        # Drag the page two thirds of the way back and hold: a still picture mid-transition (the
        # covered page shifted, the dim, the edge shadow), then let go: the pop completes.
        height = VIEWPORT["height"]
        press_and_move(driver, (20, height / 2), (280, height / 2), steps=8)
        held = compare_at_rest(driver, "while the drag is held")
        assert any(node.get("role") == "dim" for node in held), "no dim layer while the pop is dragged"
        assert any(0 < node["frame"][0] < VIEWPORT["width"] for node in held if node.get("role") == "page"), held
        driver.save_screenshot(str(artifacts / "wires-phone-held.png"))
        release_pointer(driver)
        moving += compare_while(driver, 0.6)
        items = compare_at_rest(driver, "after the pop")
        assert not any(node.get("role") == "back" for node in items), "the page was not popped"

        # The same row again: the binary viewer got the popped layers as templates (§3.6), and the
        # page comes back written like them; it draws what v1 draws as it moves and at rest.
        assert driver.execute_script("return window.stackcast.templates") > 0, "the pop sent no templates"
        click_at(driver, x + w / 2, y + h / 2)
        moving += compare_while(driver, 0.8)
        items = compare_at_rest(driver, "after pushing the page again")
        back = next(node for node in items if node.get("role") == "back")
        bx, by, bw, bh = back["frame"]
        click_at(driver, bx + bw / 2, by + bh / 2)
        moving += compare_while(driver, 0.6)
        items = compare_at_rest(driver, "after the second pop")
        assert not any(node.get("role") == "back" for node in items), "the page was not popped again"
        assert not driver.execute_script("return window.stackcast.resynced"), "the binary viewer had to resync"

        # The Search tab, and a wheel over its list: rows scrolled under the bars.
        tab = next(node for node in items if node.get("role") == "tab" and node.get("name") == "Search")
        x, y, w, h = tab["frame"]
        click_at(driver, x + w / 2, y + h / 2)
        compare_at_rest(driver, "after selecting Search")
        point = driver.execute_script("return window.stackcast.viewToCanvas(arguments[0], arguments[1])",
                                      VIEWPORT["width"] / 2, 400)
        ActionChains(driver).scroll_from_origin(
            ScrollOrigin.from_viewport(round(point["x"]), round(point["y"])), 0, 250).perform()
        items = compare_at_rest(driver, "after the wheel")
        assert any(node.get("role") == "row" and node["frame"][1] < 91 for node in items), \
            "no row scrolled under the navigation bar"
    else:
        # Library -> an artist -> an album: three half pages in the split, which clips them.
        page_name = "Library"
        for _ in range(2):
            x, y, w, h = rows_on(page_name)[0]["frame"]
            click_at(driver, x + w / 2, y + h / 2)
            moving += compare_while(driver, 0.8)
            pages = [node for node in compare_at_rest(driver, "after a push") if node.get("role") == "page"]
            assert pages[-1]["name"] != page_name, f"tapping a row on {page_name} pushed nothing: {pages}"
            page_name = pages[-1]["name"]
        items = compare_at_rest(driver, "after two pushes")
        split_clip = [SIDEBAR_WIDTH, 0, IPAD["width"] - SIDEBAR_WIDTH, IPAD["height"]]
        clipped = [node for node in items if "clip" in node]
        assert clipped and all(node["clip"] == split_clip for node in clipped), clipped
        assert len([node for node in items if node.get("role") == "page"]) >= 2, items

        # Drag the split 300 px to the right and hold: pages move out of the stack, dimmed.
        album = [node for node in items if node.get("role") == "page"][-1]
        start = (album["frame"][0] + album["frame"][2] / 2, IPAD["height"] - 30)
        press_and_move(driver, start, (start[0] + 300, start[1]), steps=12)
        held = compare_at_rest(driver, "while the split drag is held")
        assert any(node.get("role") == "dim" and node.get("alpha", 1) > 0.05 for node in held), held
        driver.save_screenshot(str(artifacts / "wires-tablet-held.png"))
        release_pointer(driver)
        moving += compare_while(driver, 0.8)
        compare_at_rest(driver, "after the split snapped")

    # Motion was compared too, not only pictures at rest (frames a viewer skips are not compared).
    assert moving > 0, "no frame was compared while something moved"
    errors = [entry for entry in driver.get_log("browser") if entry["level"] == "SEVERE"]
    assert not errors, f"browser console errors: {errors}"
    assert server.stop() == 0, f"the server did not exit cleanly on SIGTERM; output:\n{server.log()}"
