"""The asyncio client: the same methods as coroutines, events as an async iterator."""

import asyncio

import stackcast
import stackcast.aio


def test_the_asyncio_session_drives_and_reads(url):
    async def body():
        async with await stackcast.aio.connect(url, app="stack", protocol=2, encoding="json") as s:
            assert await s.subscribe(["lifecycle"]) == {"events": ["lifecycle"]}
            assert await s.push({"name": "Detail"}) == {"vc": "vc2"}
            seen = [f"{e.name} {e.screen}" async for e in s.events(timeout=0.3)]
            assert seen == ["viewDidLoad Detail", "viewWillDisappear Home", "viewWillAppear Detail",
                            "viewDidDisappear Home", "viewDidAppear Detail"]
            await s.edge_swipe_back()
            await s.settle()
            assert [n.name for n in s.nodes(role="page")] == ["Home"]
            try:
                await s.pop()
            except stackcast.CommandError as error:
                assert error.code == "invalid_state"
            else:
                raise AssertionError("pop at the root succeeded")
            state = await s.query_state()
            assert [p["screen"] for p in state["stack"]] == ["Home"]
    asyncio.run(asyncio.wait_for(body(), 60))


def test_every_command_is_a_coroutine_method_with_keywords(url):
    app = {"kind": "tabs", "tabs": [
        {"id": "a", "title": "A", "root": {"name": "A1", "pages": {"root": {"name": "P1"}}}},
        {"id": "b", "title": "B", "root": {"name": "B1"}}]}

    async def refused(call):
        try:
            await call
        except stackcast.CommandError as error:
            return error.op, error.code
        raise AssertionError("the command succeeded")

    async def body():
        async with await stackcast.aio.connect(url, app="stack") as s:
            assert await s.set_root(app) == {"root": "tabs"}
            assert await s.push("A2") == {"vc": "vc4"}
            assert await s.replace_top({"name": "A3"}, direction="pop", transition="none") == {"vc": "vc5"}
            assert await s.set_stack([{"name": "A1"}, {"name": "X"}, {"name": "Y"}], transition="none") == {"vc": "vc7"}
            assert await s.pop_to("X") == {"vc": "vc6"}
            assert await s.pop_to_root(transition="fade") == {"vc": "vc2"}
            assert await refused(s.pop()) == ("pop", "invalid_state")
            assert await s.select_tab("b") == {"tab": 1, "id": "b", "vc": "vc3"}
            assert (await s.set_badge(0, "5", badge_color="#00FF00"))["id"] == "a"
            assert (await s.select_tab(index=0))["id"] == "a"
            assert await s.page("push", page={"name": "P2"}) == {"page": "P2"}
            assert await refused(s.scroll_to(0)) == ("scrollTo", "not_found")
            assert (await s.configure(busy_policy="reject"))["busyPolicy"] == "reject"
            assert await s.subscribe([]) == {"events": []}
            state = await s.query_state()
            assert (state["kind"], state["tabs"][0]["badge"], state["tabs"][0]["stack"][0]["pages"]) == ("tabs", "5", ["P1", "P2"])
            assert await s.command("query", what="state") == state
    asyncio.run(asyncio.wait_for(body(), 60))
