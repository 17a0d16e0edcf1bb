#!/usr/bin/env python3
"""Plants one problem of each kind scripts/portability looks for in a copy of the tree, and checks
that the check reports each one where it was planted, and nothing for the same code guarded as the
rules ask. A check that found nothing would fail here.

Usage: scripts/lib/portability_selftest.py [--build-path .build]   (after the debug build)
"""
import argparse
import json
import re
import pathlib
import shutil
import subprocess
import sys
import tempfile

HERE = pathlib.Path(__file__).resolve().parent
ROOT = HERE.parents[1]

# Appended to a file of the client, an app product: every Apple platform, 32-bit watchOS included.
# `expect` names the rule a line must trigger; lines without one must trigger nothing.
PLANTED = [
    ("", None),
    ("// The planted problems of scripts/lib/portability_selftest.py.", None),
    # An OS 26 type, unguarded; then guarded by @available and by #available.
    ("func plantedNewType() -> Int { let a = InlineArray<2, UInt8>(repeating: 0); return Int(a[0]) }",
     "availability"),
    ("@available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *)", None),
    ("func plantedNewTypeGuarded() -> Int { let a = InlineArray<2, UInt8>(repeating: 0); return Int(a[0]) }", None),
    ("func plantedNewTypeChecked() -> Int {", None),
    ("    if #available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *) { return plantedNewTypeGuarded() }",
     None),
    ("    return 0", None),
    ("}", None),
    # A macOS 15 / iOS 18 member above the package's floor (String(validating:as:)).
    ("func plantedNewMember(_ b: [UInt8]) -> String? { String(validating: b, as: UTF8.self) }", "availability"),
    # A Linux system call, unguarded; then under os(Linux).
    ("func plantedLinuxCall() -> Int32 { posix_fadvise(0, 0, 0, 0) }", "C name not known on Apple platforms"),
    ("#if os(Linux)", None),
    ("func plantedLinuxCallGuarded() -> Int32 { posix_fadvise(0, 0, 0, 0) }", None),
    ("#endif", None),
    # A Linux-only name in code only Apple builds compile (never type-checked here).
    ("#if canImport(Darwin)", None),
    ("func plantedDarwinOnly() -> Int32 { mremap(nil, 0, 0, 0) }", "Linux-only C name"),
    ("#endif", None),
    # A Linux-only module, unguarded; then guarded.
    ("import FoundationNetworking", "Linux-only module"),
    ("#if canImport(Glibc)", None),
    ("import Glibc", None),
    ("#endif", None),
    # Integer literals: one that needs 64 bits typed Int, and the same typed Int64.
    ("func plantedWideLiteral() -> Int { 5_000_000_000 }", "32-bit Int"),
    ("func plantedWideLiteralTyped() -> Int64 { 5_000_000_000 }", None),
    # A conversion that traps on 32 bits, and the clamped form.
    ("func plantedConversion() -> Int { Int(UInt32.max) - 1 }", "32-bit Int"),
    ("func plantedConversionClamped() -> Int { Int(clamping: UInt32.max) - 1 }", None),
    # A shift past 31 on Int, and on UInt64.
    ("func plantedShift(_ x: Int) -> Int { x &<< 40 }", "32-bit Int"),
    ("func plantedShiftWide(_ x: UInt64) -> UInt64 { x &<< 40 }", None),
    # A URLSession delegate method whose completion handler is not the SDK's @Sendable one.
    ("final class PlantedDelegate: NSObject, URLSessionDataDelegate {", None),
    ("    func urlSession(", "delegate signature"),
    ("        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,", None),
    ("        completionHandler: @escaping (URLSession.ResponseDisposition) -> Void", None),
    ("    ) { completionHandler(.allow) }", None),
    ("}", None),
    ("final class PlantedSendableDelegate: NSObject, URLSessionDataDelegate {", None),
    ("    func urlSession(", None),
    ("        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,", None),
    ("        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void", None),
    ("    ) { completionHandler(.allow) }", None),
    ("}", None),
    # Only where pointers have 64 bits: no 32-bit platform compiles it.
    ("#if _pointerBitWidth(_64)", None),
    ("func plantedSixtyFourOnly() -> Int { 5_000_000_000 }", None),
    ("#endif", None),
]
HOST_FILE = "Sources/JSONAPIClient/Transport/URLSessionTransport.swift"


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--build-path", default=".build")
    options = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="jsonapi-portability-") as folder:
        copy = pathlib.Path(folder) / "tree"
        copy.mkdir()
        shutil.copy(ROOT / "Package.swift", copy / "Package.swift")
        shutil.copytree(ROOT / "Sources", copy / "Sources")
        host = copy / HOST_FILE
        original = host.read_text(encoding="utf-8")
        first_line = original.count("\n") + 1 if not original.endswith("\n") else original.count("\n") + 1
        host.write_text(original + "\n".join(text for text, _ in PLANTED) + "\n", encoding="utf-8")
        result = subprocess.run(
            [sys.executable, str(HERE / "portability.py"), "--build-path", options.build_path, "--root", str(copy),
             "--targets", "JSONAPIClient", "--json"],
            capture_output=True, text=True, cwd=ROOT)
        if result.returncode not in (0, 1):
            print(result.stdout + result.stderr, file=sys.stderr)
            return 2
        found = json.loads(result.stdout.strip().splitlines()[-1]) if result.stdout.strip() else []
    problems = []
    by_line = {}
    for item in found:
        if item["file"] != HOST_FILE:
            problems.append(f"reported outside the planted lines: {item}")
            continue
        by_line.setdefault(item["line"], set()).add(item["rule"])
    for index, (text, expected) in enumerate(PLANTED):
        line = first_line + index
        rules = by_line.pop(line, set())
        if expected and expected not in rules:
            problems.append(f"line {line} `{text.strip()}`: expected `{expected}`, got {sorted(rules) or 'nothing'}")
        if not expected and rules:
            problems.append(f"line {line} `{text.strip()}`: expected nothing, got {sorted(rules)}")
    for line, rules in sorted(by_line.items()):
        problems.append(f"line {line}: unexpected {sorted(rules)}")
    # The Swift Package Index manifest without one platform's build.
    sys.path.insert(0, str(HERE))
    import portability
    with tempfile.TemporaryDirectory(prefix="jsonapi-portability-spi-") as folder:
        manifest = (ROOT / ".spi.yml").read_text(encoding="utf-8")
        trimmed = re.sub(r"\n\s*- platform: watchos\n\s*scheme: \w+", "", manifest)
        (pathlib.Path(folder) / ".spi.yml").write_text(trimmed, encoding="utf-8")
        found = set()
        portability.spi_check(pathlib.Path(folder), found)
        clean = set()
        portability.spi_check(ROOT, clean)
        if trimmed == manifest or not any(item[4] == "watchOS" for item in found) or clean:
            problems.append(f".spi.yml without its watchOS build: expected one problem, got {sorted(found)}; "
                            f"the real one: {sorted(clean)}")
    kinds = sorted({e for _, e in PLANTED if e} | {"Swift Package Index"})
    if problems:
        print("portability self-test: FAILED", file=sys.stderr)
        for problem in problems:
            print("  " + problem, file=sys.stderr)
        return 1
    print(f"portability self-test: each planted kind reported ({', '.join(kinds)}), the guarded forms not",
          file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
