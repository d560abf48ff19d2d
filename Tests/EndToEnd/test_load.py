"""`stackcast load` against the real server: a few sessions in each mode and wire format give a
JSON report with every key, no errors, frames and positive latencies, with acks by default and
with timelines when asked; a bad URL, a port nobody listens on, a bad window and a server that
refuses a session give clear errors. No timing thresholds: the
figures depend on the machine, so only their presence and sign are checked."""

import json
import socket
import subprocess

import pytest

from stackcast_testing import ROOT, server_binary

RUN_TIMEOUT = 60
REPORT_KEYS = {
    "sessions", "sessions_requested", "fps_p50", "fps_p5", "fps_animating_p50", "fps_animating_p5",
    "latency_ms_p50", "latency_ms_p99",
    "bytes_per_frame_median", "errors", "errors_by_kind", "frames_total", "bytes_total", "wire", "mode",
    "seconds", "generator_cpu_percent", "loop_lag_ms_p99", "coalesce_us",
    "window", "timelines", "acks_sent", "pictures_total", "timelines_total", "presented_total",
    "presented_fps_p50", "presented_fps_p5", "presented_fps_animating_p50", "presented_fps_animating_p5",
    "cuts_total", "pictures_voided",
}


def run_load(*args):
    """Runs `stackcast load ARGS` to the end; returns the finished process (text output)."""
    command = [str(server_binary()), "load", *args]
    return subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=RUN_TIMEOUT)


def assert_acknowledged_together(report):
    """Every frame message acknowledged, by acks that each cover one to four of them (one each
    when frames come further apart than the ack delay, as from a sanitizer's server), besides
    each session's first full frame; a session's last three frames may go unacknowledged when
    the run ends, hence the slack."""
    assert 0 < report["acks_sent"] <= report["frames_total"] + report["sessions"], report
    assert report["acks_sent"] * 4 >= report["frames_total"] - 3 * report["sessions"], report


def load_report(server, *args):
    """Runs `stackcast load --json` against `server` and returns its JSON report."""
    done = run_load("--url", server.ws_url, "--json", *args)
    assert done.returncode == 0, f"exit {done.returncode}\nstderr:\n{done.stderr}\nserver log:\n{server.log_tail()}"
    lines = done.stdout.strip().splitlines()
    assert len(lines) == 1, f"--json must print exactly one line on stdout, got {done.stdout!r}"
    report = json.loads(lines[0])
    # The human summary goes to stderr with --json, after the progress lines.
    assert "stackcast load:" in done.stderr, done.stderr
    return report


def positive_number(value):
    return isinstance(value, (int, float)) and not isinstance(value, bool) and value > 0


@pytest.mark.parametrize("wire", ["v1", "json", "binary"])
@pytest.mark.parametrize("mode", ["pushpop", "drag"])
def test_load_reports_frames_latency_and_no_errors(start_server, mode, wire):
    server = start_server()
    report = load_report(server, "--sessions", "3", "--seconds", "2", "--mode", mode, "--wire", wire)
    missing = REPORT_KEYS - report.keys()
    assert not missing, f"keys missing from the report: {sorted(missing)}\n{report}"
    assert report["mode"] == mode and report["wire"] == wire, report
    assert report["sessions"] == 3 and report["sessions_requested"] == 3, report
    assert report["errors"] == 0, report
    assert report["frames_total"] > 0 and report["bytes_total"] > 0, report
    for key in ("latency_ms_p50", "latency_ms_p99", "fps_p50", "fps_p5", "fps_animating_p50", "fps_animating_p5",
                "bytes_per_frame_median", "seconds"):
        assert positive_number(report[key]), (key, report)
    assert report["latency_ms_p50"] <= report["latency_ms_p99"], report
    # A few sessions read every frame as it comes, so their latencies read exactly.
    assert report["coalesce_us"] == 0, report
    # Flow control by default, as the browser viewer asks for it: frames acknowledged together,
    # at most four messages an ack (AckSchedule), and the last few of each run of frames after it.
    assert report["window"] == 20 and report["timelines"] is False, report
    assert_acknowledged_together(report)
    # Frames one per tick are each one picture, due as it arrives.
    assert report["timelines_total"] == 0 and report["cuts_total"] == 0, report
    assert report["pictures_total"] == report["frames_total"] == report["presented_total"], report


