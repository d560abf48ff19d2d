"""The viewer's accessibility mirror (Web/src/accessibility.js) in real Chromium, keyboard only.

In the phone app: Tab moves the focus row by row until the one whose accessible name is
"Artist", Enter pushes its page on the server (seen by a watcher) and the focus goes to the new
page's heading; Escape pops it and the focus goes back to "Library". Chromium's own accessibility
tree (CDP Accessibility.getFullAXTree) shows the heading, the rows as buttons and the tab bar as
a tablist of tabs. A watcher's mirror reads the same, with its buttons marked unavailable.
"""

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.keys import Keys

from stackcast_testing import wait_until
from test_viewer import (  # noqa: F401 (fixtures)
    COMMAND_SECONDS, driver, start_server, wait_for_viewer, watch_session,
)

FOCUSED = """
    const a = document.activeElement;
    return a && a.closest('#a11y') ? {tag: a.tagName, role: a.getAttribute('role'), name: a.textContent} : null;
"""
MAX_TABS = 30


def press(driver, key):
    ActionChains(driver).send_keys(key).perform()


def focused(driver):
    return driver.execute_script(FOCUSED)


def tab_to(driver, name):
    """Presses Tab until the focused mirror element is named `name`; the names passed on the way."""
    passed = []
    for _ in range(MAX_TABS):
        press(driver, Keys.TAB)
        now = focused(driver)
        passed.append(now and now["name"])
        if now and now["name"] == name:
            return passed
    raise AssertionError(f"{MAX_TABS} Tabs never reached {name!r}; passed {passed}")


def ax_nodes(driver):
    """Chromium's accessibility tree: (role, name, properties) of every node not ignored."""
    tree = driver.execute_cdp_cmd("Accessibility.getFullAXTree", {})
    out = []
    for node in tree["nodes"]:
        if node.get("ignored"):
            continue
        properties = {p["name"]: p["value"].get("value") for p in node.get("properties", [])}
        out.append((node.get("role", {}).get("value"), node.get("name", {}).get("value"), properties, node))
    return out


def top_page(watcher):
    pages = watcher.pages()
    return pages[-1]["name"] if len(pages) == 1 else None


def test_keyboard_only_push_and_pop_with_focus_following(start_server, watch_session, driver):
    server = start_server()
    driver.get(server.url)
    wait_for_viewer(driver)
    session = driver.execute_script("return window.stackcast.session")
    watcher = watch_session(server.port, session)
    wait_until(lambda: top_page(watcher) == "Library", COMMAND_SECONDS, "the watcher's Library page")
    wait_until(lambda: driver.execute_script("return document.querySelectorAll('#a11y button').length") > 0,
               COMMAND_SECONDS, "the mirror's buttons")

    passed = tab_to(driver, "Artist")
    # The rows come in reading order, top to bottom: Playlists, Now Playing, Artist.
    assert passed[-3:] == ["Playlists", "Now Playing", "Artist"], passed
    assert focused(driver)["tag"] == "BUTTON"

    press(driver, Keys.ENTER)
    wait_until(lambda: top_page(watcher) == "Artist", COMMAND_SECONDS,
               lambda: f"Enter to push Artist; the watcher has {[p['name'] for p in watcher.pages()]}")
    wait_until(lambda: focused(driver) == {"tag": "H1", "role": None, "name": "Röyksopp"}, COMMAND_SECONDS,
               lambda: f"the focus on the new page's heading; it is on {focused(driver)}")

    # From the heading, Tab goes on to the page's first row; Shift+Tab from there passes the heading
    # (focusable only by the viewer) to the back button,
    # which reads before the title as on iOS.
    press(driver, Keys.TAB)
    assert focused(driver) == {"tag": "BUTTON", "role": None, "name": "Popular"}
    ActionChains(driver).key_down(Keys.SHIFT).send_keys(Keys.TAB).key_up(Keys.SHIFT).perform()
    assert focused(driver) == {"tag": "BUTTON", "role": None, "name": "Back"}

    press(driver, Keys.ESCAPE)
    wait_until(lambda: top_page(watcher) == "Library", COMMAND_SECONDS, "Escape to pop back to Library")
    wait_until(lambda: focused(driver) == {"tag": "H1", "role": None, "name": "Library"}, COMMAND_SECONDS,
               lambda: f"the focus back on Library's heading; it is on {focused(driver)}")
    assert driver.get_log("browser") == []


def test_chromium_accessibility_tree_shows_heading_buttons_and_tablist(start_server, driver):
    server = start_server()
    driver.get(server.url)
    wait_for_viewer(driver)
    wait_until(lambda: driver.execute_script("return document.querySelectorAll('#a11y [role=tab]').length") == 3,
               COMMAND_SECONDS, "the mirror's tabs")
    nodes = ax_nodes(driver)
    headings = [(name, props.get("level")) for role, name, props, _ in nodes if role == "heading"]
    assert ("Library", 1) in headings, headings
    buttons = [name for role, name, _, _ in nodes if role == "button"]
    for row in ("Playlists", "Now Playing", "Artist", "Find in Search"):
        assert row in buttons, buttons
    # A row's detail is its description.
    artist = next(node for role, name, _, node in nodes if role == "button" and name == "Artist")
    assert artist.get("description", {}).get("value") == "clear bar"
    tablists = [node for role, name, _, node in nodes if role == "tablist" and name == "Tab bar"]
    assert len(tablists) == 1
    by_id = {node["nodeId"]: (role, name) for role, name, _, node in nodes}
    tabs = [by_id.get(child) for child in tablists[0].get("childIds", [])]
    assert tabs == [("tab", "Library"), ("tab", "Search"), ("tab", "Settings")], tabs
    # The server marks the selected tab (NODE `selected`), and the mirror says so.
    selected = [name for role, name, props, _ in nodes if role == "tab" and props.get("selected") is True]
    assert selected == ["Library"], selected
    # The canvas is a picture only: the mirror speaks for it.
    assert "canvas" not in [role for role, *_ in nodes]

    # A watcher reads the same picture; it cannot drive, and its buttons say so.
    session = driver.execute_script("return window.stackcast.session")
    driver.switch_to.new_window("tab")
    driver.get(f"{server.url}?session={session}&role=view")
    wait_until(lambda: driver.execute_script("return window.stackcast.role") == "view", COMMAND_SECONDS, "watching")
    wait_until(lambda: driver.execute_script("return document.querySelectorAll('#a11y button').length") > 0,
               COMMAND_SECONDS, "the watcher's mirror")
    disabled = driver.execute_script(
        "return [...document.querySelectorAll('#a11y button')].map((b) => b.getAttribute('aria-disabled'))")
    assert set(disabled) == {"true"}, disabled
