"""The viewer's shell in real Chromium against the real server: the session decides the picture,
every state a person can meet is said in words, and the window's size shapes the shell.

- A watcher of a session whose viewport differs from its own window draws the controller's
  picture, scaled: the two canvases, shrunk to one size, hold the same pixels; after the
  controlling `fit` window resizes, the watcher follows.
- `?app=nope` shows a banner with links to the apps there are (not "Connecting…" for ever).
- A dead session token (a controller's, and a watcher's) is said in the banner; a takeover by
  another window offers to take control back; a stopped server counts down to the next try.
- Slow motion shows the session's setting after a reload and in a watcher.
- At 390 px wide the toolbar folds into a menu and the screen fills the window; at 1600 × 900
  the device grows to the height there is. Screenshots at 390 × 844, 1200 × 1000 and 1600 × 900
  go to .build/test-artifacts/screenshots/.
"""

import time

from selenium.webdriver.common.by import By

from stackcast_testing import wait_until
from test_viewer import (  # noqa: F401 (fixtures)
    ARTIFACTS, artifacts, canvas_rect, driver, set_inner_size, start_server, wait_for_viewer,
)

SCREENSHOTS = ARTIFACTS / "screenshots"
WINDOWS = {"390x844": (390, 844), "1200x1000": (1200, 1000), "1600x900": (1600, 900)}
# Two drawings of the same picture at different sizes, shrunk to one size, differ in at most this
# fraction of pixels (text and edges fall on different pixels); a picture cut by a tenth, as a
# watcher drawing at its own viewport would show it, in far more (checked on the way).
PIXEL_TOLERANCE = 60
SAME_PICTURE = 0.01
CROPPED_PICTURE = 0.02


def shrunk_difference(driver, watcher_frame_id, crop=1.0):
    """The fraction of pixels that differ (by more than PIXEL_TOLERANCE, summed over R, G and B)
    between the controller's canvas and the canvas of the watcher in iframe `watcher_frame_id`,
    both shrunk to 64 pixels wide. With `crop` < 1,
    the watcher's canvas is first cut to that fraction of its width and height (from the top
    left), as a watcher drawing the session at its own, smaller viewport would have shown it."""
    return driver.execute_script("""
        const shrink = (canvas, width, height, crop) => {
          const out = document.createElement('canvas');
          out.width = width; out.height = height;
          const ctx = out.getContext('2d');
          ctx.imageSmoothingQuality = 'high';
          ctx.drawImage(canvas, 0, 0, canvas.width * crop, canvas.height * crop, 0, 0, width, height);
          return ctx.getImageData(0, 0, width, height).data;
        };
        const own = document.querySelector('canvas');
        const other = document.getElementById(arguments[0]).contentDocument.querySelector('canvas');
        const width = 64, height = Math.round(64 * own.height / own.width);
        const a = shrink(own, width, height, 1), b = shrink(other, width, height, arguments[1]);
        let differing = 0;
        for (let i = 0; i < a.length; i += 4) {
          const d = Math.abs(a[i] - b[i]) + Math.abs(a[i + 1] - b[i + 1]) + Math.abs(a[i + 2] - b[i + 2]);
          if (d > arguments[2]) differing++;
        }
        return differing / (a.length / 4);
    """, watcher_frame_id, crop, PIXEL_TOLERANCE)


def banner(driver):
    """The banner's text and its buttons' and links' labels, or None when hidden."""
    return driver.execute_script("""
        const banner = document.getElementById('banner');
        if (banner.hidden) return null;
        return { text: banner.querySelector('.banner-text').textContent,
                 actions: [...banner.querySelectorAll('button:not(.banner-close), a')].map((e) => e.textContent),
                 links: [...banner.querySelectorAll('a')].map((e) => e.href) };
    """)


def status_word(driver):
    return driver.execute_script("return document.getElementById('status').textContent")


def console_errors(driver):
    # A refused hello or a stopped server is reported by the banner; the browser itself logs a
    # failed WebSocket, which is not the viewer's error.
    return [entry for entry in driver.get_log("browser")
            if entry["level"] == "SEVERE" and "WebSocket connection" not in entry["message"]]


