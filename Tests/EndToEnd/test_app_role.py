"""The program behind a session (role `app`, docs/protocol.md §2): it joins by the control token
while a person's controller sends the input, hears the session's `action` events, changes the
app with commands, and sends no input; one program and one controller at a time, neither
replacing the other."""

from stackcast_client import open_client, run, session

VIEWPORT = {"width": 390, "height": 844, "scale": 3}
SHOP = {"kind": "stack", "root": {"name": "Shop", "title": "Shop", "rows": [
    {"title": "Tea", "detail": "3.50", "action": {"emit": "buy", "value": {"sku": "tea"}}},
    {"title": "Coffee", "detail": "4.20", "action": {"emit": "buy", "value": {"sku": "coffee"}}}]}}
ROW_Y, ROW_H = 79, 44


async def program(url, token):
    client = await open_client(url)
    welcome = await client.hello(app=None, viewport=None, session=token, role="app")
    assert welcome["type"] == "welcome" and welcome["role"] == "app", welcome
    return client


async def tap(client, x, y, t):
    await client.pointer("down", x, y, t)
    await client.pointer("up", x, y, t + 60)


def test_the_program_hears_actions_and_changes_the_app_while_the_person_taps(server):
    async def body():
        person = await session(server.ws_url, viewport=VIEWPORT)
        await person.ok("setRoot", root=SHOP)
        await person.settle()
        app = await program(server.ws_url, person.messages(type="welcome")[0]["session"])
        start = app.mark()
        await tap(person, 195, ROW_Y + ROW_H / 2, 1000)
        event = await app.wait_message(lambda m: m.get("type") == "event" and m.get("group") == "action", since=start)
        assert (event["name"], event["value"]) == ("buy", {"sku": "tea"}), event
        # The program answers: a title that counts, without a push.
        assert await app.ok("update", title="Shop (1)") == {"vc": event["vc"]}
        await person.settle()
        assert person.find(role="title")[0]["name"] == "Shop (1)"
        # It sends no input.
        await app.send({"type": "pointer", "phase": "down", "x": 10, "y": 10, "t": 5})
        refused = await app.wait_message(lambda m: m.get("type") == "error", since=start)
        assert (refused["code"], refused["message"]) == (
            "forbidden", "a program (role app) sends commands; input comes from the session's controller")
        await app.close()
        await person.close()
    run(body())


def test_one_program_and_one_controller_at_a_time_and_tokens_that_cannot_join(server):
    async def body():
        person = await session(server.ws_url, viewport=VIEWPORT)
        welcome = person.messages(type="welcome")[0]
        token, watch = welcome["session"], welcome["watchToken"]
        first = await program(server.ws_url, token)
        # A person coming back (a resume) takes control from the old controller, not from the program.
        again = await session(server.ws_url, viewport=VIEWPORT, session=token)
        assert await person.wait_closed() == 1008
        assert not first.closed
        # A second program takes over from the first.
        second = await program(server.ws_url, token)
        assert await first.wait_closed() == 1008
        assert "vc" in await second.ok("push", screen={"name": "Pushed"})
        assert not again.closed

        refused = await open_client(server.ws_url)
        reply = await refused.hello(app=None, viewport=None, session=watch, role="app")
        assert (reply["code"], reply["message"]) == (
            "forbidden", "a program (role app) joins a session by its control token; a watch token only watches")
        reply = await refused.hello(app=None, viewport=None, role="app")
        assert (reply["code"], reply["message"]) == (
            "bad_message", "session: missing; a program (role app) joins a session by its control token")
        for client in (second, again, refused):
            await client.close()
    run(body())
