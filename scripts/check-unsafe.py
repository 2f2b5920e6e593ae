#!/usr/bin/env python3
"""Checks that unsafe Swift code stays in the owners ARCHITECTURE.md lists.

A site of unsafe code is what Swift's strict memory safety checking (SE-0458,
`-strict-memory-safety`) reports in a build of `Sources/`, or a spelling that says so in the code
itself (`unsafe`, `@unsafe`, `@safe`, `nonisolated(unsafe)`, raw pointer types, `withUnsafe…`,
`unsafeBitCast`, `Unmanaged`, `OpaquePointer`), which also catches code in `#if` branches that
this platform does not compile. `@exclusivity(unchecked)` is refused everywhere.

The places come from ARCHITECTURE.md's section "Checked rules": the bullet **unsafe code** lists
the owners, and **unsafe code still to move** the files that hold unsafe code today but must lose
it (a list that may only shrink). A site in any other file fails with its file and line; a listed
file without a site fails too, so neither list goes stale.

Usage:
  scripts/check-unsafe.py --log BUILD_LOG   read the diagnostics of a finished build, which must
                                            have compiled every Swift module of Sources/ with
                                            -Xswiftc -strict-memory-safety (.ci/run passes the
                                            thread sanitizer's fresh build)
  scripts/check-unsafe.py                   build into .build-unsafe first (the package's own
                                            modules are compiled again; dependencies are reused)
Exits 1 with one line per site out of place, 0 when every site is where the map allows it.
"""

import argparse
import collections
import importlib.util
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
_spec = importlib.util.spec_from_file_location(
    "check_architecture", os.path.join(HERE, "check-architecture.py"))
architecture = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(architecture)

OWNERS = "unsafe code"
STILL_TO_MOVE = "unsafe code still to move"

# Spellings that are unsafe code whatever the compiler says of them on this platform.
SPELLINGS = re.compile(
    r"(?<![A-Za-z0-9_'])(?:unsafe\b|@unsafe\b|@safe\b|Unsafe(?:Mutable)?(?:Raw)?(?:Buffer)?Pointer\b"
    r"|withUnsafe[A-Za-z]*\b|unsafeBitCast\b|Unmanaged\b|OpaquePointer\b|UTF8Span\(unchecked)"
)
REFUSED = re.compile(r"@exclusivity\s*\(\s*unchecked\s*\)")
DIAGNOSTIC = re.compile(r"^(/[^:\n]+\.swift):(\d+):\d+: warning: [^\n]*\[#StrictMemorySafety\]",
                        flags=re.M)
COMPILING = re.compile(r"\[\d+/\d+\] (?:Compiling|Emitting module) ([A-Za-z0-9_]+)\b")


def swift_modules(root, files):
    """The Swift modules of Sources/: folder names that hold a .swift file (links included)."""
    modules = set()
    for path in files:
        parts = path.split("/")
        if parts[0] == "Sources" and len(parts) > 2 and path.endswith(".swift"):
            modules.add(parts[1])
    return modules


def build_log(root, modules):
    """Builds Sources/ with strict memory safety checking into .build-unsafe and returns the log.
    The package's own modules are removed from the build folder first, so that every file is
    compiled and reports again (an incremental build would skip the unchanged ones)."""
    scratch = os.path.join(root, ".build-unsafe")
    for triple in (os.listdir(scratch) if os.path.isdir(scratch) else []):
        for module in modules:
            folder = os.path.join(scratch, triple, "debug", module + ".build")
            # Without its objects and dependency records the driver compiles every file again;
            # the folder's output file map stays, which the build system needs.
            for name in (os.listdir(folder) if os.path.isdir(folder) else []):
                if name.endswith((".o", ".swiftdeps", ".priors", ".swiftdeps~")):
                    os.remove(os.path.join(folder, name))
    completed = subprocess.run(
        ["swift", "build", "--package-path", root, "--scratch-path", scratch,
         "-Xswiftc", "-strict-memory-safety", "-Xswiftc", "-gnone"],
        capture_output=True, text=True)
    log = completed.stdout + completed.stderr
    with open(os.path.join(scratch, "strict-memory-safety.log"), "w", encoding="utf-8") as f:
        f.write(log)
    if completed.returncode != 0:
        sys.stderr.write(log)
        raise SystemExit("error: the strict memory safety build failed (above)")
    return log