def test_a_watcher_draws_the_controllers_picture_scaled_into_its_own_window(start_server, driver, artifacts):
    server = start_server()
    set_inner_size(driver, 1200, 1000)
    # The controller lays the session out at its window's size: no device has that size.
    driver.get(server.url + "?device=fit")
    wait_for_viewer(driver)
    token = driver.execute_script("return window.stackcast.session")
    watch = driver.execute_script("return document.getElementById('watch-link').href")
    assert "role=view" in watch and token not in watch
    # The watcher, in a portrait frame over the page: its own window is nothing like the session's.
    driver.execute_script("""
        const frame = document.createElement('iframe');
        frame.id = 'watcher';
        frame.src = arguments[0];
        frame.style.cssText = 'position:fixed;right:0;bottom:0;width:420px;height:640px;border:0;z-index:99';
        document.body.append(frame);
    """, watch)

    def watcher(expression):
        """`expression` evaluated with `w`, the watcher's window.stackcast, and `d`, its document."""
        return driver.execute_script(
            "const frame = document.getElementById('watcher'), w = frame.contentWindow.stackcast, d = frame.contentDocument;"
            f"return w && ({expression})")

    wait_until(lambda: watcher("w.connected && w.nodes().length > 0"), 15, "the watcher to connect and draw")
    assert watcher("w.role") == "view"

    def same_picture():
        session = driver.execute_script("return window.stackcast.sessionViewport")
        shown = watcher("w.layout")
        frame = driver.execute_script(
            "const c = document.getElementById('watcher').contentDocument.querySelector('canvas').getBoundingClientRect();"
            "return [c.left, c.top, c.width, c.height]")
        return (shown and session and [shown["width"], shown["height"]] == [session["width"], session["height"]]
                and watcher("w.lastSeq") == driver.execute_script("return window.stackcast.lastSeq")
                and frame[2] <= 420 + 0.5 and frame[3] <= 640 + 0.5
                and abs(frame[2] / frame[3] - session["width"] / session["height"]) < 0.01
                and shrunk_difference(driver, "watcher") < SAME_PICTURE)

    wait_until(same_picture, 10, lambda: f"the watcher to draw the controller's picture: session "
               f"{driver.execute_script('return window.stackcast.sessionViewport')}, watcher's layout "
               f"{watcher('w.layout')}, difference {shrunk_difference(driver, 'watcher'):.1f}")
    time.sleep(0.3)
    driver.save_screenshot(str(artifacts / "shell-watcher-letterboxed.png"))
    # The watcher's picker shows the session's size and cannot change it.
    assert watcher("d.getElementById('device-picker').disabled") is True
    assert watcher("d.getElementById('device-picker').selectedOptions[0].textContent") == \
        "{width} × {height}".format(**driver.execute_script("return window.stackcast.sessionViewport"))

    # The controlling window resizes: the session's viewport changes, and the watcher follows.
    before = driver.execute_script("return window.stackcast.sessionViewport")
    set_inner_size(driver, 900, 1000)
    wait_until(lambda: driver.execute_script("return window.stackcast.sessionViewport")["width"] != before["width"], 5,
               "the controller to resize the session")
    # Until the watcher has drawn the new layout, its picture is another one.
    wait_until(same_picture, 10, lambda: f"the watcher to follow the resize: watcher's layout {watcher('w.layout')}, "
               f"difference {shrunk_difference(driver, 'watcher'):.1f}")
    assert watcher("w.layout.width") == driver.execute_script("return window.stackcast.sessionViewport.width")

    # The check can fail: the same canvas cut by a tenth, as a cropping watcher would show it, does.
    assert shrunk_difference(driver, "watcher", crop=0.9) > CROPPED_PICTURE
    assert not console_errors(driver), console_errors(driver)


def test_an_unknown_app_says_so_and_lists_the_apps(start_server, driver, artifacts):
    server = start_server("tablet")
    driver.get(server.url + "?app=nope")
    wait_until(lambda: banner(driver), 10, "a banner")
    shown = banner(driver)
    assert shown["text"] == "There is no app named “nope”. Open one of these:", shown
    assert shown["actions"] == ["phone", "tablet", "stack"], shown
    assert all("app=" + name in link and "nope" not in link for name, link in zip(shown["actions"], shown["links"])), shown
    assert status_word(driver) == "Not connected"
    # The banner lies over the stage: without it the device is exactly where it is.
    with_banner = canvas_rect(driver)
    toolbar = driver.execute_script("return document.getElementById('toolbar').getBoundingClientRect().height")
    assert toolbar < 50, f"the toolbar wrapped: {toolbar} px"
    driver.execute_script("document.getElementById('banner').hidden = true")
    assert canvas_rect(driver) == with_banner
    driver.execute_script("document.getElementById('banner').hidden = false")
    driver.save_screenshot(str(artifacts / "shell-unknown-app.png"))

    # A link opens that app in a new session.
    driver.find_element(By.LINK_TEXT, "phone").click()
    wait_for_viewer(driver)
    assert driver.execute_script("return document.getElementById('app-picker').value") == "phone"
    assert banner(driver) is None


