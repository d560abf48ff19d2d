"""The blocking client against a real server, on each of the three wires: commands and their
errors, the picture, events, gestures, settle, resume and watch, PNG."""

import pytest
from PIL import Image

import stackcast

WIRES = [pytest.param({"protocol": 1}, id="v1"), pytest.param({"protocol": 2, "encoding": "json"}, id="v2-json"),
         pytest.param({"protocol": 2, "encoding": "binary"}, id="v2-binary")]
PUSH = ["viewDidLoad Detail", "viewWillDisappear Home", "viewWillAppear Detail", "transitionStart",
        "viewDidDisappear Home", "viewDidAppear Detail", "transitionEnd"]
HOME = {"kind": "stack", "id": "main", "root": {"name": "Home", "rows": [
    {"title": "Open", "action": {"op": "push", "screen": {"name": "Detail", "background": "#FF0000"}}}]}}


def names(events):
    return [f"{e.name} {e.screen}" if e.screen else e.name for e in events]


@pytest.mark.parametrize("wire", WIRES)
def test_commands_answer_and_the_picture_follows(url, wire):
    with stackcast.connect(url, app="stack", **wire) as s:
        assert (s.welcome.protocol, s.welcome.encoding) == (wire["protocol"], wire.get("encoding", "json"))
        assert [n.name for n in s.nodes(role="page")] == ["Home"]
        assert s.subscribe(["lifecycle", "transition"]) == {"events": ["lifecycle", "transition"]}
        assert s.push({"name": "Detail"}) == {"vc": "vc2"}
        assert names(s.events(timeout=0.3)) == PUSH
        s.settle()
        page = s.node(role="page")
        assert (page.name, page.vc, page.frame, page.center) == ("Detail", "vc2", (0, 0, 390, 844), (195, 422))
        with pytest.raises(stackcast.CommandError) as refused:
            s.pop_to("Nowhere")
        assert (refused.value.code, refused.value.op) == ("not_found", "popTo")
        assert s.pop() == {"vc": "vc1"}
        with pytest.raises(stackcast.CommandError) as at_root:
            s.pop()
        assert (at_root.value.code, at_root.value.message) == ("invalid_state", "Home is the root of stack main: there is nothing to pop")
        assert s.query_state()["stack"][0]["screen"] == "Home"


def test_every_wire_draws_the_same_picture(url):
    pictures = []
    for wire in WIRES:
        with stackcast.connect(url, app="phone", **wire.values[0]) as s:
            s.push({"name": "Detail", "rows": [{"title": "One"}, {"title": "Two", "detail": "2"}]})
            s.settle()
            pictures.append([(n.kind, n.role, n.name, n.text, [round(v, 1) for v in n.frame], n.alpha, n.fill)
                             for n in s.nodes()])
    assert pictures[0] == pictures[1] == pictures[2]
    # In the inset grouped section, 35 pt under the 44 pt bar, 16 pt in; a row at rest has no fill.
    assert ("rect", "row", "Two", None, [16, 123, 358, 44], 1, None) in pictures[0]


def test_tab_bar_commands_take_keywords(url):
    with stackcast.connect(url, app="phone") as s:
        assert s.select_tab(1) == {"tab": 1, "id": "search", "vc": "vc2"}
        assert s.select_tab("Settings")["id"] == "settings"
        assert s.set_badge("Library", "7", badge_color="#00FF00")["tab"] == 0
        s.settle()
        badge = s.node(role="badge", name="Library")
        assert (badge.text, badge.fill) == ("7", "#00FF00")
        assert s.push("Deep", target={"stack": "library"}) == {"vc": "vc4"}
        assert [p["screen"] for p in s.query_state()["tabs"][0]["stack"]] == ["Library", "Deep"]
        assert s.configure(slow_motion=2)["slowMotion"] == 2


def test_present_and_dismiss_a_stack_in_a_sheet(url):
    with stackcast.connect(url, app="stack") as s:
        compose = {"kind": "stack", "id": "compose", "root": {"name": "Compose", "title": "New Message"}}
        assert s.present(compose) == {"vc": "vc2"}
        assert s.push("Recipients") == {"vc": "vc3"}
        state = s.query_state()
        assert [(p["style"], p["id"], [page["screen"] for page in p["stack"]]) for p in state["presented"]] == [
            ("sheet", "compose", ["Compose", "Recipients"])]
        assert [page["screen"] for page in state["stack"]] == ["Home"]
        s.settle()
        # The card's top is 10 pt below the safe area (none on the client's default viewport).
        assert s.node(role="page", name="Recipients").frame[1] == 10
        assert s.dismiss() == {"vc": "vc1"}
        assert "presented" not in s.query_state()
        assert s.present("Note", style="fullScreen", animated=False) == {"vc": "vc4"}
        assert s.query_state()["presented"][0]["style"] == "fullScreen"


