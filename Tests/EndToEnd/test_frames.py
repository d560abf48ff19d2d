"""Frame encoding as docs/protocol.md (§3) states it: a delta carries, for each changed node,
only the fields that changed; every page root node has role page, vc and name; idle means
silence."""

from stackcast_client import run, session


def test_deltas_carry_only_changed_fields(server):
    async def body():
        client = await session(server.ws_url)
        for op, fields in [("push", {"screen": {"name": "A", "rows": [{"title": "One"}]}}),
                           ("push", {"screen": {"name": "B"}, "transition": "fade"}),
                           ("pop", {}), ("pop", {"transition": "modal"})]:
            await client.ok(op, **fields)
        # Slide pushes and pops, some with a ping right behind the command (a frame then comes
        # within a few ms of the start, where sub-pixel motion rounds to the old values).
        for round_ in range(3):
            push = await client.send_command("push", screen={"name": "C"})
            if round_:
                await client.send({"type": "ping", "id": round_, "t": 0})
            await client.reply(push)
            await client.settle(quiet=0.3)
            await client.ok("pop")
            await client.settle(quiet=0.3)
        display = client.display
        assert display.unchanged_fields == 0, (
            f"{display.unchanged_fields} fields sent unchanged in deltas; first: {display.unchanged_example}")
        await client.close()
    run(body())


def test_every_page_root_names_its_controller(server):
    async def body():
        client = await session(server.ws_url)
        client.display.keep_snapshots = True
        await client.ok("push", screen={"name": "A"})
        await client.settle()
        state = await client.state()
        ids = {e["screen"]: e["vc"] for e in state["stack"]}
        seen = set()
        for seq, nodes in client.snapshots.items():
            for node in nodes:
                if node.get("role") == "page":
                    assert node.get("vc") == ids.get(node.get("name")), (seq, node, ids)
                    seen.add(node["name"])
        assert seen == {"Home", "A"}, seen
        await client.close()
    run(body())