def test_the_servers_app_is_the_one_a_url_without_app_gets(start_server, driver):
    server = start_server("tablet")
    set_inner_size(driver, 1366, 1000)
    driver.get(server.url)
    wait_for_viewer(driver)
    assert driver.execute_script("return document.getElementById('app-picker').value") == "tablet"
    # The device follows the app: the iPad, and the session laid out at its size.
    wait_until(lambda: driver.execute_script("return window.stackcast.sessionViewport.width") == 1024, 5, "the iPad's viewport")
    assert "device-ipad" in driver.execute_script("return document.getElementById('device').className")
    assert driver.execute_script("return document.getElementById('device-picker').value") == "ipad"
    sidebars = [node for node in driver.execute_script("return window.stackcast.nodes()") if node.get("role") == "sidebar"]
    assert sidebars and sidebars[0]["frame"][3] == 768, sidebars


def test_dead_sessions_takeover_and_a_stopped_server_are_said(start_server, driver, artifacts):
    server = start_server()
    # A controller whose token has ended (the server restarted, say): a new session, and a banner.
    driver.get(server.url)
    wait_for_viewer(driver)
    driver.execute_script("sessionStorage.setItem('stackcast.session', '0123456789abcdef0123456789abcdef')")
    driver.refresh()
    wait_for_viewer(driver)
    wait_until(lambda: banner(driver), 5, "a banner about the ended session")
    assert banner(driver)["text"] == \
        "Your previous session has ended (it expired or the server restarted), so a new one was started."
    assert driver.execute_script("return window.stackcast.session") != "0123456789abcdef0123456789abcdef"
    driver.save_screenshot(str(artifacts / "shell-session-ended.png"))
    driver.find_element(By.CSS_SELECTOR, "#banner .banner-close").click()
    assert banner(driver) is None

    # A watcher of a session that does not exist.
    first = driver.current_window_handle
    driver.switch_to.new_window("tab")
    driver.get(server.url + "?session=0123456789abcdef0123456789abcdef&role=view")
    wait_until(lambda: banner(driver), 10, "a banner about the watched session")
    assert banner(driver) == {"text": "The session you were watching has ended.", "actions": ["Start a new session"], "links": []}
    assert status_word(driver) == "Not connected"

    # Another window takes control of the first tab's session; the first says so and takes it back.
    driver.switch_to.window(first)
    token = driver.execute_script("return window.stackcast.session")
    second = driver.window_handles[-1]
    driver.switch_to.window(second)
    driver.get(server.url + f"?session={token}")
    wait_for_viewer(driver)
    assert driver.execute_script("return window.stackcast.role") == "control"
    driver.switch_to.window(first)
    wait_until(lambda: banner(driver), 10, "a banner about the takeover")
    assert banner(driver) == {"text": "Another window took control of this session.", "actions": ["Take back control"], "links": []}
    driver.save_screenshot(str(artifacts / "shell-taken-over.png"))
    driver.find_element(By.XPATH, "//div[@id='banner']//button[text()='Take back control']").click()
    wait_for_viewer(driver)
    assert driver.execute_script("return window.stackcast.session") == token
    wait_until(lambda: banner(driver) is None, 5, "the banner to go")

    # The server stops: the banner counts down to the next try.
    server.stop()
    wait_until(lambda: banner(driver) and "Trying again" in banner(driver)["text"], 15, "a retry banner")
    shown = banner(driver)
    assert shown["text"].startswith(("Lost the connection to the server.", "Can’t reach the server.")), shown
    assert shown["actions"] == ["Retry now"], shown
    assert status_word(driver) == "Reconnecting…"
    driver.save_screenshot(str(artifacts / "shell-server-gone.png"))


