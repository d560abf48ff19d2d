"""Three Stackcast processes behind HAProxy (`Scripts/cluster 3`, docs/operations.md "Several processes
behind HAProxy"): new sessions spread, resumes reach their own node, a drained node keeps its resumes,
SIGTERM closes viewers with 1012 and they come back with the same state, SIGKILL loses nothing
but the last moment, and a token whose state is gone is refused with not_found.

Everything on loopback, every wait bounded. HAProxy comes from Scripts/setup (CI runs it); these
tests are skipped only where it could not be installed."""

import asyncio
import os
import signal
import time

import pytest
import stackcast

from cluster_testing import HAPROXY, start_cluster  # noqa: F401 (fixture)
from redis_testing import REDIS_SERVER, resp_command
from stackcast_client import open_client, run, session
from stackcast_testing import SANITIZED_SERVER_ARGS, wait_until

pytestmark = pytest.mark.skipif(HAPROXY is None, reason="haproxy is not installed (Scripts/setup --test installs it)")

PAGES = [{"name": "Detail", "title": "Detail"}, {"name": "More", "title": "More"}]


def node_of(token):
    return token.split(".", 1)[0]


def welcome_of(client, index=-1):
    return client.messages(type="welcome")[index]


async def navigated(url, pages=PAGES):
    """A new session with `pages` pushed and at rest: the client, its token, its state."""
    client = await session(url, app="stack")
    for page in pages:
        await client.ok("push", screen=page)
    await client.settle()
    return client, welcome_of(client)["session"], await client.state()


async def resume(url, token):
    """A resume through the balancer, token in the URL only: the client and its welcome (or the
    error that came instead)."""
    client = await open_client(f"{url}?session={token}")
    start = client.mark()
    answer = await client.hello(app=None)
    if answer["type"] == "welcome":
        await client.wait_frame(since=start)
    return client, answer


