#!/usr/bin/env python3
"""Sums JUnit-style XML reports (swift test, node --test, pytest) into one plain line that CI
reads: `N passed, M failed` (plus `, K skipped` when some were). A check that counts for itself
and writes no report (Scripts/wire-check) is passed as `--tally "N passed, M failed"`. Suites that did not run at all
are passed on the command line as `--missing NAME`, and failures that no report holds (a sanitizer's
report, say) as `--failure TEXT`: each counts as one failure."""
import argparse
import re
import sys
import xml.etree.ElementTree as ET


def count(path):
    passed = failed = skipped = 0
    try:
        root = ET.parse(path).getroot()
    except (ET.ParseError, OSError) as error:
        print(f"summary: cannot read {path}: {error}", file=sys.stderr)
        return 0, 1, 0
    for case in root.iter("testcase"):
        tags = {child.tag for child in case}
        if tags & {"failure", "error"}:
            failed += 1
        elif "skipped" in tags:
            skipped += 1
        else:
            passed += 1
    return passed, failed, skipped


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("reports", nargs="*")
    parser.add_argument("--missing", action="append", default=[], help="a suite that produced no report")
    parser.add_argument("--failure", action="append", default=[], help="a failure no report holds")
    parser.add_argument("--tally", action="append", default=[], help='a check\'s own "N passed, M failed" line')
    parser.add_argument("--quiet", action="store_true", help="print the total line only")
    args = parser.parse_args()
    total = [0, 0, 0]
    for path in args.reports:
        p, f, s = count(path)
        if not args.quiet:
            print(f"summary: {path}: {p} passed, {f} failed, {s} skipped")
        total = [total[0] + p, total[1] + f, total[2] + s]
    for line in args.tally:
        match = re.search(r"(\d+) passed, (\d+) failed", line)
        p, f = (int(match[1]), int(match[2])) if match else (0, 1)
        if not args.quiet:
            print(f"summary: {line if match else 'a tally without counts: ' + line}")
        total = [total[0] + p, total[1] + f, total[2]]
    for name in args.missing:
        print(f"summary: {name} did not run")
        total[1] += 1
    for text in args.failure:
        print(f"summary: {text}")
        total[1] += 1
    line = f"{total[0]} passed, {total[1]} failed"
    if total[2]:
        line += f", {total[2]} skipped"
    print(line)
    return 1 if total[1] or total[0] == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