def test_present_a_panel_at_its_detents(url):
    with stackcast.connect(url, app="stack") as s:
        queue = {"kind": "stack", "id": "queue", "root": {"name": "Queue", "rows": [{"title": f"Track {n}"} for n in range(20)]}}
        s.present(queue, style="panel", detents=[300, "large"], dismiss_on_mask_tap=False)
        s.settle()
        assert [(p["style"], p["detent"]) for p in s.query_state()["presented"]] == [("panel", 300)]
        assert s.node(role="panel").frame[1] == 844 - 300
        # Dragged up from its top half, it rests at large.
        s.drag(200, 844 - 250, 0, -300)
        s.settle()
        assert s.query_state()["presented"][0]["detent"] == "large"
        with pytest.raises(stackcast.CommandError) as refused:
            s.present("Another", style="panel", detents=["small"])
        assert refused.value.code == "bad_message"


def test_gestures_drag_fling_tap_and_settle(url):
    with stackcast.connect(url, app="stack", protocol=2, encoding="binary") as s:
        s.subscribe(["gesture"])
        s.push("Detail")
        # A short drag rests before lifting: not past half the width, so the pop is cancelled.
        s.drag(10, 400, 100, 0)
        s.settle()
        assert [n.name for n in s.nodes(role="page")] == ["Detail"]
        # The same distance flung: the speed completes it.
        s.fling(10, 400, 100, 0, duration=0.05)
        s.settle()
        assert [n.name for n in s.nodes(role="page")] == ["Home"]
        assert [(e.name, e.fields.get("cancelled")) for e in s.events(timeout=0.3)] == [
            ("gestureBegan", None), ("gestureEnded", True), ("gestureBegan", None), ("gestureEnded", False)]
        s.push("Detail")
        s.edge_swipe_back()
        s.settle()
        assert [n.name for n in s.nodes(role="page")] == ["Home"]
        # A tap runs a row's action; settle waits for the push it started.
        s.set_root(HOME)
        s.settle()
        s.tap(*s.node(role="row", name="Open").center)
        s.settle()
        assert [(p["screen"], p["appearance"]) for p in s.query_state()["stack"]] == [("Home", "disappeared"), ("Detail", "appeared")]
        assert s.node(role="page").frame == (0, 0, 390, 844)


def test_settle_gives_up_on_a_session_that_keeps_moving(url):
    with stackcast.connect(url, app="stack") as s:
        s.set_root(HOME)
        s.configure(slow_motion=100)                     # a 34 s push
        s.tap(*s.node(role="row", name="Open").center)
        with pytest.raises(stackcast.Timeout, match="not at rest after 1 s"):
            s.settle(timeout=1)


def test_events_need_a_subscription(url):
    with stackcast.connect(url) as s:
        with pytest.raises(stackcast.StackcastError, match="call subscribe"):
            next(s.events())


def test_resume_and_watch(url):
    with stackcast.connect(url, app="stack") as s:
        s.push("Detail")
        token, watch = s.token, s.watch_token
    with stackcast.connect(url, session=token) as resumed:
        assert resumed.welcome.resumed and resumed.token == token
        assert [n.name for n in resumed.nodes(role="page")] == ["Detail"]
        with stackcast.connect(url, session=watch, protocol=1) as watcher:
            assert watcher.welcome.role == "view"
            assert [n.name for n in watcher.nodes(role="page")] == ["Detail"]
            with pytest.raises(stackcast.CommandError) as refused:
                watcher.pop()
            assert refused.value.code == "forbidden"
            resumed.pop()
            watcher.settle()
            assert [n.name for n in watcher.nodes(role="page")] == ["Home"]


def test_png_draws_fills_at_their_place(url, tmp_path):
    with stackcast.connect(url, app="stack") as s:
        s.set_root(HOME)
        s.settle()
        s.tap(*s.node(role="row", name="Open").center)
        s.settle()
        s.png(str(tmp_path / "detail.png"), scale=1)
        navbar = s.node(role="navbar")
    image = Image.open(tmp_path / "detail.png").convert("RGB")
    assert image.size == (390, 844)
    assert image.getpixel((195, 600)) == (255, 0, 0)              # the page's background
    x, y, w, h = navbar.frame
    assert image.getpixel((int(x + w - 5), int(y + 10))) == (0xF9, 0xF9, 0xF9)


def test_png_without_pillow_says_which_extra_to_install(url, tmp_path, monkeypatch):
    import sys
    monkeypatch.setitem(sys.modules, "PIL", None)
    monkeypatch.delitem(sys.modules, "stackcast.picture", raising=False)
    with stackcast.connect(url, app="stack") as s:
        with pytest.raises(stackcast.MissingExtraError) as missing:
            s.png(str(tmp_path / "never.png"))
    assert "pip install 'stackcast[png]'" in str(missing.value)
    assert isinstance(missing.value, ImportError)
    assert not (tmp_path / "never.png").exists()
