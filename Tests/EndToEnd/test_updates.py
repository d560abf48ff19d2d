"""Pages that change in place through the protocol (docs/protocol.md §5.9, §5.2): `update` of a
page's title and rows, and rows swiped left and deleted, whose action the controller hears.

A stack app on a phone without a safe area (390 x 844): the bar is 44 pt high, the section's first
row at y = 79, a row every 44 pt."""

from stackcast_client import run, session

VIEWPORT = {"width": 390, "height": 844, "scale": 3}
ROW_Y, ROW_H = 79, 44


def error(reply, code):
    assert reply["type"] == "error" and reply["code"] == code, reply
    return reply["message"]


def cart_screen(items):
    return {"name": "Cart", "title": "Cart", "rows": [
        {"title": item, "detail": "1", "delete": {"emit": "remove", "value": {"item": item}}} for item in items]}


async def cart(url, items=("Apples", "Bread", "Cheese")):
    client = await session(url, viewport=VIEWPORT)
    await client.ok("setRoot", root={"kind": "stack", "root": cart_screen(items)})
    await client.settle()
    return client


def rows(client):
    return [(n["name"], n["frame"][1]) for n in client.find(role="row")]


def test_update_changes_the_title_and_rows_in_place_and_refuses_a_bad_edit(server):
    async def body():
        client = await cart(server.ws_url)
        vc = (await client.state())["stack"][0]["vc"]
        assert rows(client) == [("Apples", ROW_Y), ("Bread", ROW_Y + ROW_H), ("Cheese", ROW_Y + 2 * ROW_H)]
        assert await client.ok("update", title="Cart (3)", rows=[
            {"insert": {"title": "Dates", "detail": "2"}, "at": 0}, {"delete": 2}, {"move": 2, "to": 1}]) == {"vc": vc}
        await client.settle()
        assert rows(client) == [("Dates", ROW_Y), ("Cheese", ROW_Y + ROW_H), ("Apples", ROW_Y + 2 * ROW_H)]
        assert client.find(role="title")[0]["name"] == "Cart (3)"
        message = error(await client.command("update", rows=[{"delete": 0}, {"delete": 5}]), "bad_message")
        assert message == "rows[1].delete: no row 5; the page has 2 rows then (0 to 1)"
        assert error(await client.command("update", rows=[{"delete": 0, "move": 1, "to": 0}]), "bad_message") == \
            "rows[0]: expected exactly one of insert, delete, reload and move, got delete, move"
        assert error(await client.command("update", vc="vc99", title="x"), "not_found") == "no controller vc99 in this app"
        await client.settle()
        assert [name for name, _ in rows(client)] == ["Dates", "Cheese", "Apples"]
        await client.close()
    run(body())


def test_a_row_swiped_past_half_is_deleted_and_the_controller_hears_its_action(server):
    async def body():
        client = await cart(server.ws_url)
        start = client.mark()
        y = ROW_Y + ROW_H + ROW_H / 2             # Bread
        t = 1000.0
        await client.pointer("down", 330, y, t)
        for step in range(1, 16):
            t += 16
            x = 330 - 16 * step
            await client.pointer("move", x, y, t, samples=[[x, y, t]])
        await client.pointer("up", 330 - 240, y, t + 200)
        event = await client.wait_message(lambda m: m.get("type") == "event" and m.get("group") == "action", since=start)
        assert (event["name"], event["value"]) == ("remove", {"item": "Bread"}), event
        await client.settle()
        assert rows(client) == [("Apples", ROW_Y), ("Cheese", ROW_Y + ROW_H)]
        assert client.find(role="delete") == []

        # Half the button's width: it rests open; a tap on Delete deletes.
        start = client.mark()
        y = ROW_Y + ROW_H / 2                      # Apples
        t += 1000
        await client.pointer("down", 330, y, t)
        for step in range(1, 7):
            t += 16
            await client.pointer("move", 330 - 10 * step, y, t, samples=[[330 - 10 * step, y, t]])
        await client.pointer("up", 270, y, t + 300)
        await client.settle()
        button = client.find(role="delete")
        assert button and button[0]["frame"][2] == 80, button
        x0, y0, w, h = button[0]["frame"]
        t += 1000
        await client.pointer("down", x0 + w / 2, y0 + h / 2, t)
        await client.pointer("up", x0 + w / 2, y0 + h / 2, t + 60)
        event = await client.wait_message(lambda m: m.get("type") == "event" and m.get("group") == "action", since=start)
        assert event["value"] == {"item": "Apples"}
        await client.settle()
        assert rows(client) == [("Cheese", ROW_Y)]
        await client.close()
    run(body())


def test_sections_draw_their_texts_and_update_addresses_rows_by_section(server):
    async def body():
        client = await session(server.ws_url, viewport=VIEWPORT)
        await client.ok("setRoot", root={"kind": "stack", "root": {"name": "Settings", "sections": [
            {"header": "Account", "footer": "Used to sign in.", "rows": [{"title": "Name"}, {"title": "Email"}]},
            {"rows": [{"title": "Wi-Fi", "switch": True}]}]}})
        await client.settle()
        # Header 17 pt under the 44 pt bar, its card 6 pt under its 18 pt line; the next card
        # 6 + 16 + 20 + 15 pt under it.
        header = client.find(role="header")[0]
        assert (header["name"], header["text"], header["frame"]) == ("Account", "ACCOUNT", [32, 61, 326, 18])
        assert rows(client) == [("Name", 85), ("Email", 129), ("Wi-Fi", 230)]
        assert [n["frame"][1] for n in client.find(role="section")] == [85, 230]
        await client.ok("update", rows=[{"move": 1, "section": 0, "to": 1, "toSection": 1}],
                        sections=[{"section": 0, "footer": ""}, {"section": 1, "header": "Radios"}])
        await client.settle()
        assert [n["name"] for n in client.find(role="header")] == ["Account", "Radios"]
        assert not [n for n in client.find() if n.get("text") == "Used to sign in."]
        # Account's card: one row, 20 pt; Radios 15 + 18 + 6 pt; its rows Wi-Fi then Email.
        assert rows(client) == [("Name", 85), ("Wi-Fi", 188), ("Email", 232)]
        message = error(await client.command("update", rows=[{"delete": 0, "section": 2}]), "bad_message")
        assert message == "rows[0].section: no section 2; the page has 2 sections (0 to 1)"
        assert error(await client.command("setRoot", root={"kind": "stack", "root": {"name": "S", "rows": [], "sections": []}}),
                     "bad_message") == "root.root.rows: a screen has rows or sections, not both (put the rows in a section)"
        await client.close()
    run(body())
