"""The other stack operations through the protocol, with the callback rules of docs/behaviour.md:
in popTo and popToRoot only the old top and the new top get appearance callbacks, the pages
between are released; pop-then-push pushes when the pop is done; replaceTop and setStack."""

from stackcast_client import lifecycle, run, session


async def with_stack(url, names):
    client = await session(url, subscribe=True)
    for name in names:
        await client.ok("push", screen={"name": name}, transition="none")
    await client.settle()
    return client


async def stack_of(client):
    return [e["screen"] for e in (await client.state())["stack"]]


def test_pop_to_root_gives_callbacks_to_the_two_tops_only(server):
    async def body():
        client = await with_stack(server.ws_url, ["A", "B", "C"])
        start = client.mark()
        value = await client.ok("popToRoot")
        await client.settle()
        events = lifecycle(client.events(start))
        assert events[:4] == [("viewWillDisappear", "C"), ("viewWillAppear", "Home"),
                              ("viewDidDisappear", "C"), ("viewDidAppear", "Home")], events
        assert sorted(events[4:]) == [("released", "A"), ("released", "B"), ("released", "C")], events
        assert value["vc"] == (await client.state())["stack"][0]["vc"]
        assert await stack_of(client) == ["Home"]
        assert [(p["name"], p["frame"][0]) for p in client.pages()] == [("Home", 0)]
        await client.close()
    run(body())


def test_pop_to_name_then_push(server):
    async def body():
        client = await with_stack(server.ws_url, ["A", "B", "C"])
        start = client.mark()
        value = await client.ok("popTo", name="A", then={"screen": {"name": "D"}})
        await client.settle()
        events = client.events(start)
        flow = lifecycle(events)
        assert flow[:4] == [("viewWillDisappear", "C"), ("viewWillAppear", "A"),
                            ("viewDidDisappear", "C"), ("viewDidAppear", "A")], flow
        assert sorted(flow[4:6]) == [("released", "B"), ("released", "C")], flow
        assert flow[6:] == [("viewDidLoad", "D"), ("viewWillDisappear", "A"), ("viewWillAppear", "D"),
                            ("viewDidDisappear", "A"), ("viewDidAppear", "D")], flow
        ops = [e["op"] for e in events if e["name"] == "transitionStart"]
        assert ops == ["popTo", "push"], ops
        state = await client.state()
        assert [e["screen"] for e in state["stack"]] == ["Home", "A", "D"]
        assert value["vc"] == state["stack"][2]["vc"], (value, state)
        await client.close()
    run(body())


def test_pop_to_matches_the_first_name_from_the_root(server):
    async def body():
        client = await with_stack(server.ws_url, ["A", "X", "A", "B"])
        await client.ok("popTo", name="A")
        assert await stack_of(client) == ["Home", "A"]
        vc = (await client.state())["stack"][0]["vc"]
        await client.ok("push", screen={"name": "C"}, transition="none")
        await client.ok("popTo", vc=vc)
        assert await stack_of(client) == ["Home"]
        await client.close()
    run(body())


def test_replace_top(server):
    async def body():
        client = await with_stack(server.ws_url, ["A"])
        start = client.mark()
        value = await client.ok("replaceTop", screen={"name": "E"}, direction="pop")
        await client.settle()
        assert lifecycle(client.events(start)) == [
            ("viewDidLoad", "E"), ("viewWillDisappear", "A"), ("viewWillAppear", "E"),
            ("viewDidDisappear", "A"), ("viewDidAppear", "E"), ("released", "A")]
        state = await client.state()
        assert [e["screen"] for e in state["stack"]] == ["Home", "E"]
        assert value["vc"] == state["stack"][1]["vc"]
        assert [(p["name"], p["frame"][0]) for p in client.pages()] == [("E", 0)]
        await client.close()
    run(body())


def test_set_stack(server):
    async def body():
        client = await with_stack(server.ws_url, ["A"])
        start = client.mark()
        await client.ok("setStack", screens=[{"name": "X"}, {"name": "Y"}])
        await client.settle()
        flow = lifecycle(client.events(start))
        assert flow[:5] == [("viewDidLoad", "Y"), ("viewWillDisappear", "A"), ("viewWillAppear", "Y"),
                            ("viewDidDisappear", "A"), ("viewDidAppear", "Y")], flow
        assert sorted(flow[5:]) == [("released", "A"), ("released", "Home")], flow
        assert await stack_of(client) == ["X", "Y"]
        assert [(p["name"], p["frame"][0]) for p in client.pages()] == [("Y", 0)]
        # The back button of Y pops to X.
        assert client.find(role="back"), "Y has no back button"
        reply = await client.command("setStack", screens=[])
        assert reply["type"] == "error" and reply["code"] == "bad_message" and "screens" in reply["message"], reply
        await client.close()
    run(body())


def test_every_transition_name_and_a_custom_one(server):
    async def body():
        client = await session(server.ws_url, subscribe=True)
        for transition in ["slide", "modal", "fade", "none",
                           {"kind": "custom", "duration": 0.2, "curve": "linear",
                            "from": {"dx": 0, "dy": 100, "alpha": 0}, "cover": {"dx": 0, "dy": 0, "dim": 0.2}}]:
            start = client.mark()
            await client.ok("push", screen={"name": "T"}, transition=transition)
            await client.ok("pop", transition=transition)
            await client.settle()
            assert await stack_of(client) == ["Home"], transition
            assert [(p["name"], p["frame"][0], p["frame"][1], p["alpha"]) for p in client.pages()] == [("Home", 0, 0, 1)], transition
            ends = [e for e in client.events(start) if e["name"] == "transitionEnd"]
            assert len(ends) == 2, (transition, client.events(start))
        await client.close()
    run(body())
