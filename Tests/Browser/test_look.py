"""The iOS look the server decides (issue 13 item 2), as the viewer draws it in real Chromium.

At 390×844, 820×1180 and 1600×900 the phone app's Library (and at 1600×900 the tablet app) show
the status bar (9:41), the home indicator on the phone, and rows in an inset grouped section:
white card on the grouped grey, its title texts exactly as the server truncated them. The
screenshots go to .build/test-artifacts/look-*.png for a person to compare with iOS Settings.
"""

import pytest

from stackcast_testing import wait_until
from test_viewer import (  # noqa: F401 (fixtures)
    artifacts, driver, pixels_like, set_inner_size, start_server, wait_for_viewer,
)

GROUPED = (242, 242, 247)
WHITE = (255, 255, 255)


def nodes(driver):
    return driver.execute_script("return window.stackcast.nodes()")


@pytest.mark.parametrize("app, size", [
    ("phone", (390, 844)), ("phone", (820, 1180)), ("phone", (1600, 900)), ("tablet", (1600, 900)),
])
def test_the_look_at_each_window_size(start_server, driver, artifacts, app, size):
    server = start_server(app)
    set_inner_size(driver, *size)
    driver.get(server.url)
    wait_for_viewer(driver)
    wait_until(lambda: any(node.get("role") == "section" for node in nodes(driver)), 10, "a section drawn")
    drawn = nodes(driver)
    viewport_width = max(node["frame"][0] + node["frame"][2] for node in drawn if node.get("role") == "statusbar")
    time_label = [node for node in drawn if node.get("text") == "9:41"]
    assert len(time_label) == 1, drawn
    indicators = [node for node in drawn if node.get("role") == "homeindicator"]
    if app == "phone":
        assert [node["frame"] for node in indicators] == [[128, 831, 134, 5]]
    else:
        assert indicators == []
    section = next(node for node in drawn if node.get("role") == "section")
    x, y, w, h = section["frame"]
    if app == "phone":
        assert (x, w) == (16, 358), section
    # The grouped grey in the gutter left of the card, the card white inside it.
    wait_until(lambda: pixels_like(driver, [x + 2, y + 12, 6, 20], WHITE, viewport_width=viewport_width) > 0,
               5, "the section's card drawn white")
    assert pixels_like(driver, [x - 10, y + 12, 6, 20], WHITE, tolerance=4, viewport_width=viewport_width) == 0
    # Every row title is no wider than its box by the server's count: the viewer drew what it was sent.
    titles = [node for node in drawn if node.get("name") == "title" and node.get("kind") == "text"]
    assert titles and all(node["text"] for node in titles), titles
    driver.save_screenshot(str(artifacts / f"look-{app}-{size[0]}x{size[1]}.png"))
