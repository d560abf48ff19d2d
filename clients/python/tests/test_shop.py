"""The shop example (clients/python/examples/shop.py) against a real server: the program runs on
its own, as a person would start it, and the test is the person, driving the session from the
link it prints."""

import time

import pytest

import stackcast


@pytest.fixture
def shop(url, run_example):
    return run_example("shop.py", url)


def centre(node):
    x, y, w, h = node.frame
    return x + w / 2, y + h / 2


def tap(person, role, name):
    person.tap(*centre(person.node(role=role, name=name)))
    person.settle()


def wait_for(condition, what, timeout=10):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return
        time.sleep(0.05)
    raise AssertionError(f"still waiting for {what}")


def badge(person):
    found = person.nodes(role="badge", name="Cart")
    return found[0].text if found else None


def test_a_person_shops_while_the_program_keeps_the_cart(url, shop):
    with stackcast.connect(url, session=shop) as person:
        person.settle()
        assert [n.name for n in person.nodes(role="row")] == ["Green Tea", "Coffee Beans", "Honey", "Sourdough"]
        tap(person, "row", "Green Tea")
        tap(person, "row", "Green Tea")
        tap(person, "row", "Honey")
        # The badge counts, and no page was pushed.
        wait_for(lambda: badge(person) == "3", "the badge to read 3")
        assert [p["screen"] for p in person.query_state()["tabs"][0]["stack"]] == ["Shop"]

        tap(person, "tab", "Cart")
        assert [n.name for n in person.nodes(role="row")] == ["Green Tea", "Honey", "Checkout"]
        texts = [n.text for n in person.nodes() if n.text]
        assert "2 × 3.50" in texts and "13.20" in texts, texts
        # The items are a section of their own, under a header, their footer counting them.
        assert person.node(role="header", name="Items").text == "ITEMS"
        assert "3 in the cart. Swipe an item left to remove it." in texts, texts

        # Honey is swiped away: the program hears it and the total and badge follow.
        x, y = centre(person.node(role="row", name="Honey"))
        person.drag(x + 120, y, -260, 0)
        person.settle()
        wait_for(lambda: badge(person) == "2", "the badge to read 2")
        person.settle()
        assert [n.name for n in person.nodes(role="row")] == ["Green Tea", "Checkout"]
        assert "7.00" in [n.text for n in person.nodes() if n.text]

        # Checkout opens a sheet; Pay empties the cart and closes it.
        tap(person, "row", "Checkout")
        wait_for(lambda: person.query_state().get("presented"), "the checkout sheet")
        person.settle()
        assert person.query_state()["presented"][0]["style"] == "sheet"
        tap(person, "row", "Pay 7.00")
        wait_for(lambda: "presented" not in person.query_state() and badge(person) is None, "the sheet to close and the cart to empty")
        person.settle()
        assert [n.name for n in person.nodes(role="row")] == ["Checkout"]
        assert "Your cart is empty." in [n.text for n in person.nodes() if n.text]
