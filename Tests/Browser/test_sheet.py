"""The modal page sheet in real Chromium at 390 × 844, as a person sees it.

In the phone app, with Slow motion on (from the toolbar, so the slide can be caught half way),
tapping "Now Playing" raises a card from the bottom: half way up it already lies over the home
page, which shrinks back; at rest the card is inset below the top, full width down to the bottom
edge, with rounded top corners (the canvas shows what lies behind at its corner, the card's bar
just beside it), a Close button in its bar, and the home page drawn smaller behind it. Escape
closes it; opened again, a drag down past half closes it too. A watcher checks what the server
did; the viewer draws what the watcher holds. Screenshots sheet-*.png go to
.build/test-artifacts/.
"""

import time

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.keys import Keys

from stackcast_testing import wait_until
from test_viewer import (  # noqa: F401 (fixtures)
    artifacts, click_at, driver, inside, open_phone_in_slow_motion, pixels_like, press_and_move, release_pointer, start_server,
    viewer_nodes, watch_session,
)

WIDTH, HEIGHT = 390, 844
SHEET = "Now Playing"


def colour(hex_text):
    return tuple(int(hex_text[i:i + 2], 16) for i in (1, 3, 5))


def sheet_of(watcher):
    """The sheet's page node as the watcher holds it, or None."""
    pages = watcher.find("page", SHEET)
    return pages[-1] if pages else None


def open_sheet(driver):
    row = next(node for node in viewer_nodes(driver) if node.get("role") == "row" and node.get("name") == SHEET)
    x, y, w, h = row["frame"]
    click_at(driver, x + w / 2, y + h / 2)


def at_rest(watcher):
    """The sheet's frame once it has stopped moving (two reads 0.3 s apart agree)."""
    def still():
        first = sheet_of(watcher)
        if not first:
            return None
        time.sleep(0.3)
        second = sheet_of(watcher)
        return second and second["frame"] == first["frame"] and first["frame"][1] < HEIGHT / 2 and second
    return wait_until(still, 20, lambda: f"the sheet at rest; it is at {sheet_of(watcher)}")


def closed(watcher, home_name):
    home = watcher.find("page", home_name)
    return not watcher.find("page", SHEET) and home and home[-1]["frame"] == [0, 0, WIDTH, HEIGHT]


def test_a_modal_page_rises_as_a_sheet_and_closes_by_escape_and_by_a_drag(start_server, watch_session, driver, artifacts):
    server, watcher = open_phone_in_slow_motion(start_server, watch_session, driver, WIDTH, HEIGHT)
    home_name = watcher.pages()[-1]["name"]

    open_sheet(driver)

    def half_way():
        sheet = sheet_of(watcher)
        return sheet and HEIGHT * 0.3 < sheet["frame"][1] < HEIGHT * 0.7 and sheet
    rising = wait_until(half_way, 10, lambda: f"the sheet half way up; it is at {sheet_of(watcher)}")
    driver.save_screenshot(str(artifacts / "sheet-1-rising.png"))
    assert rising["frame"][0] == 0 and rising["frame"][2] == WIDTH, rising
    covered = watcher.find("page", home_name)[-1]
    assert covered["frame"][2] < WIDTH, f"the covered page is not drawn smaller half way: {covered}"

    sheet = at_rest(watcher)
    driver.save_screenshot(str(artifacts / "sheet-2-rest.png"))
    x, y, w, h = sheet["frame"]
    assert x == 0 and w == WIDTH and 0 < y < 100 and y + h == HEIGHT, f"the sheet at rest: {sheet}"
    home = watcher.find("page", home_name)[-1]
    hx, hy, hw, hh = home["frame"]
    assert hw < WIDTH and hx > 0 and hx + hw < WIDTH, f"the home page is not scaled back behind the sheet: {home}"
    close = watcher.find("close")
    assert close and inside([x, y, w, 80], close[-1]["frame"]), f"no Close button in the sheet's bar: {close}"

    # Rounded corners: at the sheet's very corner the canvas shows what lies behind it, a few
    # points in along the top edge the sheet's own bar.
    bar = next(node for node in watcher.find("navbar") if inside(sheet["frame"], node["frame"]))
    bar_colour = colour(bar["fill"])
    def drawn_at_rest():
        drawn = [node for node in viewer_nodes(driver) if node.get("role") == "page" and node.get("name") == SHEET]
        return drawn and all(abs(a - b) <= 0.02 for a, b in zip(drawn[-1]["frame"], sheet["frame"]))
    wait_until(drawn_at_rest, 5, "the viewer to draw the sheet where the watcher has it")
    assert pixels_like(driver, [20, y + 2, 4, 4], bar_colour, tolerance=12) == 16, "the sheet's bar is not drawn at its top"
    assert pixels_like(driver, [0, y, 1.5, 1.5], bar_colour, tolerance=12) == 0, "the sheet's top corner is not rounded"

    # Escape closes it, as its Close button would.
    ActionChains(driver).send_keys(Keys.ESCAPE).perform()
    wait_until(lambda: closed(watcher, home_name), 20,
               lambda: f"the sheet closed by Escape; pages {[(p.get('name'), p['frame']) for p in watcher.pages()]}")
    driver.save_screenshot(str(artifacts / "sheet-3-closed.png"))

    # Open it again; a drag down past half closes it.
    open_sheet(driver)
    sheet = at_rest(watcher)
    top = sheet["frame"][1]
    press_and_move(driver, (WIDTH / 2, top + 150), (WIDTH / 2, top + 150 + HEIGHT * 0.6), steps=12)
    release_pointer(driver)
    wait_until(lambda: closed(watcher, home_name), 20,
               lambda: f"the sheet closed by a drag; pages {[(p.get('name'), p['frame']) for p in watcher.pages()]}")
    assert not watcher.problems, watcher.problems
    errors = [entry for entry in driver.get_log("browser") if entry["level"] == "SEVERE"]
    assert not errors, f"browser console errors: {errors}"
    assert server.stop() == 0, f"the server did not exit cleanly on SIGTERM; output:\n{server.log()}"
