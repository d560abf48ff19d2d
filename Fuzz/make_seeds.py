#!/usr/bin/env python3
"""Writes the committed seed corpus of the fuzz targets (run from anywhere; Scripts/fuzz does not
run it, the seeds are committed):

- Corpus/MessageDecoder/doc-*: every client message in docs/protocol.md, one per file.
- Corpus/SpecCommands/doc-*: every command message in the doc, one per file; session-*: the
  client messages of each code block that has several, one per line, and all of the doc's
  commands in order after a hello of each app.
- Corpus/FrameRoundTrip/script-*: SceneScript byte-code (Fuzz/Support/SceneScript.swift), one
  short session per opcode family on each built-in app.

Files the fuzzer added to the committed corpus by hand (regression inputs) are kept."""

import json
import pathlib
import re

ROOT = pathlib.Path(__file__).resolve().parent
DOC = ROOT.parent / "docs" / "protocol.md"
CLIENT_TYPES = {"hello", "resize", "ping", "pointer", "scroll", "key", "command"}


def code_blocks(text):
    """The contents of every fenced block and every inline code span."""
    for match in re.finditer(r"```[a-z]*\n(.*?)```", text, re.S):
        yield match.group(1)
    for match in re.finditer(r"`([^`\n]+)`", re.sub(r"```.*?```", "", text, flags=re.S)):
        yield match.group(1)


def json_objects(block):
    """Every top-level JSON object in a block of text (arrows, comments and ellipses between)."""
    decoder = json.JSONDecoder()
    at = 0
    while (start := block.find("{", at)) >= 0:
        try:
            value, end = decoder.raw_decode(block, start)
        except json.JSONDecodeError:
            at = start + 1
            continue
        yield value
        at = end


def compact(value):
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def write(folder, name, text):
    folder.mkdir(parents=True, exist_ok=True)
    (folder / name).write_bytes(text if isinstance(text, bytes) else text.encode())


def clear(folder, prefix):
    for old in folder.glob(prefix + "*") if folder.exists() else []:
        old.unlink()


def doc_seeds():
    messages, sessions = [], []
    for block in code_blocks(DOC.read_text()):
        found = [v for v in json_objects(block) if isinstance(v, dict) and v.get("type") in CLIENT_TYPES]
        messages += found
        if len(found) > 1:
            sessions.append(found)
    unique = list(dict.fromkeys(compact(m) for m in messages))
    decoder, commands = ROOT / "Corpus" / "MessageDecoder", ROOT / "Corpus" / "SpecCommands"
    for folder in (decoder, commands):
        clear(folder, "doc-")
        clear(folder, "session-")
    for number, text in enumerate(unique):
        write(decoder, f"doc-{number:03}.json", text)
        if json.loads(text)["type"] == "command":
            write(commands, f"doc-{number:03}.json", text)
    for number, found in enumerate(sessions):
        write(commands, f"session-{number:03}.jsonl", "\n".join(compact(m) for m in found) + "\n")
    all_commands = [t for t in unique if json.loads(t)["type"] == "command"]
    for app in ("phone", "tablet", "stack"):
        hello = compact({"type": "hello", "app": app})
        write(commands, f"session-all-{app}.jsonl", "\n".join([hello] + all_commands) + "\n")
    return len(unique), len(sessions)


# SceneScript opcodes (the table in SceneScript.swift).
PUSH, POP, POP_TO_ROOT, SELECT_TAB, DOWN, MOVE, UP, CANCEL, WHEEL, RESIZE, ESCAPE, BADGE, SCROLL_TO, PAGE, POP_TO, \
    REPLACE, SET_ROOT, CONFIGURE, TICK, PRESENT = range(20)
# PRESENT's operand: a stack sheet (20), a tab bar sheet (17), a stack full screen (48), dismiss (7).
SHEET_STACK, SHEET_TABS, FULL_SCREEN_STACK, DISMISS = 20, 17, 48, 7
PHONE, TABLET, STACK = 0, 1, 2


