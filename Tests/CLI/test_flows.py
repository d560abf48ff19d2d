"""`stackcast test` as a user runs it: the examples pass and validate against the documented
schema, the failing example prints its diff and exits 1, a broken file exits 2, and --junit writes
what CI systems read."""
import json
import subprocess
import xml.etree.ElementTree as ET

import jsonschema
import pytest
import yaml

from conftest import ROOT

EXAMPLES = ROOT / "examples/flows"
SCHEMA = json.loads((ROOT / "docs/flow.schema.json").read_text())
FLOW_FILES = sorted(p for p in EXAMPLES.rglob("*") if p.suffix in {".json", ".yaml", ".yml"})


def load(path):
    text = path.read_text()
    return json.loads(text) if path.suffix == ".json" else yaml.safe_load(text)


def run(stackcast_bin, *args):
    return subprocess.run([stackcast_bin, "test", *map(str, args)], capture_output=True, text=True, timeout=120)


def test_there_are_examples_for_every_seed_system_and_a_failing_one():
    names = {p.relative_to(EXAMPLES).as_posix() for p in FLOW_FILES}
    assert {"vcstack-tabs.json", "jp-navigation.yaml", "page-stack.json", "stacked-split.yaml"} <= names
    assert any(name.startswith("failing/") for name in names)


@pytest.mark.parametrize("path", FLOW_FILES, ids=lambda p: p.relative_to(EXAMPLES).as_posix())
def test_every_example_validates_against_the_schema(path):
    jsonschema.validate(load(path), SCHEMA, cls=jsonschema.Draft202012Validator)


def test_the_schema_refuses_what_the_runner_refuses():
    validator = jsonschema.Draft202012Validator(SCHEMA)
    assert not validator.is_valid({"steps": []})
    assert not validator.is_valid({"steps": [{"settle": True, "wait": 1}]})
    assert not validator.is_valid({"steps": [{"expect": {"error": "gone"}}]})
    assert not validator.is_valid({"steps": [{"expect": {"events": ["Home.viewDidApear"]}}]})
    assert not validator.is_valid({"app": "stack", "steps": [{"tap": {"role": "row", "x": 3}}]})
    assert validator.is_valid({"steps": [{"expect": {"events": [["viewDidLoad", "A"], "transitionStart"]}}]})


def test_the_examples_pass(stackcast_bin, tmp_path):
    junit = tmp_path / "flows.xml"
    flows = sorted(EXAMPLES.glob("*.json")) + sorted(EXAMPLES.glob("*.yaml"))
    result = run(stackcast_bin, *flows, "--junit", junit)
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.splitlines()[-1] == f"flows: {len(flows)} passed, 0 failed"
    suite = ET.parse(junit).getroot()
    assert suite.get("tests") == str(len(flows)) and suite.get("failures") == "0" and suite.get("errors") == "0"
    assert [case.get("name") for case in suite.iter("testcase")] == [str(p) for p in sorted(EXAMPLES.glob("*.json")) + sorted(EXAMPLES.glob("*.yaml"))]


def test_a_wrong_lifecycle_order_fails_with_a_diff_and_exit_status_1(stackcast_bin, tmp_path):
    path = EXAMPLES / "failing/wrong-lifecycle-order.json"
    junit = tmp_path / "flows.xml"
    result = run(stackcast_bin, path, "--junit", junit)
    assert result.returncode == 1, result.stdout + result.stderr
    lines = result.stdout.splitlines()
    assert lines[0].startswith(f"✘ {path}:7: step 3 of 6 (expect) failed at ")
    assert lines[1:11] == [
        "    events since the start (lifecycle) differ:",
        "          expected                 actual",
        "          Home.viewDidLoad         Home.viewDidLoad",
        "          Home.viewWillAppear      Home.viewWillAppear",
        "          Home.viewDidAppear       Home.viewDidAppear",
        "          General.viewDidLoad      General.viewDidLoad",
        "        ✗ General.viewWillAppear   Home.viewWillDisappear",
        "        ✗ Home.viewWillDisappear   General.viewWillAppear",
        "          Home.viewDidDisappear    Home.viewDidDisappear",
        "          General.viewDidAppear    General.viewDidAppear",
    ]
    assert lines[-1] == "flows: 0 passed, 1 failed"
    failure = ET.parse(junit).getroot().find("testsuite/testcase/failure")
    assert failure is not None and "✗ General.viewWillAppear   Home.viewWillDisappear" in failure.text


def test_an_unreadable_file_exits_2_naming_the_file_and_the_problem(stackcast_bin, tmp_path):
    broken = tmp_path / "broken.yaml"
    broken.write_text("app: stack\nsteps:\n  - settle: true\n  - drag: {x: 10, y: far}\n")
    passing = EXAMPLES / "readme-push.json"
    result = run(stackcast_bin, passing, broken, tmp_path / "missing.json")
    assert result.returncode == 2, result.stdout + result.stderr
    assert f"✘ {broken}:4: steps[1].drag.y: expected a number, got \"far\"" in result.stdout
    assert f"✘ {tmp_path / 'missing.json'}: no such file" in result.stdout
    assert result.stdout.splitlines()[-1] == "flows: 1 passed, 0 failed, 2 unreadable"


def test_hostile_yaml_is_refused_with_exit_2_not_a_crash(stackcast_bin, tmp_path):
    deep = tmp_path / "deep.yaml"
    deep.write_text("app: stack\nsteps: " + "[" * 10000 + "]" * 10000 + "\n")
    bomb = tmp_path / "bomb.yaml"
    lines = ["a: &a [" + ", ".join(["lol"] * 9) + "]"]
    for previous, name in zip("abcdefgh", "bcdefghi"):
        lines.append(f"{name}: &{name} [" + ", ".join([f"*{previous}"] * 9) + "]")
    bomb.write_text("\n".join(lines) + "\napp: stack\nsteps:\n  - settle: true\n")
    result = run(stackcast_bin, deep, bomb)
    assert result.returncode == 2, result.stdout + result.stderr
    assert f"✘ {deep}:2: nested 10001 levels deep; a flow file may nest at most 100 levels" in result.stdout
    assert f"✘ {bomb}:" in result.stdout and "holds more than 250000 values once its aliases" in result.stdout
    assert result.stdout.splitlines()[-1] == "flows: 0 passed, 0 failed, 2 unreadable"


def test_a_folder_runs_its_flow_files_in_name_order_and_quiet_prints_only_failures(stackcast_bin):
    result = run(stackcast_bin, "--quiet", EXAMPLES)
    assert result.returncode == 0, result.stdout + result.stderr
    flows = list(EXAMPLES.glob("*.json")) + list(EXAMPLES.glob("*.yaml"))
    assert result.stdout == f"flows: {len(flows)} passed, 0 failed\n"


def test_the_testing_guide_flow_passes_as_written(stackcast_bin, tmp_path):
    guide = (ROOT / "docs/testing.md").read_text()
    section = guide[guide.index("## Flow tests"):]
    start = section.index("```json\n") + len("```json\n")
    flow = section[start:section.index("\n```", start)]
    path = tmp_path / "guide.json"
    path.write_text(flow)
    result = run(stackcast_bin, path)
    assert result.returncode == 0, result.stdout + result.stderr
