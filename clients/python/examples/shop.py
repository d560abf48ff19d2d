"""A shop whose logic is this program: a person shops in the viewer, the program keeps the cart.

    Scripts/serve &                               # a Stackcast server on port 8080
    python3 clients/python/examples/shop.py       # prints the link to open in a browser

Tapping a product adds it to the cart: the Cart tab's badge counts it and the cart's rows change
in place, without a push. In the cart a row swiped left is deleted; Checkout opens a sheet whose
Pay empties the cart and closes it.
"""

import sys

import stackcast

PRODUCTS = {"tea": ("Green Tea", 3.50), "coffee": ("Coffee Beans", 9.90), "honey": ("Honey", 6.20),
            "bread": ("Sourdough", 4.80)}


def product_row(sku):
    title, price = PRODUCTS[sku]
    return {"title": title, "detail": f"{price:.2f}", "action": {"emit": "add", "value": {"sku": sku}}}


ROOT = {"kind": "tabs", "tabs": [
    {"id": "shop", "title": "Shop", "icon": "house",
     "root": {"name": "Shop", "title": "Shop", "bar": {"largeTitle": True}, "rows": [product_row(sku) for sku in PRODUCTS]}},
    {"id": "cart", "title": "Cart", "icon": "cart",
     "root": {"name": "Cart", "title": "Cart", "bar": {"largeTitle": True}, "sections": [
         {"header": "Items", "footer": "Your cart is empty.", "rows": []},
         {"rows": [{"title": "Checkout", "action": {"emit": "checkout"}}]}]}},
]}


class Cart:
    """What is in the cart, in the order it was added, mirrored by the Cart page: a row per
    product in its first section, whose footer counts them, and Checkout in the second."""

    def __init__(self):
        self.counts = {}
        self.page = None  # the Cart page's vc, learnt from the state

    def total(self):
        return sum(PRODUCTS[sku][1] * count for sku, count in self.counts.items())

    def row(self, sku):
        title, price = PRODUCTS[sku]
        count = self.counts[sku]
        return {"title": title, "detail": f"{count} × {price:.2f}",
                "delete": {"emit": "remove", "value": {"sku": sku}}}

    def checkout_row(self):
        return {"title": "Checkout", "detail": f"{self.total():.2f}", "action": {"emit": "checkout"}}

    def show(self, session, edits):
        """Applies `edits` to the items, refreshes their count, Checkout's total and the badge."""
        count = sum(self.counts.values())
        footer = f"{count} in the cart. Swipe an item left to remove it." if count else "Your cart is empty."
        edits = edits + [{"reload": self.checkout_row(), "at": 0, "section": 1}]
        session.update(vc=self.page, rows=edits, sections=[{"section": 0, "footer": footer}])
        session.set_badge("cart", str(count) if count else None)


app = stackcast.App(ROOT)
cart = Cart()


@app.on("add")
def add(event, session):
    sku = event.value["sku"]
    if cart.page is None:
        cart.page = session.query_state()["tabs"][1]["stack"][0]["vc"]
    if sku in cart.counts:
        cart.counts[sku] += 1
        cart.show(session, [{"reload": cart.row(sku), "at": list(cart.counts).index(sku)}])
    else:
        cart.counts[sku] = 1
        cart.show(session, [{"insert": cart.row(sku), "at": len(cart.counts) - 1}])


@app.on("remove")
def remove(event, session):
    # The person's swipe took the row off the page already; the cart follows.
    cart.counts.pop(event.value["sku"], None)
    cart.show(session, [])


@app.on("checkout")
def checkout(event, session):
    if not cart.counts:
        return
    lines = [{"title": PRODUCTS[sku][0], "detail": str(count)} for sku, count in cart.counts.items()]
    session.present({"kind": "stack", "id": "checkout", "root": {
        "name": "Checkout", "title": "Checkout",
        "rows": lines + [{"title": f"Pay {cart.total():.2f}", "action": {"emit": "pay"}}]}})


@app.on("pay")
def pay(event, session):
    session.dismiss()
    edits = [{"delete": 0} for _ in cart.counts]
    cart.counts.clear()
    cart.show(session, edits)


if __name__ == "__main__":
    app.serve(sys.argv[1] if len(sys.argv) > 1 else "ws://127.0.0.1:8080/ws",
              ready=lambda link: print(f"shop: open {link}", flush=True))
