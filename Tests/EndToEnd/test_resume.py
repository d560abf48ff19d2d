"""Sessions outlive their connections: resume with the token (with `lastSeq`: only what changed;
without: a full frame), watchers see the controller's frames and may not act, and a second
controller takes over (the first is closed with 1008)."""

from stackcast_client import open_client, run, session

DETAIL = {"name": "Detail", "title": "Detail"}


async def resume(url, token, held=None, **fields):
    """A hello with `session` (and `lastSeq`: then `held` is the display list of that frame)."""
    client = await open_client(url)
    if "lastSeq" in fields:
        client.display.assume(held, fields["lastSeq"])
    welcome = await client.hello(session=token, **fields)
    assert welcome["type"] == "welcome", welcome
    assert welcome["resumed"] is True and welcome["session"] == token, welcome
    return client, welcome


def test_resume_with_last_seq_and_nothing_changed_sends_nothing(server):
    async def body():
        first = await session(server.ws_url)
        token = first.messages(type="welcome")[0]["session"]
        await first.ok("push", screen=DETAIL)
        await first.settle()
        last_seq = first.seq
        held = first.display_list()
        await first.close()

        second, welcome = await resume(server.ws_url, token, held=held, lastSeq=last_seq)
        assert welcome["role"] == "control" and welcome["app"] == "stack"
        quiet = await second.quiet_for(0.7)
        assert [m for m in quiet if m["type"] == "frame"] == [], f"unchanged since {last_seq}, yet frames came: {quiet}"
        state = await second.state()
        assert [e["screen"] for e in state["stack"]] == ["Home", "Detail"], state
        # Still the same session: it goes on from there.
        await second.ok("pop")
        assert [e["screen"] for e in (await second.state())["stack"]] == ["Home"]
        await second.close()
    run(body())


def test_resume_without_last_seq_gets_a_full_frame(server):
    async def body():
        first = await session(server.ws_url)
        token = first.messages(type="welcome")[0]["session"]
        await first.ok("push", screen=DETAIL)
        await first.settle()
        expected = first.display_list()
        await first.close()

        second, _ = await resume(server.ws_url, token)
        frame = await second.wait_frame(since=0)
        assert frame["full"] is True, frame
        assert second.display_list() == expected
        assert [(p["name"], p["frame"][0]) for p in second.pages()] == [("Detail", 0)]
        await second.close()
    run(body())


def test_resume_with_last_seq_after_changes_gets_one_delta_from_it(server):
    async def body():
        first = await session(server.ws_url)
        token = first.messages(type="welcome")[0]["session"]
        await first.settle()
        old_seq = first.seq
        held = first.display_list()
        await first.close()

        # Someone else changes the session meanwhile (a push without animation: few frames).
        changer, _ = await resume(server.ws_url, token)
        await changer.wait_frame(since=0)
        await changer.ok("push", screen=DETAIL, transition="none")
        await changer.settle()
        expected = changer.display_list()
        await changer.close()

        third, _ = await resume(server.ws_url, token, held=held, lastSeq=old_seq)
        frame = await third.wait_frame(since=0)
        assert not frame.get("full"), f"expected a delta from {old_seq}, got a full frame"
        assert frame["base"] == old_seq, frame
        assert third.display_list() == expected
        await third.settle()
        assert len(third.messages(type="frame")) == 1
        await third.close()
    run(body())


def test_resume_with_an_unknown_last_seq_gets_a_full_frame(server):
    async def body():
        first = await session(server.ws_url)
        token = first.messages(type="welcome")[0]["session"]
        await first.close()
        second, _ = await resume(server.ws_url, token, held=[], lastSeq=987654)
        frame = await second.wait_frame(since=0)
        assert frame["full"] is True, frame
        assert [p["name"] for p in second.pages()] == ["Home"]
        await second.close()
    run(body())


def test_watcher_sees_the_same_frames_and_may_not_act(server):
    async def body():
        control = await session(server.ws_url)
        control.display.keep_snapshots = True
        token = control.messages(type="welcome")[0]["session"]
        watcher = await open_client(server.ws_url, keep_snapshots=True)
        welcome = await watcher.hello(session=token, role="view")
        assert welcome["type"] == "welcome" and welcome["role"] == "view" and welcome["session"] == token, welcome
        await watcher.wait_frame(since=0)
        assert watcher.display_list() == control.display_list()

        start_c, start_w = control.mark(), watcher.mark()
        await control.ok("push", screen=DETAIL)
        await control.settle()
        await watcher.settle()
        control_seqs = [f["seq"] for f in control.messages(start_c, "frame")]
        watcher_seqs = [f["seq"] for f in watcher.messages(start_w, "frame")]
        assert len(watcher_seqs) >= 3, watcher_seqs
        assert watcher_seqs[-1] == control_seqs[-1], (watcher_seqs, control_seqs)
        for seq in set(control_seqs) & set(watcher_seqs):
            assert watcher.snapshots[seq] == control.snapshots[seq], f"frame {seq} differs"
        assert len(set(control_seqs) & set(watcher_seqs)) >= len(control_seqs) // 2, (watcher_seqs, control_seqs)
        assert [(p["name"], p["frame"][0]) for p in watcher.pages()] == [("Detail", 0)]

        # The watcher may not act.
        reply = await watcher.command("pop")
        assert reply["type"] == "error" and reply["code"] == "forbidden", reply
        start = watcher.mark()
        await watcher.pointer("down", 20, 400, 0)
        error = await watcher.wait_message(lambda m: m["type"] == "error", since=start)
        assert error["code"] == "forbidden", error
        assert [e["screen"] for e in (await control.state())["stack"]] == ["Home", "Detail"]

        # A watcher leaving does not end the session; the controller goes on.
        await watcher.close()
        await control.ok("pop")
        await control.close()
    run(body())


def test_watcher_needs_a_token(server):
    async def body():
        client = await open_client(server.ws_url)
        reply = await client.hello(role="view")
        assert reply["type"] == "error" and reply["code"] == "bad_message" and "session" in reply["message"], reply
        await client.close()
    run(body())


def test_second_controller_takes_over(server):
    async def body():
        old = await session(server.ws_url)
        token = old.messages(type="welcome")[0]["session"]
        await old.ok("push", screen=DETAIL)
        new, welcome = await resume(server.ws_url, token)
        assert welcome["role"] == "control"
        assert await old.wait_closed() == 1008
        await new.wait_frame(since=0)
        assert [e["screen"] for e in (await new.state())["stack"]] == ["Home", "Detail"]
        await new.ok("pop")
        await new.close()
    run(body())