@pytest.mark.parametrize("wire", ["json", "binary"])
@pytest.mark.parametrize("mode", ["pushpop", "drag"])
def test_timelines_are_read_acknowledged_and_presented(start_server, mode, wire):
    """With --timelines a push's or a release's pictures come in one message: the run reads every
    frame of each (binary ones walked to their ends), acknowledges each message, and counts the
    pictures by their due times."""
    server = start_server()
    report = load_report(server, "--sessions", "3", "--seconds", "2", "--mode", mode, "--wire", wire, "--timelines")
    assert report["timelines"] is True and report["errors"] == 0, report
    assert report["timelines_total"] > 0, report
    assert report["pictures_total"] > report["frames_total"], report
    # A timeline is acknowledged at once; the frames between them (a drag's) four at a time.
    assert report["acks_sent"] * 4 >= report["frames_total"] - 3 * report["sessions"], report
    assert report["acks_sent"] >= report["timelines_total"], report
    assert positive_number(report["presented_fps_p5"]) and positive_number(report["presented_total"]), report
    if mode == "pushpop":
        # A slide's pictures in one message or two: far fewer messages than pictures shown.
        assert report["frames_total"] * 4 < report["presented_total"], report


def test_window_zero_sends_no_acks(start_server):
    server = start_server()
    report = load_report(server, "--sessions", "2", "--seconds", "1", "--mode", "pushpop", "--window", "0")
    assert report["window"] == 0 and report["acks_sent"] == 0 and report["errors"] == 0, report
    assert report["frames_total"] > 0, report


@pytest.mark.parametrize("args, expected", [
    (["--timelines", "--wire", "v1"], "--timelines needs protocol 2"),
    (["--window", "1025"], "--window must be from 0"),
    (["--window=-1"], "--window must be from 0"),
])
def test_bad_window_or_timelines_is_a_clear_error(args, expected):
    done = run_load("--url", "ws://127.0.0.1:8080/ws", *args)
    assert done.returncode != 0, done
    assert expected in done.stderr, done.stderr
    assert done.stdout == "", done.stdout


def test_coalescing_reads_every_frame_and_says_so(start_server):
    """Frames gathered for a moment before the loop reads them are all read: a run with
    coalescing asked for gets frames from every session, no errors, and its report says how long
    it let them gather."""
    server = start_server()
    done = run_load("--url", server.ws_url, "--sessions", "3", "--seconds", "2", "--mode", "drag", "--coalesce", "2000")
    assert done.returncode == 0, f"exit {done.returncode}\nstderr:\n{done.stderr}"
    assert "reads coalesced over 2000 µs" in done.stdout, done.stdout
    report = load_report(server, "--sessions", "3", "--seconds", "2", "--mode", "drag", "--coalesce", "2000")
    assert report["coalesce_us"] == 2000 and report["errors"] == 0, report
    assert report["fps_p5"] > 0 and report["sessions"] == 3, report


@pytest.mark.parametrize("value", ["-1", "100001", "soon"])
def test_bad_coalesce_is_a_clear_error(value):
    done = run_load("--url", "ws://127.0.0.1:8080/ws", "--coalesce", value)
    assert done.returncode != 0, done
    assert "--coalesce" in done.stderr, done.stderr
    assert done.stdout == "", done.stdout


def test_refused_sessions_are_counted_as_errors(start_server):
    """A server that holds two sessions answers the third hello with busy: the run goes on with
    two sessions and reports the third as an error message."""
    server = start_server("--max-sessions", "2")
    report = load_report(server, "--sessions", "3", "--seconds", "1", "--mode", "pushpop", "--wire", "v1")
    assert report["sessions"] == 2 and report["sessions_requested"] == 3, report
    assert report["errors"] == 1 and report["errors_by_kind"]["error_message"] == 1, report
    assert any("busy" in sample and "--max-sessions" in sample for sample in report["error_samples"]), report


@pytest.mark.parametrize("url, expected", [
    ("http://127.0.0.1:8080/ws", "the scheme must be ws://"),
    ("wss://127.0.0.1:8080/ws", "no TLS"),
    ("127.0.0.1:8080", "expected ws://HOST:PORT/PATH"),
    ("ws://127.0.0.1:99999/ws", "the port must be a number from 1 to 65535"),
])
def test_bad_url_is_a_clear_error(url, expected):
    done = run_load("--url", url, "--sessions", "1", "--seconds", "1", "--json")
    assert done.returncode != 0, done
    assert expected in done.stderr and "--url" in done.stderr, done.stderr
    assert done.stdout == "", done.stdout


def test_nobody_listening_is_a_clear_error():
    with socket.socket() as probe:  # a port that was free a moment ago, and nobody listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    done = run_load("--url", f"ws://127.0.0.1:{port}/ws", "--sessions", "3", "--seconds", "1", "--json")
    assert done.returncode == 1, done
    assert "no session started" in done.stderr and "cannot connect" in done.stderr, done.stderr
    assert done.stdout == "", done.stdout