def test_slow_motion_is_the_sessions_after_a_reload_and_for_watchers(start_server, driver):
    server = start_server()
    driver.get(server.url)
    wait_for_viewer(driver)
    pressed = "return document.getElementById('slow-motion').getAttribute('aria-pressed')"
    assert driver.execute_script(pressed) == "false"
    driver.find_element(By.ID, "slow-motion").click()
    wait_until(lambda: driver.execute_script(pressed) == "true", 5, "slow motion on")
    watch = driver.execute_script("return document.getElementById('watch-link').href")
    driver.refresh()
    wait_for_viewer(driver)
    assert driver.execute_script(pressed) == "true", "the reloaded viewer shows the session's slow motion"
    state = driver.execute_script("return document.getElementById('slow-motion').title")
    assert "now 10×" in state, state

    # A watcher shows it too, cannot change it, and sees it change.
    controller = driver.current_window_handle
    driver.switch_to.new_window("tab")
    driver.get(watch)
    wait_for_viewer(driver)
    assert driver.execute_script(pressed) == "true"
    assert driver.execute_script("return document.getElementById('slow-motion').disabled") is True
    watcher = driver.current_window_handle
    driver.switch_to.window(controller)
    driver.find_element(By.ID, "slow-motion").click()
    wait_until(lambda: driver.execute_script(pressed) == "false", 5, "slow motion off")
    driver.switch_to.window(watcher)
    wait_until(lambda: driver.execute_script(pressed) == "false", 5, "the watcher to see slow motion off")
    assert not console_errors(driver), console_errors(driver)


def test_the_shell_at_phone_tablet_and_desktop_widths(start_server, driver):
    server = start_server()
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    driver.get(server.url)
    wait_for_viewer(driver)
    displayed = "return getComputedStyle(document.getElementById(arguments[0])).display !== 'none' && " \
                "document.getElementById(arguments[0]).getBoundingClientRect().width > 0"
    for name, (width, height) in WINDOWS.items():
        set_inner_size(driver, width, height)
        time.sleep(0.4)
        driver.execute_script("document.getElementById('hud-toggle').click()")
        time.sleep(1.4)  # nothing moves: the HUD says so
        hud = driver.execute_script("return document.getElementById('hud').textContent")
        assert "idle" in hud and "fps drawn0" not in hud, hud
        driver.save_screenshot(str(SCREENSHOTS / f"phone-{name}.png"))
        driver.execute_script("document.getElementById('hud-toggle').click()")
        left, top, cw, ch = canvas_rect(driver)
        toolbar = driver.execute_script("return document.getElementById('toolbar').getBoundingClientRect().height")
        assert toolbar < 50, f"the toolbar wrapped at {name}: {toolbar} px"
        assert abs(cw / ch - 390 / 844) < 0.01 and left >= 0 and left + cw <= width + 0.5 and top + ch <= height + 0.5
        if width == 390:
            # The controls fold into the menu; the screen fills the window's height, nearly its width.
            assert driver.execute_script(displayed, "menu-toggle")
            assert not driver.execute_script(displayed, "app-picker")
            assert ch >= height - toolbar - 1 and cw >= 0.94 * width, canvas_rect(driver)
            driver.find_element(By.ID, "menu-toggle").click()
            assert driver.execute_script(displayed, "app-picker") and driver.execute_script(displayed, "slow-motion")
            assert canvas_rect(driver) == [left, top, cw, ch], "the open menu moved the device"
            driver.save_screenshot(str(SCREENSHOTS / f"phone-{name}-menu.png"))
            driver.find_element(By.TAG_NAME, "body").send_keys("\ue00c")  # Escape
            assert not driver.execute_script(displayed, "app-picker")
        else:
            assert not driver.execute_script(displayed, "menu-toggle")
            assert driver.execute_script(displayed, "app-picker")
            # The device (its screen and bezel) takes the height there is, less a small margin.
            assert ch >= 0.9 * (height - toolbar), (name, canvas_rect(driver))

    # The tablet app on its iPad at each size.
    driver.execute_script("sessionStorage.clear()")
    driver.get(server.url + "?app=tablet")
    wait_for_viewer(driver)
    for name, (width, height) in WINDOWS.items():
        set_inner_size(driver, width, height)
        time.sleep(0.5)
        left, top, cw, ch = canvas_rect(driver)
        assert abs(cw / ch - 1024 / 768) < 0.01 and left >= 0 and left + cw <= width + 0.5
        driver.save_screenshot(str(SCREENSHOTS / f"tablet-{name}.png"))
    assert not console_errors(driver), console_errors(driver)