async def resume_reaching_a_node(url, token, timeout=20):
    """`resume()`, tried again while the balancer answers the handshake itself: for a second or
    so after a node dies, until its health check marks it down, a resume routed to it by its
    token gets HTTP 502 (the viewer and the Python client retry too)."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            return await resume(url, token)
        except stackcast.ConnectError:
            if time.monotonic() > deadline:
                raise
            await asyncio.sleep(0.1)


def test_new_sessions_spread_over_every_node_and_come_back_to_their_own(start_cluster):
    cluster = start_cluster()

    async def body():
        clients = [await session(cluster.ws_url, app="stack") for _ in range(30)]
        tokens = [welcome_of(c)["session"] for c in clients]
        by_node = {name: sum(node_of(t) == name for t in tokens) for name in cluster.nodes}
        # Each token names the node that holds its session: every node holds as many as it named.
        assert {name: int(cluster.metric(name, "stackcast_sessions")) for name in cluster.nodes} == by_node
        assert all(count >= 5 for count in by_node.values()), by_node
        for client in clients:
            await client.close()
        # Every resume reaches its own node: none is rebuilt elsewhere.
        for token in tokens:
            client, welcome = await resume(cluster.ws_url, token)
            assert (welcome["type"], welcome["resumed"], welcome.get("migrated")) == ("welcome", True, None), welcome
            await client.close()
        assert sum(cluster.metric(name, "stackcast_sessions_migrated_total") for name in cluster.nodes) == 0
        assert sum(cluster.metric(name, "stackcast_sessions_resumed_total") for name in cluster.nodes) == 30
        return tokens
    tokens = run(body())
    # Tokens are bearer secrets: no log (the nodes', HAProxy's) holds one.
    logs = cluster.logs()
    assert "GET /ws" in logs, "HAProxy logged no WebSocket request"
    leaked = [t for t in tokens if t.split(".", 1)[1][:8] in logs]
    assert leaked == [], f"{len(leaked)} tokens appear in the logs"


def test_a_drained_node_gets_no_new_sessions_but_keeps_its_resumes(start_cluster):
    cluster = start_cluster()

    async def body():
        owned = []
        while len(owned) < 2:
            client = await session(cluster.ws_url, app="stack")
            token = welcome_of(client)["session"]
            if node_of(token) == "s1":
                owned.append(token)
            await client.close()
        assert cluster.admin("set server nodes/s1 state drain").strip() == ""
        fresh = [await session(cluster.ws_url, app="stack") for _ in range(9)]
        assert sorted({node_of(welcome_of(c)["session"]) for c in fresh}) == ["s2", "s3"]
        for token in owned:
            client, welcome = await resume(cluster.ws_url, token)
            assert (welcome["type"], welcome.get("migrated")) == ("welcome", None), welcome
            await client.close()
        assert cluster.metric("s1", "stackcast_sessions_migrated_total") == 0
        for client in fresh:
            await client.close()
    run(body())


def test_sigterm_closes_viewers_with_1012_and_they_come_back_with_the_same_state(start_cluster):
    cluster = start_cluster("--grace", "1")

    async def body():
        viewers = [await navigated(cluster.ws_url) for _ in range(6)]
        target = node_of(viewers[0][1])
        pid = cluster.nodes[target][0]
        affected = [v for v in viewers if node_of(v[1]) == target]
        os.kill(pid, signal.SIGTERM)
        for client, token, before in affected:
            # The client reconnects by itself on 1012 and resumes through the balancer.
            await client.wait_until(lambda: len(client.messages(type="welcome")) == 2, timeout=30,
                                    what="a second welcome after the 1012")
            assert client.core.reconnects == 1
            welcome = welcome_of(client)
            assert (welcome["session"], welcome["resumed"], welcome.get("migrated")) == (token, True, True), welcome
            assert await client.state() == before
        for client, _, before in viewers:
            if (client, _, before) not in affected:
                assert await client.state() == before
            await client.close()
    run(body())


def test_sigkill_brings_a_nodes_sessions_back_on_the_others_with_the_same_stack(start_cluster):
    cluster = start_cluster("--no-restart")

    async def body():
        viewers = [await navigated(cluster.ws_url, PAGES[: 1 + i % 2]) for i in range(9)]
        # Past the state folder's 50 ms flush: nothing of the navigation is in memory only.
        await asyncio.sleep(0.2)
        await kill_a_node_and_resume_its_sessions(cluster, viewers)
    run(body())


async def kill_a_node_and_resume_its_sessions(cluster, viewers):
    """SIGKILL of the node holding the first of `viewers` (client, token, state), whose clients
    close; each of its sessions is then resumed through the balancer until another node serves it,
    rebuilt with the state it had."""
    target = node_of(viewers[0][1])
    affected = [(token, before) for _, token, before in viewers if node_of(token) == target]
    os.kill(cluster.nodes[target][0], signal.SIGKILL)
    for client, _, _ in viewers:
        await client.close()
    started = time.monotonic()
    for token, before in affected:
        while True:
            client, welcome = await resume_reaching_a_node(cluster.ws_url, token)
            if welcome["type"] == "welcome":
                break
            await client.close()
            assert time.monotonic() - started < 20, f"not served again within 20 s: {welcome}"
            await asyncio.sleep(0.1)
        assert (welcome["session"], welcome.get("migrated")) == (token, True), welcome
        assert await client.state() == before
        await client.close()
    others = [name for name in cluster.nodes if name != target]
    assert sum(cluster.metric(name, "stackcast_sessions_migrated_total") for name in others) == len(affected)


def test_a_token_whose_state_is_gone_is_refused_with_not_found(start_cluster):
    cluster = start_cluster("--no-restart")

    async def body():
        client, token, _ = await navigated(cluster.ws_url)
        await client.close()
        os.kill(cluster.nodes[node_of(token)][0], signal.SIGKILL)
        for path in (cluster.dir / "state").iterdir():
            path.unlink()
        for lost in (token, "s2.0123456789abcdef0123456789abcdef"):
            deadline = time.monotonic() + 20
            while True:
                client, answer = await resume_reaching_a_node(cluster.ws_url, lost)
                await client.close()
                if answer["type"] == "error" or time.monotonic() > deadline:
                    break
            assert (answer["type"], answer.get("code")) == ("error", "not_found"), answer
            assert "no session with that token" in answer["message"]
    run(body())


def test_the_blocking_python_client_reconnects_on_1012_and_goes_on(start_cluster):
    import stackcast
    cluster = start_cluster("--grace", "0")
    with stackcast.connect(cluster.ws_url, app="stack", protocol=1) as client:
        client.push(screen=PAGES[0])
        client.settle()
        before = client.command("query", what="state")
        os.kill(cluster.nodes[node_of(client.token)][0], signal.SIGTERM)
        wait_until(lambda: client._reading(lambda core: core.reconnects == 1 and core.welcome.migrated), 30,
                   lambda: "the client reconnected to a node that took the session over; the client saw "
                           + client._reading(lambda core: f"closes {core.closes}, reconnects {core.reconnects}, "
                                                          f"welcome {core.welcome}, resume failed {core.resume_failed}")
                           + "; the cluster printed:\n" + "\n".join(cluster.lines[-12:]))
        assert client.command("query", what="state") == before
        client.pop()
        client.settle()
        assert len(client.command("query", what="state")["stack"]) == 1


def test_behind_the_balancer_the_per_address_limits_count_clients(start_cluster):
    """HAProxy sends each client's address in a PROXY header (send-proxy-v2) and the node trusts
    it from HAProxy only (--trusted-proxy): one client holding all the connections an address may
    have is refused more, while another client is served; neither is counted as HAProxy."""
    cluster = start_cluster(nodes=1)
    (node_port,) = [port for _, port in cluster.nodes.values()]

    async def body():
        held = [await open_client(cluster.ws_url, local_addr=("127.0.0.2", 0)) for _ in range(64)]
        with pytest.raises(stackcast.ConnectError, match="503"):
            await open_client(cluster.ws_url, local_addr=("127.0.0.2", 0))
        other = await open_client(cluster.ws_url, local_addr=("127.0.0.3", 0))
        assert (await other.hello(app="stack"))["type"] == "welcome"
        # Straight to the node, a client's own X-Forwarded-For is its word only: it counts as itself.
        forged = await open_client(f"ws://127.0.0.1:{node_port}/ws", local_addr=("127.0.0.4", 0),
                                   additional_headers={"X-Forwarded-For": "127.0.0.9"})
        for client in held + [other, forged]:
            await client.close()
    run(body())
    log = cluster.logs()
    assert "peer=127.0.0.2" in log and "peer=127.0.0.3" in log and "peer=127.0.0.4" in log
    assert "WebSocket opened" in log and "peer=127.0.0.1 " not in log and "peer=127.0.0.9" not in log
    assert "too many connections from your address" in log


@pytest.mark.skipif(REDIS_SERVER is None, reason="redis-server is not installed (Scripts/setup --test installs it)")
def test_with_redis_sigkill_brings_a_nodes_sessions_back_with_the_same_stack(start_cluster):
    cluster = start_cluster("--redis", "--no-restart")
    assert cluster.redis, "Scripts/cluster --redis printed no redis line"
    redis_port = cluster.redis[1]

    async def body():
        viewers = [await navigated(cluster.ws_url, PAGES[: 1 + i % 2]) for i in range(9)]
        # The state query's answer waited for its line in Redis: every session is kept there already.
        assert len(resp_command(redis_port, "KEYS", "stackcast:session:*")) == 9
        await kill_a_node_and_resume_its_sessions(cluster, viewers)
    run(body())
    assert not (cluster.dir / "state").exists(), "the nodes used a state folder besides Redis"


@pytest.mark.skipif(REDIS_SERVER is None, reason="redis-server is not installed (Scripts/setup --test installs it)")
def test_with_redis_behind_the_balancer_one_client_flooding_hellos_is_limited_while_another_is_served(start_cluster):
    """With the per-address limits on, one client (127.0.0.2 in the PROXY header) holding all the
    connections an address may have, each with a session, and saying hello over and over on one
    of them, is refused and rate-limited; another client is served, its commands acknowledged
    once Redis holds them, and Redis keeps only the sessions that live."""
    cluster = start_cluster("--redis", nodes=1)
    redis_port = cluster.redis[1]

    async def body():
        held = [await open_client(cluster.ws_url, local_addr=("127.0.0.2", 0)) for _ in range(64)]
        for client in held:
            assert (await client.hello(app="stack"))["type"] == "welcome"
        with pytest.raises(stackcast.ConnectError, match="503"):
            await open_client(cluster.ws_url, local_addr=("127.0.0.2", 0))
        flooder = held[0]
        start = flooder.mark()
        # A sanitizer build serves hellos slower than the limit refills: there the flood is never
        # limited, and a short one only walks the same paths.
        for _ in range(50 if SANITIZED_SERVER_ARGS else 1000):
            await flooder.send({"type": "hello", "app": "stack", "viewport": {"width": 390, "height": 844, "scale": 3}})
        if not SANITIZED_SERVER_ARGS:
            await flooder.wait_message(lambda m: m["type"] == "error" and m["code"] == "rate_limited", since=start,
                                       what="the flood of hellos rate-limited")
        other = await open_client(cluster.ws_url, local_addr=("127.0.0.3", 0))
        assert (await other.hello(app="stack"))["type"] == "welcome"
        await other.ok("push", screen=PAGES[0])
        assert [page["screen"] for page in (await other.state())["stack"]] == ["Home", "Detail"]
        # Each hello again ended the session before it: its keys go, the live ones stay.
        wait_until(lambda: len(resp_command(redis_port, "KEYS", "stackcast:session:*")) == 65, 20,
                   lambda: f"65 sessions in Redis, not {len(resp_command(redis_port, 'KEYS', 'stackcast:session:*'))}")
        for client in held + [other]:
            await client.close()
    run(body(), timeout=120)
    log = cluster.logs()
    assert "peer=127.0.0.2" in log and "peer=127.0.0.3" in log and "peer=127.0.0.1 " not in log
    assert "too many connections from your address" in log


@pytest.mark.skipif(REDIS_SERVER is None, reason="redis-server is not installed (Scripts/setup --test installs it)")
def test_with_redis_a_watcher_and_its_controller_meet_on_the_node_that_takes_their_session_over(start_cluster):
    """Both tokens name the dead node; the balancer sends both to one same other node (a hash of
    the name), so the watcher, here the first to come back, starts the takeover and the controller
    joins it there: one takeover, nobody sent away with 1012, and the watcher sees the controller's
    push."""
    cluster = start_cluster("--redis", "--no-restart")

    async def body():
        viewer, token, _ = await navigated(cluster.ws_url)
        watch_token = welcome_of(viewer)["watchToken"]
        target = node_of(token)
        assert node_of(watch_token) == target
        os.kill(cluster.nodes[target][0], signal.SIGKILL)
        await viewer.close()
        deadline = time.monotonic() + 20
        while True:
            try:
                watcher = await open_client(f"{cluster.ws_url}?session={watch_token}")
                break
            except stackcast.ConnectError:
                assert time.monotonic() < deadline, "the balancer sent the watcher nowhere"
                await asyncio.sleep(0.1)
        welcome = await watcher.hello(app=None, role="view")
        assert (welcome["type"], welcome.get("role"), welcome.get("migrated")) == ("welcome", "view", True), welcome
        controller, welcome = await resume_reaching_a_node(cluster.ws_url, token)
        assert welcome["type"] == "welcome" and welcome.get("migrated") is None, welcome
        start = watcher.mark()
        await controller.ok("push", screen={"name": "After", "title": "After"})
        await watcher.wait_until(lambda: len(watcher.messages(start, "frame")) >= 3, what="the watcher seeing the push")
        await controller.settle()
        assert not watcher.closed and not controller.closed
        others = [name for name in cluster.nodes if name != target]
        assert sum(cluster.metric(name, "stackcast_sessions_migrated_total") for name in others) == 1
        await watcher.close()
        await controller.close()
    run(body())