def drag(x0, y0, x1, y1, steps=6, dt=16, lift=True):
    out = [DOWN, x0, y0]
    for i in range(1, steps + 1):
        out += [MOVE, x0 + (x1 - x0) * i // steps, y0 + (y1 - y0) * i // steps, dt]
    return out + ([UP, 1] if lift else [])


SCRIPTS = {
    "push-pop": [PUSH, 1, 2, 0, TICK, 31, POP, 0, 0, TICK, 31],
    "push-kinds": [PUSH, 2, 2, 0, TICK, 31, PUSH, 3, 3, 0, TICK, 31, PUSH, 4, 4, 0, TICK, 31, PUSH, 7, 6, 0, TICK, 31,
                   POP_TO_ROOT, 2, 0, TICK, 31],
    "drag-back": [PUSH, 1, 2, 0, TICK, 31] + drag(3, 120, 200, 122) + [TICK, 31],
    "drag-cancelled": [PUSH, 0, 2, 0, TICK, 31] + drag(3, 120, 60, 122, dt=120) + [TICK, 31],
    "drag-held": [PUSH, 0, 2, 0, TICK, 31] + drag(3, 120, 150, 122, lift=False) + [CANCEL, TICK, 31],
    "tabs": [SELECT_TAB, 1, TICK, 10, SELECT_TAB, 2, TICK, 10, SELECT_TAB, 0, BADGE, 0, 7, TICK, 3, SELECT_TAB, 5],
    "hides-bar": [PUSH, 4, 2, 0, TICK, 10, ESCAPE, TICK, 31],
    "list-scroll": [PUSH, 1, 5, 0, TICK, 31] + drag(128, 230, 128, 40, steps=4, dt=8) + [TICK, 31, WHEEL, 128, 128, 0, 100, TICK, 5],
    "resize-mid-push": [PUSH, 1, 2, 0, TICK, 8, RESIZE, 2, TICK, 31, RESIZE, 3, POP, 0, 0, TICK, 4, RESIZE, 0, TICK, 31],
    "cards": [PUSH, 2, 5, 0, TICK, 31, PAGE, 0, 1, TICK, 20, PAGE, 4, 1, TICK, 20, PAGE, 3, 1, TICK, 20],
    "pop-to-then": [PUSH, 0, 5, 0, PUSH, 8, 5, 0, TICK, 31, POP_TO, 0, 3, 0, TICK, 31],
    "replace-set-stack": [REPLACE, 2, 0, 2, TICK, 31, REPLACE, 3, 2, 5, TICK, 31],
    "set-root": [SET_ROOT, 1, TICK, 5, SET_ROOT, 2, TICK, 5, SET_ROOT, 0, TICK, 5],
    "configure": [CONFIGURE, 0, PUSH, 1, 0, 0, PUSH, 1, 0, 0, CONFIGURE, 2, POP, 0, 0, TICK, 31, CONFIGURE, 7, PUSH, 0, 0, 0],
    "targets": [PUSH, 0, 0, 4 + 8, PUSH, 0, 0, 4 + 8 + 64, TICK, 31, POP, 0, 6, TICK, 31],
    "present": [PRESENT, SHEET_STACK, TICK, 31, PUSH, 1, 2, 0, TICK, 31, ESCAPE, TICK, 31] + drag(128, 100, 128, 230)
               + [TICK, 31, PRESENT, SHEET_TABS, TICK, 31, SELECT_TAB, 1, TICK, 10, PRESENT, DISMISS, TICK, 31,
                  PRESENT, FULL_SCREEN_STACK, TICK, 31, ESCAPE, TICK, 31],
}
TABLET_SCRIPTS = {
    "split": [PUSH, 6, 2, 0, TICK, 31, PUSH, 6, 2, 0, TICK, 31] + drag(100, 128, 240, 128) + [TICK, 31, SCROLL_TO, 1, TICK, 31],
    "split-wheel": [PUSH, 6, 2, 0, PUSH, 6, 2, 0, TICK, 31, WHEEL, 128, 128, 60, 0, WHEEL, 128, 128, 60, 0, TICK, 31,
                    SCROLL_TO, 200, TICK, 31],
}


def script_seeds():
    folder = ROOT / "Corpus" / "FrameRoundTrip"
    clear(folder, "script-")
    count = 0
    for name, body in SCRIPTS.items():
        for app, label in ((PHONE, "phone"), (STACK, "stack")):
            write(folder, f"script-{label}-{name}", bytes([app] + body))
            count += 1
    for name, body in TABLET_SCRIPTS.items():
        write(folder, f"script-tablet-{name}", bytes([TABLET] + body))
        count += 1
    return count


if __name__ == "__main__":
    messages, sessions = doc_seeds()
    scripts = script_seeds()
    print(f"make_seeds: {messages} messages from the doc, {sessions} sessions, {scripts} scripts")
