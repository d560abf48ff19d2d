"""A resume's token in the URL (for load balancers) and the hello a reconnection after a 1012 says."""

import pytest

from stackcast import CommandError
from stackcast.core import Core
from stackcast.transport import resume_target, session_in_url, with_session


def test_a_resume_carries_its_token_in_the_url_and_both_must_agree():
    assert resume_target("ws://h/ws", None) == ("ws://h/ws", None)
    assert resume_target("ws://h/ws?deflate=0", "s1.ab") == ("ws://h/ws?deflate=0&session=s1.ab", "s1.ab")
    assert resume_target("ws://h/ws?session=s1.ab", None) == ("ws://h/ws?session=s1.ab", "s1.ab")
    assert resume_target("ws://h/ws?session=s1.ab", "s1.ab") == ("ws://h/ws?session=s1.ab", "s1.ab")
    with pytest.raises(ValueError, match="differs"):
        resume_target("ws://h/ws?session=s1.ab", "s2.cd")
    assert with_session("ws://h/ws?session=old&x=1", "new") == "ws://h/ws?x=1&session=new"
    assert session_in_url("wss://h:8443/ws?a=b") is None


def test_the_hello_after_a_restart_resumes_and_fails_the_commands_left_waiting():
    core = Core()
    core.hello(app="stack", viewport={"width": 390, "height": 844}, role="control", protocol=1, lastSeq=None)
    core.receive('{"type":"welcome","session":"s1.ab","role":"control","protocol":1,"resumed":false}', 0)
    command_id, _ = core.command("push", {"screen": "A"})
    hello = core.resume_hello()
    assert hello == {"type": "hello", "viewport": {"width": 390, "height": 844}, "role": "control", "protocol": 1,
                     "session": "s1.ab"}
    # Nothing is given up until the hello went out on a connection that took it.
    assert core.reconnects == 0 and core.answer(command_id) == (False, None)
    core.reopened()
    assert core.reconnects == 1
    with pytest.raises(CommandError, match="connection_lost"):
        core.answer(command_id)
    # A refusal of that hello (the session is gone everywhere) is kept as the reason to give up.
    core.receive('{"type":"error","code":"not_found","message":"no session with that token"}', 1)
    assert core.resume_failed is not None and core.resume_failed.code == "not_found"
