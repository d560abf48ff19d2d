"""Recording and replay against the real server (docs/recording.md): `serve --record DIR` writes
one JSON-lines file per session, `stackcast replay --check` rebuilds it headless with the same
frame hashes and names the first frame that differs, `configure` `record` and
`--record-on-request`, and the HTTP side: `/recordings` with its name checks, and `/status`."""

import json
import re
import subprocess
import time
import urllib.request

import pytest

from conftest import ROOT
from stackcast_client import VIEWPORT, open_client, run
from stackcast_testing import server_binary
from test_http import get


async def session(url, app="phone", **hello):
    """A client that said hello and got its first frame; its welcome is `client.welcome`."""
    client = await open_client(url)
    start = client.mark()
    client.welcome = await client.hello(app=app, viewport=VIEWPORT, **hello)
    assert client.welcome["type"] == "welcome", client.welcome
    await client.wait_frame(since=start)
    return client


def replay(*args):
    return subprocess.run([str(server_binary()), "replay", *map(str, args)], cwd=ROOT,
                          capture_output=True, text=True, timeout=60)


async def push_drag_push(url, **hello):
    """A session that pushes A, pops it with a drag from the left edge, pushes B; its state."""
    client = await session(url, app="phone", **hello)
    welcome = client.welcome
    await client.ok("push", screen={"name": "A", "title": "A"})
    await client.settle()
    t = 1000.0
    await client.pointer("down", 10, 400, t)
    for x in range(10, 250, 8):
        t += 16
        await client.pointer("move", x, 400, t, samples=[[x, 400, t]])
    await client.pointer("up", 250, 400, t)
    await client.settle()
    await client.ok("push", screen={"name": "B", "title": "B"})
    await client.settle()
    state = await client.state()
    await client.close()
    return welcome, state


def only_recording(folder):
    files = sorted(folder.glob("*.jsonl"))
    assert len(files) == 1, files
    return files[0]


def written_out(file, quiet=0.3, timeout=5):
    """Waits until `file` stops growing: the recordings' writer thread appends a session's last
    lines (its viewer leaving) after the client has closed, later still on a busy machine."""
    deadline = time.monotonic() + timeout
    size, since = file.stat().st_size, time.monotonic()
    while time.monotonic() - since < quiet:
        assert time.monotonic() < deadline, f"{file} still growing after {timeout} s"
        time.sleep(0.05)
        if file.stat().st_size != size:
            size, since = file.stat().st_size, time.monotonic()
    return file


def stack_names(state):
    return [page["screen"] for page in state["tabs"][state["selected"]]["stack"]]


def recorded_push_drag_push(start_server, folder, option):
    """`push_drag_push` on a server started with `option` FOLDER, then stopped: its welcome, its
    state, the one file in the folder, and that file's frame lines."""
    server = start_server(option, str(folder))
    welcome, state = run(push_drag_push(server.ws_url))
    assert server.terminate() == 0
    file = only_recording(folder)
    lines = file.read_text().splitlines()
    header = json.loads(lines[0])
    assert (header["stackcast"], header["version"], header["app"]) == ("recording", 1, "phone")
    return welcome, state, file, [json.loads(line) for line in lines[1:] if '"frame":' in line]


def test_a_recorded_session_replays_headless_to_the_same_hashes_and_state(start_server, tmp_path):
    welcome, state, file, recorded = recorded_push_drag_push(start_server, tmp_path / "rec", "--record")
    assert welcome["recording"] == file.stem

    result = replay("--check", file)
    assert result.returncode == 0, result.stderr
    out = result.stdout.splitlines()
    frames = [line for line in out if line.startswith("frame ")]
    assert [line.split("hash=")[1] for line in frames] == [entry["hash"] for entry in recorded]
    assert out[-1] == f"{len(recorded)} frames of phone session {file.stem}, every hash as recorded"
    final = json.loads(out[-2].removeprefix("state "))
    assert stack_names(final) == stack_names(state) == ["Library", "B"]


