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
