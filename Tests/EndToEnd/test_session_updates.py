"""What every viewer learns of the session it shows (docs/protocol.md §2): the settings and the
apps in `welcome`, the server's `--app` for a hello that names none, and with the
`sessionUpdates` feature a `viewport` or `settings` message to every viewer that asked whenever
the controller changes them (a watcher draws the controller's picture, and a reloaded viewer
shows slow motion as it is). Connections that did not ask get only what v1 always sent."""

from stackcast_client import VIEWPORT, open_client, run, session

UPDATES = ["sessionUpdates"]
DEFAULT_SETTINGS = {"busyPolicy": "queue", "slowMotion": 1, "popGesture": {"enabled": True, "range": None},
                    "transition": "slide"}


def test_a_hello_without_app_gets_the_servers_app_its_viewport_and_the_settings(start_server):
    server = start_server("--app", "tablet")

    async def body():
        client = await open_client(server.ws_url)
        welcome = await client.hello(app=None, viewport=None, features=UPDATES)
        assert welcome["type"] == "welcome", welcome
        assert welcome["app"] == "tablet"
        assert welcome["viewport"] == {"width": 1024, "height": 768, "scale": 2,
                                       "safeArea": {"top": 24, "left": 0, "bottom": 0, "right": 0}}
        assert welcome["apps"] == ["phone", "tablet", "stack"]
        assert welcome["settings"] == DEFAULT_SETTINGS
        assert welcome["features"] == UPDATES
        await client.close()
    run(body())


def test_an_unknown_app_is_refused_with_the_apps_there_are(server):
    async def body():
        client = await open_client(server.ws_url)
        error = await client.hello(app="nope")
        assert error == {"type": "error", "code": "not_found",
                         "message": "no app named nope; available: phone, tablet, stack",
                         "apps": ["phone", "tablet", "stack"]}
        await client.close()
    run(body())


def test_a_resize_reaches_the_watchers_that_asked_before_its_frame(server):
    async def body():
        controller = await session(server.ws_url, app="phone", features=UPDATES)
        watch_token = controller.messages(type="welcome")[0]["watchToken"]
        watcher = await session(server.ws_url, session=watch_token, features=UPDATES)
        plain = await session(server.ws_url, session=watch_token)
        assert watcher.messages(type="welcome")[0]["viewport"]["width"] == VIEWPORT["width"]

        start, plain_start = watcher.mark(), plain.mark()
        resized = {"width": 700, "height": 500, "scale": 2, "safeArea": {"top": 24, "left": 0, "bottom": 0, "right": 0}}
        await controller.send({"type": "resize", "width": 700, "height": 500, "scale": 2, "safeArea": {"top": 24}})
        message = await watcher.wait_message(lambda m: m["type"] == "viewport", since=start, what="a viewport message")
        assert message == {"type": "viewport", "viewport": resized}
        # The frame laid out for the new viewport comes after it: the watcher can size its canvas first.
        types = [m["type"] for m in watcher.messages(since=start)]
        assert types.index("viewport") == 0, types
        await watcher.wait_until(lambda: any(p["frame"][2] == 700 for p in watcher.pages()), what="a 700-wide page")
        await plain.wait_until(lambda: any(p["frame"][2] == 700 for p in plain.pages()), what="a 700-wide page")
        assert {m["type"] for m in plain.messages(since=plain_start)} == {"frame"}
        await controller.wait_message(lambda m: m["type"] == "viewport", what="the controller's own viewport message")

        # A watcher joining now is welcomed with the session's viewport, not its own.
        late = await session(server.ws_url, session=watch_token, viewport=VIEWPORT, features=UPDATES)
        assert late.messages(type="welcome")[0]["viewport"] == resized
        for client in (controller, watcher, plain, late):
            await client.close()
    run(body())


def test_slow_motion_is_told_to_every_viewer_and_a_reload_sees_it(server):
    async def body():
        controller = await session(server.ws_url, app="phone", features=UPDATES)
        welcome = controller.messages(type="welcome")[0]
        watcher = await session(server.ws_url, session=welcome["watchToken"], features=UPDATES)

        start = watcher.mark()
        value = await controller.ok("configure", slowMotion=10)
        message = await watcher.wait_message(lambda m: m["type"] == "settings", since=start, what="a settings message")
        assert message == {"type": "settings", "settings": {**DEFAULT_SETTINGS, "slowMotion": 10}}
        assert message["settings"] == value

        # The controller reloads: a new connection resuming with its token is welcomed with slow motion on.
        await controller.close()
        reloaded = await session(server.ws_url, session=welcome["session"], features=UPDATES)
        assert reloaded.messages(type="welcome")[0]["settings"]["slowMotion"] == 10

        start = watcher.mark()
        await reloaded.ok("configure", slowMotion=1, busyPolicy="reject")
        message = await watcher.wait_message(lambda m: m["type"] == "settings", since=start, what="a settings message")
        assert message["settings"] == {**DEFAULT_SETTINGS, "busyPolicy": "reject"}
        for client in (watcher, reloaded):
            await client.close()
    run(body())