def test_a_state_file_replays_to_the_same_state_with_its_frames_unhashed(start_server, tmp_path):
    _, state, file, frames = recorded_push_drag_push(start_server, tmp_path / "state", "--state-dir")
    assert frames and all("hash" not in frame for frame in frames)

    result = replay("--check", file)
    assert result.returncode == 0, result.stderr
    out = result.stdout.splitlines()
    assert out[-1].endswith(f", 0 hashes as recorded, {len(frames)} frames not hashed (a state file)"), out[-1]
    assert stack_names(json.loads(out[-2].removeprefix("state "))) == stack_names(state) == ["Library", "B"]


def test_replay_check_names_the_first_frame_that_differs(start_server, tmp_path):
    folder = tmp_path / "rec"
    server = start_server("--record", str(folder))
    run(push_drag_push(server.ws_url))
    assert server.terminate() == 0
    lines = only_recording(folder).read_text().splitlines()
    # B becomes C: every frame from the one after that push differs.
    push_b = next(i for i, line in enumerate(lines) if '\\"name\\": \\"B\\"' in line)
    first_after = next(i for i in range(push_b, len(lines)) if '"frame":' in lines[i])
    seq = json.loads(lines[first_after])["frame"]
    changed = tmp_path / "changed.jsonl"
    changed.write_text("\n".join(lines[:push_b] + [lines[push_b].replace('\\"B\\"', '\\"C\\"')] + lines[push_b + 1:]) + "\n")
    result = replay("--check", "--quiet", changed)
    assert result.returncode == 1
    assert re.fullmatch(rf"stackcast replay: {re.escape(str(changed))}: frame {seq} \(line {first_after + 1}, t=[0-9.e-]+ s\) "
                        r"differs: recorded hash [0-9a-f]{16}, replay made [0-9a-f]{16}\n", result.stderr), result.stderr
    # Without --check the replay runs to the end and prints the new state.
    loose = replay("--quiet", changed)
    assert loose.returncode == 0 and stack_names(json.loads(loose.stdout.splitlines()[0].removeprefix("state "))) == ["Library", "C"]


def test_replay_refuses_what_is_not_a_recording(tmp_path):
    hello = tmp_path / "hello.jsonl"
    hello.write_text('{"type":"hello"}\n')
    result = replay(hello)
    assert result.returncode == 2
    assert "not a Stackcast recording" in result.stderr
    missing = replay(tmp_path / "missing.jsonl")
    assert missing.returncode == 2 and "cannot read" in missing.stderr
    future = tmp_path / "future.jsonl"
    future.write_text('{"stackcast":"recording","version":7,"app":"phone"}\n')
    assert "format version 7 is not supported" in replay(future).stderr


def test_record_on_request_records_only_the_sessions_that_ask(start_server, tmp_path):
    folder = tmp_path / "rec"
    server = start_server("--record", str(folder), "--record-on-request")

    async def body():
        quiet = await session(server.ws_url, app="phone")
        assert "recording" not in quiet.welcome
        await quiet.ok("push", screen={"name": "Q"})
        await quiet.close()
        asking = await session(server.ws_url, app="phone")
        await asking.ok("push", screen={"name": "A"})
        await asking.settle()
        value = await asking.ok("configure", record=True)
        await asking.ok("push", screen={"name": "B"})
        await asking.settle()
        stopped = await asking.ok("configure", record=False)
        late = await asking.command("configure", record=True)
        await asking.close()
        return value, stopped, late
    value, stopped, late = run(body())
    assert stopped == {"recording": None}
    assert late["type"] == "error" and late["code"] == "invalid_state"
    assert server.terminate() == 0
    file = only_recording(folder)
    assert value == {"recording": file.stem}
    assert json.loads(file.read_text().splitlines()[-1])["end"] == "recording stopped"
    result = replay("--check", "--quiet", file)
    assert result.returncode == 0, result.stderr


def test_a_server_that_records_nothing_refuses_record(server):
    async def body():
        client = await session(server.ws_url)
        return await client.command("configure", record=True)
    reply = run(body())
    assert (reply["type"], reply["code"]) == ("error", "unsupported")
    status, _, text = get(server, "/recordings/anything")
    assert status == 404 and b"keeps no recordings" in text


