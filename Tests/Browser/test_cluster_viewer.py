"""Failover as a person sees it: `Scripts/cluster 3`, the viewer opened through
HAProxy, two pages pushed by tapping rows, then the process that serves the session is killed
(SIGKILL). The viewer reconnects on its own with the same token, another node rebuilds the session
from its recorded input, and the viewer carries on where it was: the same pages, a banner saying
another server took the session over, and the next tap is served by the new node. Screenshots
cluster-*.png go to .build/test-artifacts/.
"""

import os
import signal
import time

import pytest

from cluster_testing import HAPROXY, start_cluster  # noqa: F401 (fixture)
from stackcast_testing import wait_until
from test_viewer import artifacts, click_at, driver, set_inner_size, viewer_nodes, wait_for_viewer  # noqa: F401 (fixtures)

pytestmark = pytest.mark.skipif(HAPROXY is None, reason="haproxy is not installed (Scripts/setup --test installs it)")


def pages(driver):
    return [node["name"] for node in viewer_nodes(driver) if node.get("role") == "page"]


def tap_row(driver, name):
    """Taps the first row named `name` that lies on screen."""
    row = next(node for node in viewer_nodes(driver) if node.get("role") == "row" and node.get("name") == name
               and node["frame"][0] >= 0)
    x, y, w, h = row["frame"]
    click_at(driver, x + w / 2, y + h / 2)


def at_rest_on(driver, name):
    """True once the page `name` is the only page drawn and lies at x = 0: the transition's last
    frame puts the page below on standby, and the one before it may already have the top page
    within half a point of 0 with the page below still drawn (a capture then saw its title)."""
    drawn = [node for node in viewer_nodes(driver) if node.get("role") == "page"]
    return len(drawn) == 1 and drawn[0]["name"] == name and drawn[0]["frame"][0] == 0


def test_killing_the_node_that_serves_the_viewer_loses_nothing(start_cluster, driver, artifacts):
    cluster = start_cluster()
    set_inner_size(driver, 390, 844)
    driver.get(f"http://127.0.0.1:{cluster.port}/?app=stack")
    wait_for_viewer(driver)
    token = driver.execute_script("return window.stackcast.session")
    node = token.split(".", 1)[0]
    assert node in cluster.nodes, (token, cluster.nodes)

    # Two pages deep, by tapping rows as a person would (the stack app's rows push pages; the
    # page below waits off the picture, so only the top page is drawn at rest).
    for depth in range(2):
        below = pages(driver)[-1]
        row = next(node for node in viewer_nodes(driver) if node.get("role") == "row" and node["frame"][0] >= 0)["name"]
        tap_row(driver, row)
        wait_until(lambda: pages(driver)[-1] != below and at_rest_on(driver, pages(driver)[-1]), 10,
                   lambda: f"push {depth + 1} at rest; pages {pages(driver)}")
    before = driver.execute_script("return window.stackcast.nodes()")
    top = pages(driver)[-1]
    driver.save_screenshot(str(artifacts / "cluster-1-before.png"))

    # The process that serves this session dies without a word.
    pid, _ = cluster.nodes[node]
    os.kill(pid, signal.SIGKILL)
    wait_until(lambda: "took it over" in (driver.execute_script(
        "const b = document.getElementById('banner'); return b.hidden ? '' : b.textContent") or ""), 30,
        lambda: f"the banner saying another server took the session over; connected="
                f"{driver.execute_script('return window.stackcast.connected')}")
    wait_until(lambda: driver.execute_script("return window.stackcast.connected"), 10, "the viewer connected again")
    assert driver.execute_script("return window.stackcast.session") == token, "the viewer kept its token"
    wait_until(lambda: at_rest_on(driver, top), 10, lambda: f"the same top page {top!r}; pages {pages(driver)}")
    # The picture is no longer greyed as "away" (it fades back in 0.3 s).
    wait_until(lambda: driver.execute_script("return document.querySelector('.screen.away') === null"), 5,
               "the picture no longer greyed out")
    time.sleep(0.4)
    after = driver.execute_script("return window.stackcast.nodes()")
    assert [n["name"] for n in after if n.get("role") in ("page", "title")] == \
        [n["name"] for n in before if n.get("role") in ("page", "title")], "the same pages and titles as before"
    driver.save_screenshot(str(artifacts / "cluster-2-after.png"))

    # And it goes on: a back tap pops the top page on the node that took the session over.
    back = next(node for node in viewer_nodes(driver) if node.get("role") == "back")
    x, y, w, h = back["frame"]
    click_at(driver, x + w / 2, y + h / 2)
    wait_until(lambda: top not in pages(driver), 10, lambda: f"the top page popped; pages {pages(driver)}")
    errors = [entry for entry in driver.get_log("browser") if entry["level"] == "SEVERE"
              and "WebSocket" not in entry["message"] and "502" not in entry["message"]]
    assert not errors, f"browser console errors: {errors}"
