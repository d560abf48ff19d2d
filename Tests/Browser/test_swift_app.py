"""examples/swift-app, an app of one's own in Swift, as a new user meets it: the package builds
against this checkout (its own Package.swift, a path dependency on the repository), `PlayerApp`
serves its app with the repository's viewer, and in real Chromium a person taps a track in its
library (rows, from a spec), then play, pause and scrub on the player, a page of the app's own
kind drawn as nodes. A watcher checks what the server did. Screenshots swift-app-*.png go to
.build/test-artifacts/."""

import signal
import subprocess
import time

import pytest

from stackcast_testing import ROOT, ServerProcess, wait_until
from test_viewer import artifacts, click_at, drag, driver, viewer_nodes, wait_for_viewer, watch_session  # noqa: F401 (fixtures)

EXAMPLE = ROOT / "examples" / "swift-app"
# Its own build folder under the repository's (ignored), so the example's checkout stays clean
# and a second run builds only what changed.
SCRATCH = ROOT / ".build" / "swift-app"


@pytest.fixture(scope="module")
def player_binary():
    # The build manifest is made afresh: a kept one lists the repository's sources as they were
    # at the last build, and a file added since would be missed.
    build = subprocess.run(["swift", "build", "--package-path", str(EXAMPLE), "--scratch-path", str(SCRATCH),
                            "--disable-build-manifest-caching"],
                           capture_output=True, text=True, timeout=1800)
    assert build.returncode == 0, build.stdout[-4000:] + build.stderr[-4000:]
    return SCRATCH / "debug" / "PlayerApp"


@pytest.fixture
def player(player_binary, tmp_path):
    server = ServerProcess([], tmp_path / "player.log", command=[str(player_binary), "0"])
    yield server
    server.kill()


def test_the_swift_app_serves_its_own_page_kind_and_its_taps(player, watch_session, driver, artifacts):
    driver.get(f"{player.http_url}/")
    wait_for_viewer(driver)
    session = driver.execute_script("return window.stackcast.session")
    watcher = watch_session(player.port, session, app="player")
    wait_until(lambda: watcher.find("page", "Library"), 10, "the library page")
    driver.save_screenshot(str(artifacts / "swift-app-1-library.png"))

    row = next(node for node in viewer_nodes(driver) if node.get("role") == "row" and node.get("name") == "Northern Lights")
    x, y, w, h = row["frame"]
    click_at(driver, x + w / 2, y + h / 2)
    player_page = wait_until(lambda: [page for page in watcher.find("page", "Northern Lights") if abs(page["frame"][0]) < 0.5],
                             10, lambda: f"the player at rest; pages: {[(p.get('name'), p['frame']) for p in watcher.pages()]}")
    assert player_page
    played = watcher.find(None, "played")
    assert played and played[0]["frame"][2] == 0, played

    def button():
        return next(node for node in viewer_nodes(driver) if node.get("name") == "play")

    # Play: the bar grows on the server's clock (214 s for the whole track).
    x, y, w, h = button()["frame"]
    click_at(driver, x + w / 2, y + h / 2)
    wait_until(lambda: watcher.find("button", "play")[0].get("text") == "Pause", 5, "the button to say Pause")
    wait_until(lambda: watcher.find(None, "played")[0]["frame"][2] > 0.5, 10,
               lambda: f"the played bar to grow; it is {watcher.find(None, 'played')}")
    driver.save_screenshot(str(artifacts / "swift-app-2-playing.png"))

    # Pause: the bar stops where it is.
    x, y, w, h = button()["frame"]
    click_at(driver, x + w / 2, y + h / 2)
    wait_until(lambda: watcher.find("button", "play")[0].get("text") == "Play", 5, "the button to say Play")
    width = watcher.find(None, "played")[0]["frame"][2]
    time.sleep(0.5)
    assert watcher.find(None, "played")[0]["frame"][2] == width

    # Scrub: a drag along the bar moves the track by as far as the finger went (past the 10 pt
    # slop), a pan the page itself takes rather than the stack's full-screen pop.
    x, y, w, h = next(node for node in viewer_nodes(driver) if node.get("name") == "progress")["frame"]
    drag(driver, (x + w * 0.2, y + h / 2), (x + w * 0.6, y + h / 2))
    expected = width + w * 0.4 - 10
    wait_until(lambda: abs(watcher.find(None, "played")[0]["frame"][2] - expected) < 4, 5,
               lambda: f"the played bar at about {expected:.0f} pt; it is {watcher.find(None, 'played')}")
    assert watcher.find("page", "Northern Lights"), "the drag popped the player"
    assert watcher.find(None, "elapsed")[0].get("text") != "0:00"
    driver.save_screenshot(str(artifacts / "swift-app-3-scrubbed.png"))
    assert not watcher.problems, watcher.problems

    errors = [entry for entry in driver.get_log("browser") if entry["level"] == "SEVERE"]
    assert not errors, f"browser console errors: {errors}"
    # Ctrl-C stops it at once (SIGTERM would drain for run()'s 30 s grace while the page is open).
    player.process.send_signal(signal.SIGINT)
    assert player.process.wait(10) == 0, player.log_tail()