def test_record_folder_that_cannot_be_made_stops_the_server(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("")
    result = subprocess.run([str(server_binary()), "serve", "--port", "0", "--record", str(blocker / "rec")],
                            cwd=ROOT, capture_output=True, text=True, timeout=30)
    assert result.returncode == 1
    assert "--record: cannot write recordings to" in result.stderr


OPERATOR = "operator-token-for-tests-0123"


def test_recordings_are_served_by_checked_names_to_token_holders_only(start_server, tmp_path):
    folder = tmp_path / "rec"
    server = start_server("--record", str(folder), "--operator-token", OPERATOR)
    welcome, _ = run(push_drag_push(server.ws_url))
    file = written_out(only_recording(folder))
    name = file.stem
    status, _, text = get(server, "/recordings")
    assert status == 403 and text.startswith(b"the list of recordings is served with the operator token only"), text
    status, _, text = get(server, f"/recordings?token={welcome['session']}")
    assert status == 403, "a session's token lists nothing"
    status, headers, body = get(server, f"/recordings?token={OPERATOR}")
    assert status == 200 and json.loads(body) == {"recordings": [{"name": name, "bytes": file.stat().st_size}]}
    # The recording holds every input the session received: only its own control token, or the
    # operator's, fetches it; its watch token, another token or none gets 403.
    for token in [None, welcome["watchToken"], "x" * 40, OPERATOR[:-1]]:
        query = "" if token is None else f"?token={token}"
        for suffix in ["", ".jsonl"]:
            status, _, text = get(server, f"/recordings/{name}{suffix}{query}")
            assert status == 403 and text.startswith(b"a recording is served to whoever holds its session's token"), (token, text)
    for token in [welcome["session"], OPERATOR]:
        status, headers, body = get(server, f"/recordings/{name}.jsonl?token={token}")
        assert status == 200 and body == file.read_bytes()
    for bad in ["bad.name", "a%20b", "x" * 101]:
        status, _, text = get(server, f"/recordings/{bad}")
        assert status == 400 and b"bad recording name" in text, (bad, status, text)
    status, _, text = get(server, f"/recordings/20250101-000000-phone-00000000?token={OPERATOR}")
    assert status == 404 and text == b"no recording named 20250101-000000-phone-00000000\n"
    for escape in ["/recordings/../../../../etc/passwd", "/recordings/..%2F..%2F..%2Fetc%2Fpasswd", "/recordings/%2e%2e%2fsecret"]:
        status, _, text = get(server, escape)
        assert status in (400, 404) and b"root:" not in text, (escape, status)


@pytest.mark.parametrize("hello", [{}, {"protocol": 2}], ids=["v1", "v2"])
def test_a_recording_is_served_as_its_replay(start_server, tmp_path, hello):
    folder = tmp_path / "rec"
    server = start_server("--record", str(folder))
    welcome, _ = run(push_drag_push(server.ws_url, **hello))
    file = only_recording(folder)
    name = file.stem
    # A replay runs the whole session again; the server gives it up to 60 s (its later-answer
    # timeout), and so does the test: under AddressSanitizer it can take more than the usual 10.
    status, headers, body = get(server, f"/recordings/{name}?token={welcome['session']}", timeout=60)
    document = json.loads(body)
    assert status == 200 and headers["content-type"] == "application/json"
    assert document["app"] == "phone" and document["name"] == name
    recorded = [json.loads(line)["hash"] for line in file.read_text().splitlines() if '"frame":' in line]
    assert [frame["hash"] for frame in document["frames"]] == recorded
    assert all(frame["matches"] for frame in document["frames"])
    # A full frame every 30, deltas between (each based on the frame before, or null for the same
    # picture), so the document stays a few times the recording's size.
    fulls = [index for index, frame in enumerate(document["frames"]) if frame["frame"] and frame["frame"].get("full")]
    assert fulls[0] == 0 and all(b - a <= 30 for a, b in zip(fulls, fulls[1:] + [len(document["frames"])]))
    for before, frame in zip(document["frames"], document["frames"][1:]):
        if frame["frame"] and not frame["frame"].get("full"):
            assert frame["frame"]["base"] == before["seq"]
    # v1 deltas carry every moved node (a slide's is about 3.6 KB); v2's only the moved layers.
    per_frame = len(body) / len(document["frames"])
    assert per_frame < {"v1": 4096, "v2": 1024}[document["frames"][-1]["wire"]], (len(body), len(document["frames"]))
    # Well inside what the server serves at most for a recording of this size (else 413).
    assert len(body) < 64 * file.stat().st_size + (1 << 20)


def test_status_lists_sessions_with_watch_links_only(start_server, tmp_path):
    server = start_server("--record", str(tmp_path / "rec"), "--operator-token", OPERATOR)

    async def body():
        client = await session(server.ws_url, app="phone")
        await client.ok("push", screen={"name": "A"})
        await client.settle()
        status, headers, page = get(server, "/status")
        _, _, operator_page = get(server, f"/status?token={OPERATOR}")
        await client.close()
        return client.welcome, status, headers, page.decode(), operator_page.decode()
    welcome, status, headers, page, operator_page = run(body())
    assert status == 200 and headers["content-type"] == "text/html; charset=utf-8"
    assert "<script" not in page and "http://" not in page and "https://" not in page, "no scripts, no external assets"
    assert '<p id="summary">1 session, 1 viewer, recorded.' in page
    row = re.search(r"<tr><td>phone</td>.*?</tr>", page).group(0)
    cells = re.findall(r'<td class="n">([^<]*)</td>', row)
    viewers, age, frames, sent, last_input = cells
    assert viewers == "1" and re.fullmatch(r"\d+ s", age) and int(frames) > 5
    assert re.fullmatch(r"[\d.]+ (B|KiB|MiB)", sent) and re.fullmatch(r"\d+ s ago", last_input)
    assert f'href="/?app=phone&amp;session={welcome["watchToken"]}&amp;role=view">watch</a>' in row
    assert "replay" not in row, "without the operator token the page links no replay"
    assert f'href="/?replay={welcome["recording"]}&amp;app=phone&amp;token={OPERATOR}">replay</a>' in operator_page
    assert welcome["session"] not in page, "the control token must never be on the page"
    spark = re.search(r'<svg id="sparkline"[^>]*>.*?points="([^"]+)"', page)
    points = spark.group(1).split()
    assert len(points) == 60 and any(float(p.split(",")[1]) < 46 for p in points), "frames show in the last minute"
    metrics = urllib.request.urlopen(f"{server.http_url}/metrics", timeout=5)
    assert metrics.headers["content-type"].startswith("text/plain; version=0.0.4")
    assert "stackcast_frames_sent_total" in metrics.read().decode()


def test_a_full_record_folder_keeps_its_newest_recordings(start_server, tmp_path):
    folder = tmp_path / "rec"
    server = start_server("--record", str(folder), "--record-max-files", "3", "--session-ttl", "0")

    async def hellos():
        for _ in range(6):
            client = await session(server.ws_url, app="stack")
            await client.close()
    run(hellos())
    # Sessions end as their viewers leave (no time to live); their recordings finish, and the
    # folder is brought back to three on the writer's next turn.
    said = "deleted the oldest recordings to keep the record folder within its limits"

    def kept_three():
        return len(list(folder.glob("*.jsonl"))) <= 3 and said in server.log_tail(200)

    # The last sessions end a moment after their clients close, and their files come with the
    # writer's next turn: three files are the answer only once every session has ended, and
    # still three a moment later.
    def settled():
        if server.metric("stackcast_sessions") != 0 or not kept_three():
            return False
        time.sleep(0.3)
        return kept_three()

    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and not settled():
        time.sleep(0.1)
    assert len(list(folder.glob("*.jsonl"))) == 3
    assert said in server.log_tail(200)
