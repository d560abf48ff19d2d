"""What `Scripts/soak` found, or checks, kept as tests that do not depend on timing: the heap
memory of many ended sessions goes back to the system (malloc_trim, docs/operations.md "Memory"), and
connections reset with RST, in the middle of a transition or after it, leave no file descriptor
and no session behind."""

import asyncio
import ctypes.util
import os
import pytest

from stackcast_client import open_client, run
from stackcast_testing import wait_until

TRIM_LINE = "returned free heap memory to the system"


def open_fds(server):
    return len(os.listdir(f"/proc/{server.pid}/fd"))


async def deep_session(url, pages):
    """A session of the stack app holding `pages` pages (setStack, no animation)."""
    client = await open_client(url)
    welcome = await client.hello(app="stack", protocol=2, encoding="binary")
    assert welcome["type"] == "welcome", welcome
    screens = [{"name": f"P{k}", "title": f"Page {k}", "rows": [{"title": "Row", "detail": str(k)}]} for k in range(pages)]
    await client.ok("setStack", screens=screens, transition="none")
    return client


@pytest.mark.rss
@pytest.mark.parametrize("allocator", ["glibc", "jemalloc"])
def test_memory_of_ended_sessions_goes_back_to_the_system(start_server, allocator):
    """glibc keeps the pages of freed small objects (the RSS stayed at its peak after every
    session had expired: finding 11); once most of a shard's sessions have ended the server
    trims the heap, logs it, and most of what the sessions took is given back. The same with
    jemalloc preloaded (docs/operations.md "jemalloc"), whose arenas the trim purges: on their own
    they give pages back only as those decay, and only while allocations go on."""
    env = None
    if allocator == "jemalloc":
        library = ctypes.util.find_library("jemalloc")
        assert library, "Debian's libjemalloc2 is not installed (Scripts/setup --test installs it)"
        env = {"LD_PRELOAD": library}
    # Many sessions built at once from one address: more than its share of the thread.
    server = start_server("--threads", "1", "--session-ttl", "0.5", "--max-connections-per-peer", "100", "--peer-cpu-percent", "0", env=env)
    with open(f"/proc/{server.pid}/maps") as maps:
        assert ("libjemalloc" in maps.read()) == (allocator == "jemalloc"), f"the server does not run with {allocator}"

    async def load():
        warm = await deep_session(server.ws_url, 10)
        await warm.close()
        before = server.rss_kib()
        clients = [await deep_session(server.ws_url, 200) for _ in range(64)]
        peak = server.rss_kib()
        await asyncio.gather(*(client.close() for client in clients))
        return before, peak

    before, peak = run(load())
    assert peak - before > 8 * 1024, f"64 sessions of 200 pages took only {peak - before} KiB: the test measures nothing"
    wait_until(lambda: server.metric("stackcast_sessions") == 0, 20, "every session to expire")
    wait_until(lambda: TRIM_LINE in server.log_tail(400), 20, f"'{TRIM_LINE}' in the log")
    after = server.rss_kib()
    assert after - before < (peak - before) / 2, (
        f"RSS {before} KiB before, {peak} KiB with 64 deep sessions, {after} KiB once they expired: "
        f"less than half of it went back\n{server.log_tail(5)}")


def test_reset_connections_leave_no_file_descriptor_or_session(start_server):
    """Connections reset (RST) in the middle of a push's transition and after its result: the
    server closes every socket and ends every session, back to the open fds of before."""
    server = start_server("--threads", "1", "--session-ttl", "0.5")
    screen = {"name": "Detail", "title": "Detail", "rows": [{"title": "Back", "action": {"op": "pop"}}]}

    async def cycle(mid_transition):
        client = await open_client(server.ws_url)
        assert (await client.hello(app="phone"))["type"] == "welcome"
        await client.wait_frame(since=0)
        start = client.mark()
        command_id = await client.send_command("push", screen=screen)
        if mid_transition:
            await client.wait_frame(since=start)
        else:
            reply = await client.reply(command_id)
            assert reply["type"] == "result", reply
        client.abort()

    run(cycle(False))  # the first connection opens what every later one shares
    wait_until(lambda: server.metric("stackcast_connections") == 0, 10, "the first connection to close")
    baseline = open_fds(server)

    async def churn():
        for number in range(30):
            await cycle(mid_transition=number % 2 == 0)

    run(churn())
    wait_until(lambda: server.metric("stackcast_connections") == 0 and server.metric("stackcast_sessions") == 0,
               20, "no connection and no session left")
    # No more than before the churn: a leak keeps one per reset connection. (Fewer is no leak: a
    # descriptor lws or the runtime held at the baseline may have closed since; seen once or
    # twice under load, 6 against 7.)
    wait_until(lambda: open_fds(server) <= baseline, 10,
               lambda: f"the server's open fds back to {baseline} at most (now {open_fds(server)})")
    assert server.metric('stackcast_closes_total{code="1006"}') == 31


@pytest.mark.rss
def test_sessions_at_their_memory_budget_stay_under_it_and_give_it_back(start_server):
    """One session could hold half a gigabyte. Now each stops at its memory budget (2 MiB): a
    hundred sessions pushing 200-row pages until too_large take at most that much each, and once
    they end the server is back near where it started."""
    server = start_server("--threads", "2", "--session-ttl", "0", "--peer-cpu-percent", "0",
                          "--max-connections-per-peer", "200", "--max-sessions-per-peer", "200")
    rows = [{"title": f"Row {i}", "detail": "detail"} for i in range(200)]

    async def fill():
        client = await open_client(server.ws_url)
        await client.hello(app="phone")
        for index in range(40):
            reply = await client.command("push", screen={"name": f"P{index}", "rows": rows}, transition="none")
            if reply["type"] == "error":
                assert reply["code"] == "too_large", reply
                return client, index
        raise AssertionError("40 pages of 200 rows fit in a session's budget")

    async def body():
        warm, _ = await fill()
        await warm.close()
        await asyncio.sleep(1)
        before = server.rss_kib()
        sessions = [await fill() for _ in range(100)]
        assert all(0 < pushed < 40 for _, pushed in sessions)
        grown = server.rss_kib() - before
        assert grown / 100 < 2 * 1024, f"{grown / 100:.0f} KiB a session at its budget"
        for client, _ in sessions:
            await client.close()
        wait_until(lambda: server.rss_kib() - before < grown * 0.2, 60, "the memory of the ended sessions to go back")
    run(body())
