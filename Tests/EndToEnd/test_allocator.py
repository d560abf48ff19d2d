"""`serve` runs with glibc's per-thread cache of freed blocks enlarged (`AllocatorTuning`): it
starts itself again, once and as the same process, with GLIBC_TUNABLES set, unless the
environment already sets the variable, which then wins."""

import urllib.request

TUNED = "glibc.malloc.tcache_count=4000"


def environment(pid):
    with open(f"/proc/{pid}/environ", "rb") as file:
        entries = file.read().split(b"\0")
    return dict(entry.decode().split("=", 1) for entry in entries if b"=" in entry)


def arguments(pid):
    with open(f"/proc/{pid}/cmdline", "rb") as file:
        return file.read().rstrip(b"\0").decode().split("\0")


def test_serve_starts_itself_again_with_a_larger_allocator_cache(monkeypatch, start_server):
    monkeypatch.delenv("GLIBC_TUNABLES", raising=False)
    server = start_server("--fps", "30")
    # The process the test started is the one serving (exec, not a child), with its arguments.
    assert environment(server.pid).get("GLIBC_TUNABLES") == TUNED
    assert arguments(server.pid)[1:] == ["serve", "--port", "0", "--web", "Web", "--grace", "0", "--fps", "30"]
    assert urllib.request.urlopen(f"{server.http_url}/healthz", timeout=5).status == 200


def test_a_glibc_tunables_already_set_wins(monkeypatch, start_server):
    monkeypatch.setenv("GLIBC_TUNABLES", "")
    server = start_server()
    assert environment(server.pid).get("GLIBC_TUNABLES") == ""