def sites(root, files, log):
    """{path: sorted line numbers} of every unsafe site in Sources/, and the refused ones."""
    found = collections.defaultdict(set)
    for match in DIAGNOSTIC.finditer(log):
        path = os.path.relpath(os.path.realpath(match.group(1)), root)
        if path.startswith("Sources/"):
            found[path].add(int(match.group(2)))
    refused = []
    for path in files:
        if not (path.startswith("Sources/") and path.endswith(".swift")):
            continue
        full = os.path.join(root, path)
        if os.path.islink(full):  # compiled twice, read once: under the file it links to
            continue
        try:
            with open(full, encoding="utf-8", errors="replace") as f:
                code = architecture.swift_code(f.read())
        except OSError:
            continue
        for number, line in enumerate(code.split("\n"), start=1):
            if REFUSED.search(line):
                refused.append(f"{path}:{number}: @exclusivity(unchecked) is refused everywhere: "
                               "shared state sits behind a Mutex")
            if SPELLINGS.search(line):
                found[path].add(number)
    return found, refused


def check(root, map_text, files, log):
    lists = architecture.allow_lists(map_text) or {}
    errors = []
    for name in (OWNERS, STILL_TO_MOVE):
        if name not in lists:
            errors.append(f"ARCHITECTURE.md: section \"Checked rules\" has no bullet **{name}**")
    owners, to_move = set(lists.get(OWNERS, [])), set(lists.get(STILL_TO_MOVE, []))
    for path in sorted(owners & to_move):
        errors.append(f"ARCHITECTURE.md: `{path}` is both an owner and still to move")
    modules = swift_modules(root, files)
    missing = sorted(modules - set(COMPILING.findall(log)))
    if missing:
        errors.append("the build log compiled none of " + ", ".join(missing)
                      + " (an incremental build reports only the files it compiles again)")
    found, refused = sites(root, files, log)
    errors += refused
    for path in sorted(found):
        if path in owners or path in to_move:
            continue
        for number in sorted(found[path]):
            errors.append(f"{path}:{number}: unsafe code outside the owners ARCHITECTURE.md lists "
                          "(\"Checked rules\", **unsafe code**)")
    for path in sorted((owners | to_move) - set(found)):
        kind = OWNERS if path in owners else STILL_TO_MOVE
        errors.append(f"ARCHITECTURE.md: **{kind}** lists `{path}`, which holds none "
                      "(stale entry: take it off the list)")
    return errors, found, owners, to_move


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--root", default=os.path.join(HERE, ".."))
    parser.add_argument("--map", help="the map to read (default: ROOT/ARCHITECTURE.md)")
    parser.add_argument("--log", help="the output of a strict memory safety build of Sources/")
    arguments = parser.parse_args()
    root = os.path.realpath(arguments.root)
    with open(arguments.map or os.path.join(root, "ARCHITECTURE.md"), encoding="utf-8") as f:
        map_text = f.read()
    files, _ = architecture.repository_paths(root)
    if arguments.log:
        with open(arguments.log, encoding="utf-8", errors="replace") as f:
            log = f.read()
    else:
        log = build_log(root, swift_modules(root, files))
    errors, found, owners, to_move = check(root, map_text, files, log)
    for error in errors:
        print(f"error: {error}", file=sys.stderr)
    in_owners = sum(len(found[p]) for p in found if p in owners)
    in_to_move = sum(len(found[p]) for p in found if p in to_move)
    print(f"unsafe code: {in_owners} sites in {len(owners & set(found))} owners, "
          f"{in_to_move} in {len(to_move & set(found))} files still to move")
    for path in sorted(found, key=lambda p: (-len(found[p]), p)):
        mark = "owner" if path in owners else "to move" if path in to_move else "OUT OF PLACE"
        print(f"  {len(found[path]):4d}  {path}  ({mark})")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
