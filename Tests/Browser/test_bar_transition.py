"""UIKit's navigation bar transition in real Chromium at 390 × 844, caught half way.

In the phone app with Slow motion on, tapping "Playlists" pushes its page: half way through, the
navigation bar stays where it is (one bar, not one travelling with each page), both titles are
drawn, the outgoing one fading out to the left and the incoming one fading in from the right,
and the back button's chevron is fading in. The screenshot push-half-way.png goes to
.build/test-artifacts/ for a person to compare with an iPhone.
"""

from stackcast_testing import wait_until
from test_viewer import (  # noqa: F401 (fixtures)
    artifacts, click_at, driver, open_phone_in_slow_motion, start_server, viewer_nodes, watch_session,
)

WIDTH, HEIGHT = 390, 844
PUSHED = "Playlists"


def test_half_way_through_a_push_the_bar_stays_and_the_titles_cross_fade(start_server, watch_session, driver, artifacts):
    server, watcher = open_phone_in_slow_motion(start_server, watch_session, driver, WIDTH, HEIGHT)
    home = watcher.pages()[-1]
    home_title = next(node for node in watcher.find("title") if node["frame"][0] >= 0)["text"]

    row = next(node for node in viewer_nodes(driver) if node.get("role") == "row" and node.get("name") == PUSHED)
    x, y, w, h = row["frame"]
    click_at(driver, x + w / 2, y + h / 2)

    def half_way():
        pushed = [page for page in watcher.pages() if page["id"] != home["id"] and page.get("name") == PUSHED]
        return pushed and WIDTH * 0.35 < pushed[-1]["frame"][0] < WIDTH * 0.65 and pushed[-1]
    wait_until(half_way, 10, lambda: f"the pushed page half way in; pages {[(p.get('name'), p['frame']) for p in watcher.pages()]}")
    driver.save_screenshot(str(artifacts / "push-half-way.png"))

    # Read one frame's worth at once from the viewer: what is drawn now.
    drawn = viewer_nodes(driver)
    bars = [node for node in drawn if node.get("role") == "navbar" and node.get("fill")]
    assert len(bars) == 1 and bars[0]["frame"][0] == 0, f"one bar, still, with its background: {bars}"
    titles = {node["text"]: node for node in drawn if node.get("role") == "title"}
    assert set(titles) == {home_title, PUSHED}, f"both titles drawn half way: {list(titles)}"
    outgoing, incoming = titles[home_title], titles[PUSHED]
    assert 0 < outgoing["alpha"] < 1 and 0 < incoming["alpha"] < 1, (outgoing, incoming)
    centre = WIDTH / 2
    assert outgoing["frame"][0] + outgoing["frame"][2] / 2 < centre < incoming["frame"][0] + incoming["frame"][2] / 2, \
        f"the outgoing title left of the centre, the incoming one right of it: {outgoing['frame']}, {incoming['frame']}"
    chevrons = [node for node in drawn if node.get("icon") == "back"]
    assert chevrons and 0 < chevrons[-1]["alpha"] < 1, f"the back chevron fading in: {chevrons}"
    assert not watcher.problems, watcher.problems
    assert server.stop() == 0, f"the server did not exit cleanly on SIGTERM; output:\n{server.log()}"
