"""VCStack's half-height panel in real Chromium, as a person drags it.

In the phone app at 390 × 844, "Up Next" rises as a panel to half the screen over a mask: the
navigation bar and status area above it turn grey under the black. Dragged up it rests at its
large detent, dragged back down at medium. On an iPad the panel is a centred form sheet, and the
mask darkens the tab bar's pixels too. A watcher checks what the server did; the canvas's pixels
show what the viewer drew. Screenshots panel-*.png go to .build/test-artifacts/.
"""

import time

from stackcast_testing import wait_until
from test_viewer import (  # noqa: F401 (fixtures)
    artifacts, click_at, drag, driver, pixels_like, set_inner_size, start_server, viewer_nodes, wait_for_viewer,
    watch_session,
)

BAR = (249, 249, 249)        # the bars' #F9F9F9
MASKED_BAR = (149, 149, 149)  # the same under black at alpha 0.4


def panel_at_rest(watcher, what):
    """The panel's frame once two reads 0.3 s apart agree."""
    def still():
        first = watcher.find("panel")
        time.sleep(0.3)
        second = watcher.find("panel")
        return first and second and first[-1]["frame"] == second[-1]["frame"] and second[-1]["frame"]
    return wait_until(still, 20, lambda: f"{what}; the panel is at {watcher.find('panel')}")


def open_up_next(start_server, watch_session, driver, width, height, device):
    server = start_server()
    set_inner_size(driver, width, height)
    driver.get(f"{server.url}?device={device}")
    wait_for_viewer(driver)
    watcher = watch_session(server.port, driver.execute_script("return window.stackcast.session"))
    wait_until(lambda: watcher.welcome and watcher.find("row", "Up Next"), 10, "the watcher's first frame")
    time.sleep(0.5)
    row = next(node for node in viewer_nodes(driver) if node.get("role") == "row" and node.get("name") == "Up Next")
    x, y, w, h = row["frame"]
    click_at(driver, x + w / 2, y + h / 2)
    return watcher


def test_the_panel_is_dragged_between_detents_over_a_mask_that_covers_the_bars(start_server, watch_session, driver, artifacts):
    watcher = open_up_next(start_server, watch_session, driver, 390, 844, "fit")
    viewport = watcher.welcome["viewport"]
    width, height, top = viewport["width"], viewport["height"], viewport["safeArea"]["top"]
    medium, large = round(height / 2), height - top - 10
    assert panel_at_rest(watcher, "the panel at medium") == [0, height - medium, width, large]
    mask = watcher.find("mask")[-1]
    assert (mask["frame"], mask["alpha"]) == ([0, 0, width, height], 0.4)
    # The navigation bar and the status area above the panel are the bar's grey under the mask.
    wait_until(lambda: pixels_like(driver, [8, 30, 60, 40], MASKED_BAR, tolerance=15, viewport_width=width) > 0,
               5, "the bar darkened")
    assert pixels_like(driver, [8, 30, 60, 40], BAR, tolerance=6, viewport_width=width) == 0
    driver.save_screenshot(str(artifacts / "panel-1-medium.png"))

    drag(driver, (200, height - medium + 180), (200, height - medium - 120), steps=15)
    assert panel_at_rest(watcher, "the panel at large") == [0, height - large, width, large]
    driver.save_screenshot(str(artifacts / "panel-2-large.png"))
    drag(driver, (200, 200), (200, 500), steps=15)
    assert panel_at_rest(watcher, "the panel back at medium") == [0, height - medium, width, large]
    state = watcher.command("query", what="state")
    assert [(p["style"], p["detent"]) for p in state["presented"]] == [("panel", "medium")]


def test_on_an_ipad_the_panel_is_a_form_sheet_and_the_mask_covers_the_tab_bar(start_server, watch_session, driver, artifacts):
    watcher = open_up_next(start_server, watch_session, driver, 1200, 1000, "ipad")
    viewport = watcher.welcome["viewport"]
    frame = panel_at_rest(watcher, "the form sheet at rest")
    assert frame[2] == 540 and frame[0] == (viewport["width"] - 540) / 2, frame
    bar = watcher.find("tabbar")[-1]["frame"]
    strip = [bar[0] + 4, bar[1] + 6, 30, 10]
    wait_until(lambda: pixels_like(driver, strip, MASKED_BAR, tolerance=15, viewport_width=viewport["width"]) > 0,
               5, "the tab bar darkened")
    assert pixels_like(driver, strip, BAR, tolerance=6, viewport_width=viewport["width"]) == 0
    driver.save_screenshot(str(artifacts / "panel-3-ipad.png"))
