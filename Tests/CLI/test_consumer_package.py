"""NavKit as a dependency, as a new user meets it: a fresh package in a temporary folder depends
on this checkout's NavKit product by path, takes the README's Swift code blocks as they are (each
marked `<!-- consumer-package: PATH -->`) as its main.swift and its Swift Testing file, then builds,
links and runs the program and runs the tests."""
import re
import subprocess

import pytest

from conftest import ROOT

MARKED_BLOCK = re.compile(r"<!-- consumer-package: (\S+) -->\n```swift\n(.*?)\n```", re.S)


def readme_blocks():
    return dict(MARKED_BLOCK.findall((ROOT / "README.md").read_text()))


def swift(args, cwd):
    return subprocess.run(["swift", *args], cwd=cwd, capture_output=True, text=True, timeout=1200)


@pytest.fixture(scope="module")
def package(tmp_path_factory):
    folder = tmp_path_factory.mktemp("consumer")
    blocks = readme_blocks()
    assert set(blocks) == {"Sources/Consumer/main.swift", "Tests/ConsumerTests/NavigationTests.swift"}
    for path, code in blocks.items():
        (folder / path).parent.mkdir(parents=True, exist_ok=True)
        (folder / path).write_text(code + "\n")
    # A path dependency's package is named after its folder.
    (folder / "Package.swift").write_text(f"""// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "Consumer",
    dependencies: [.package(path: "{ROOT}")],
    targets: [
        .executableTarget(name: "Consumer", dependencies: [.product(name: "NavKit", package: "{ROOT.name}")]),
        .testTarget(name: "ConsumerTests", dependencies: [.product(name: "NavKit", package: "{ROOT.name}")]),
    ]
)
""")
    return folder


def test_the_readme_example_builds_links_and_prints_what_its_comments_say(package):
    build = swift(["build", "--product", "Consumer"], package)
    assert build.returncode == 0, build.stdout[-4000:] + build.stderr[-4000:]
    assert "undefined reference" not in build.stdout + build.stderr
    run = subprocess.run([str(package / ".build/debug/Consumer")], capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr
    assert run.stdout.splitlines() == [
        "pushed vc3",
        '["Home.viewDidLoad", "Home.viewWillAppear", "Home.viewDidAppear", "Detail.viewDidLoad", "Home.viewWillDisappear", '
        '"Detail.viewWillAppear", "transitionStart", "Home.viewDidDisappear", "Detail.viewDidAppear", "transitionEnd"]',
        '[["Home", "Detail"], ["Search", "Results"]]',
    ]


def test_the_readme_swift_testing_example_passes_in_the_consumer_package(package):
    test = swift(["test"], package)
    output = test.stdout + test.stderr
    assert test.returncode == 0, output[-4000:]
    assert re.search(r"Test run with 1 test(?: in \d+ suites?)? passed", output), output[-4000:]
