"""A session recorded in the browser replays to the same frames headless and in the viewer.

The viewer (headless Chromium, binary protocol v2) drives a `--record` server: a tap on a row
pushes a page, a drag from the left edge pops it. Once the server has stopped (which writes the
recording), `stackcast replay --check` rebuilds the session with no server and must make every
frame with the hash the server recorded. A second server on the same folder then serves the
recording to `?replay=NAME`: the viewer's frames carry the same hashes as the headless replay's,
and play, step and the scrubber show the frames they name.
"""

import subprocess

from test_viewer import VIEWPORT, artifacts, click_at, drag, driver, start_server, wait_for_viewer  # noqa: F401 (fixtures)
from stackcast_testing import ROOT, server_binary, wait_until


def pages(driver):
    return driver.execute_script("return window.stackcast.nodes().filter(node => node.role === 'page')")


def test_a_browser_recording_replays_to_the_same_frame_hashes(start_server, driver, artifacts, tmp_path):
    record = tmp_path / "recordings"
    server = start_server("phone", "--record", str(record))
    driver.get(server.url)
    wait_for_viewer(driver)
    first = {page["id"] for page in pages(driver)}
    row = driver.execute_script("return window.stackcast.nodes().find(node => node.role === 'row') || null")
    assert row, "the viewer's display list has no row to tap"
    x, y, w, h = row["frame"]
    click_at(driver, x + w / 2, y + h / 2)
    wait_until(lambda: any(page["id"] not in first and abs(page["frame"][0]) < 0.5 for page in pages(driver)), 5,
               "the pushed page at rest")
    drag(driver, (20, VIEWPORT["height"] / 2), (320, VIEWPORT["height"] / 2))
    wait_until(lambda: {page["id"] for page in pages(driver)} <= first, 5, "the pushed page popped by the drag")
    # Leave the page first: a viewer whose server stops tries to reconnect, which the console logs.
    driver.get("about:blank")
    errors = [entry for entry in driver.get_log("browser") if entry["level"] == "SEVERE"]
    assert not errors, f"browser console errors while recording: {errors}"
    assert server.stop() == 0, server.log()

    files = list(record.glob("*.jsonl"))
    assert len(files) == 1, files
    # A frame line, or one made ahead for the viewer's timelines (docs/recording.md).
    recorded = [line for line in files[0].read_text().splitlines() if '"frame":' in line or '"ahead":' in line]
    assert len(recorded) > 10, "a push and a drag make more than ten frames"
    headless = subprocess.run([str(server_binary()), "replay", "--check", str(files[0])],
                              cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert headless.returncode == 0, headless.stderr
    hashes = [line.split("hash=")[1] for line in headless.stdout.splitlines() if line.startswith("frame ")]
    assert len(hashes) == len(recorded)
    assert "every hash as recorded" in headless.stdout.splitlines()[-1]

    # A recording is served only with a token: the operator's here (its session's would do too).
    operator = "browser-replay-operator-token"
    replayer = start_server("phone", "--record", str(record), "--operator-token", operator)
    name = files[0].stem
    driver.get(f"{replayer.url}?replay={name}&app=phone&token={operator}")
    wait_until(lambda: driver.execute_script("return window.stackcast && window.stackcast.replay"), 15,
               "the replay to load")
    frames = driver.execute_script("return window.stackcast.replay.frames")
    assert [frame["hash"] for frame in frames] == hashes
    assert all(frame["matches"] for frame in frames)

    def label():
        return driver.find_element("id", "replay-frame").get_attribute("data-seq")

    assert label() == str(frames[0]["seq"])
    driver.find_element("id", "replay-step").click()
    assert label() == str(frames[1]["seq"])
    # The scrubber shows the frame it is set to.
    middle = len(frames) // 2
    driver.execute_script("""
        const scrubber = document.getElementById('replay-scrubber');
        scrubber.value = arguments[0];
        scrubber.dispatchEvent(new Event('input'));""", middle)
    assert driver.execute_script("return window.stackcast.replay.index") == middle
    driver.save_screenshot(str(artifacts / "replay-middle.png"))
    # Play runs to the last frame on the recording's own clock, then pauses.
    driver.find_element("id", "replay-play").click()
    wait_until(lambda: driver.execute_script("return window.stackcast.replay.index") == len(frames) - 1, 20,
               "playback to reach the last frame")
    wait_until(lambda: driver.find_element("id", "replay-play").text == "Play", 5, "playback to pause at the end")
    assert {node["id"] for node in driver.execute_script("return window.stackcast.replay.nodes()")
            if node.get("role") == "page"} <= first
    errors = [entry for entry in driver.get_log("browser") if entry["level"] == "SEVERE"]
    assert not errors, f"browser console errors: {errors}"
    assert replayer.stop() == 0, replayer.log()
