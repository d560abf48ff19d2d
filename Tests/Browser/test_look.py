"""The iOS look the server decides, as the viewer draws it in real Chromium.

At 390×844, 820×1180 and 1600×900 the phone app's Library (and at 1600×900 the tablet app) show
the status bar (9:41), the home indicator on the phone, and rows in an inset grouped section:
white card on the grouped grey, its title texts exactly as the server truncated them; a pressed
first row is grey inside the card's rounded corners. The screenshots go to
.build/test-artifacts/look-*.png for a person to compare with iOS Settings.
"""

import pytest
from selenium.webdriver.common.actions.action_builder import ActionBuilder

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


PRESSED = (209, 209, 214)  # systemGray4


def test_a_pressed_first_row_takes_the_sections_rounded_corners(start_server, driver, artifacts):
    """Held on the phone's first row past the 0.1 s delay, the row turns systemGray4 with the
    card's rounded top corners (the grouped grey stays in the corner outside the 10 pt radius) and
    square lower corners, with no clip on any row. The screenshot shows it mid-press."""
    server = start_server("phone")
    set_inner_size(driver, 390, 844)
    driver.get(server.url)
    wait_for_viewer(driver)
    wait_until(lambda: any(node.get("role") == "section" for node in nodes(driver)), 10, "a section drawn")
    row = next(node for node in nodes(driver) if node.get("role") == "row")
    x, y, w, h = row["frame"]
    assert (x, y, w, h) == (16, 126, 358, 44), row
    point = driver.execute_script("return window.stackcast.viewToCanvas(arguments[0], arguments[1])", x + w / 2, y + h / 2)
    press = ActionBuilder(driver)
    press.pointer_action.move_to_location(round(point["x"]), round(point["y"])).pointer_down()
    press.perform()
    try:
        wait_until(lambda: any(node.get("name") == "highlight" for node in nodes(driver)), 5, "the highlight drawn")
        drawn = nodes(driver)
        pressed = [node for node in drawn if node.get("role") == "row" and node.get("fill")]
        assert [(node["frame"], node["fill"], node.get("radius")) for node in pressed] == [([x, y, w, h], "#D1D1D6", 10)]
        squares = [node for node in drawn if node.get("name") == "highlight"]
        assert [(node["frame"], node["fill"]) for node in squares] == [([x, y + h / 2, w, h / 2], "#D1D1D6")]
        assert [node for node in drawn if node.get("role") == "row" and node.get("clip")] == []
        wait_until(lambda: pixels_like(driver, [x + 12, y + 4, 10, 10], PRESSED, tolerance=6) > 0, 5, "the highlight painted")
        # The top-left corner outside the radius keeps the page's grey; the lower corner is square.
        assert pixels_like(driver, [x, y, 2, 2], PRESSED, tolerance=6) == 0
        assert pixels_like(driver, [x, y, 2, 2], GROUPED, tolerance=6) > 0
        assert pixels_like(driver, [x, y + h - 3, 2, 2], PRESSED, tolerance=6) > 0
        driver.save_screenshot(str(artifacts / "look-phone-pressed-first-row.png"))
    finally:
        release = ActionBuilder(driver)
        release.pointer_action.pointer_up()
        release.perform()
