#!/usr/bin/env python3
"""Compares the served report's request reader with h11's (see Documentation/Reliability.md).

    scripts/h11-differential.py [--binary PATH] [--show N] [FOLDER_OR_FILE...]

Offline and outside CI: it replays every file (by default the seeds in Fuzz/Corpus/FuzzHTTPRequest
and the corpus a campaign left in .build-fuzz/corpus/FuzzHTTPRequest) as the bytes a client sends
and then closes, to the package's reader over a socket, through the FuzzHTTPRequest harness's
`--verdict` mode (build it with `scripts/fuzz.sh --build`), and to h11 (PyPI `h11`, `pip install
h11`), a strict server-side HTTP/1.1 reader, with its default 16 KiB limit on a head.

Each side gives a head (method, target, version, fields, then the body or that the client left
before it all came), a refusal, or nothing (the client left before the head ended). The verdicts
agree when both read the same head and body, both refuse, or both read nothing; a disagreement is
counted by its kind: which side refused and why (this reader's reason without its particulars, or
h11's message), or which part of the head or body differs. A kind listed in INTENDED is a
difference the reader means (Reliability.md lists each, with its test); any other is a finding.

Prints the counts, then the first N disagreements of each kind with a file. Exits 0: the
disagreements are findings to read, not failures.
"""

import argparse
import collections
import glob
import hashlib
import json
import os
import re
import subprocess
import sys
import tempfile

try:
    import h11
except ImportError:
    sys.exit("h11 is missing: pip install h11")

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# This reader's refusals, by the sentence that names the rule (HTTPRequestHead, HTTPConnection).
REASONS = [
    ("a line ends in a bare LF", r"ends in a bare LF"),
    ("a bare CR", r"holds a bare CR"),
    ("obs-fold", r"obs-fold"),
    ("a field line without a colon", r"has no colon"),
    ("whitespace before a field's colon", r"between its name and its colon"),
    ("an invalid field name", r"has an invalid name"),
    ("a control character in a value", r"holds a control character"),
    ("a malformed request line", r"with single spaces"),
    ("no HTTP version", r"does not end with an HTTP version"),
    ("an HTTP major version other than 1", r"this server speaks HTTP/1.1"),
    ("HTTP/1.1 without Host", r"must have a Host header"),
    ("a field given twice that may be given once", r"header lines; it may have one"),
    ("an invalid host", r"not a valid host|names no valid host"),
    ("a Content-Length of more than 18 digits", r"Content-Length “\d{19,}” is not a number"),
    ("a Content-Length that is not digits", r"is not a number of bytes"),
    ("differing Content-Length values", r"differing Content-Length"),
    ("Content-Length with Transfer-Encoding", r"both Content-Length and Transfer-Encoding"),
    ("Transfer-Encoding (501)", r"Transfer-Encoding is not supported"),
    ("an Expect other than 100-continue", r"The expectation"),
    ("more than 100 fields", r"header fields; this server reads at most"),
    ("`*` for another method than OPTIONS", r"is for OPTIONS only"),
    ("a target neither a path nor http://", r"neither a path"),
    ("a malformed percent-encoding in the target", r"malformed percent-encoding"),
    ("a head beyond 16 KiB", r"is longer than \d+ bytes"),
    ("no empty line at the head's end", r"does not end with an empty line"),
]

# Disagreements the reader means, each listed and tested in Reliability.md ("Checked against h11").
INTENDED = {
    # Stricter than h11: RFC 9112 allows a server to refuse these, and a loopback server that
    # guards itself by Host and Origin refuses what it would otherwise have to guess about.
    "refused by the reader only: a line ends in a bare LF",
    "refused by the reader only: a bare CR",
    "refused by the reader only: obs-fold",
    "refused by the reader only: a control character in a value",
    "refused by the reader only: a field given twice that may be given once",
    "refused by the reader only: an invalid host",
    "refused by the reader only: a target neither a path nor http://",
    "refused by the reader only: `*` for another method than OPTIONS",
    "refused by the reader only: a malformed percent-encoding in the target",
    "refused by the reader only: a malformed request line",
    "refused by the reader only: an HTTP major version other than 1",
    "refused by the reader only: Transfer-Encoding (501)",
    "refused by the reader only: an Expect other than 100-continue",
    "refused by the reader only: more than 100 fields",
    "refused by the reader only: Content-Length with Transfer-Encoding",
    "refused by the reader only: a Content-Length of more than 18 digits",
    # Alike in meaning: the same length, as one line or as the lines the client sent.
    "both read the head, h11 merges equal Content-Length values",
    # h11 refuses where RFC 9112 §2.2 asks a server to be lenient: an empty line before the
    # request line, which the reader skips.
    "refused by h11 only (400): a leading empty line",
    # h11 refuses a head whose first byte begins no method before the head has ended; the reader
    # refuses it once it has (within 16 KiB and 10 s), and says nothing to a client that left.
    "the reader: gone, h11 refuses at the first byte",
}


def reason_kind(reason):
    for name, pattern in REASONS:
        if re.search(pattern, reason):
            return name
    return "other: " + reason[:60]


def h11_kind(message):
    """h11's message without its particulars (quoted bytes, numbers)."""
    message = re.sub(r"b'[^']*'|b\"[^\"]*\"", "…", str(message))
    message = re.sub(r"\d+", "N", message)
    return message[:80]


def h11_verdict(data):
    """What h11 reads from the bytes a client sent before closing. A head h11 still waits for
    when the bytes end is incomplete ("gone"), whatever h11 says once told of the close."""
    connection = h11.Connection(h11.SERVER)
    connection.receive_data(data)
    verdict = {"outcome": "gone"}
    body = b""
    closed = False
    try:
        while True:
            event = connection.next_event()
            if event is h11.NEED_DATA and not closed:
                if verdict["outcome"] != "head":
                    return verdict
                connection.receive_data(b"")
                closed = True
            elif isinstance(event, h11.Request):
                verdict = {
                    "outcome": "head",
                    "method": event.method.decode("latin-1"),
                    "target": event.target.decode("latin-1"),
                    "minorVersion": int(event.http_version.split(b".")[1])
                    if event.http_version.startswith(b"1.")
                    else event.http_version.decode(),
                    "fields": [[name.decode("latin-1"), value.decode("latin-1")] for name, value in event.headers],
                }
            elif isinstance(event, h11.Data):
                body += event.data
            elif isinstance(event, h11.EndOfMessage):
                verdict["bodyOutcome"] = "body"
                verdict["body"] = body.decode("latin-1")
                return verdict
            else:  # NEED_DATA after the close, PAUSED, ConnectionClosed
                return verdict
    except h11.RemoteProtocolError as error:
        if verdict["outcome"] == "head":
            verdict["bodyOutcome"] = "gone"
            verdict["bodyError"] = str(error)
            return verdict
        return {"outcome": "refused", "status": error.error_status_hint, "reason": str(error)}


def reader_verdicts(binary, paths):
    """The reader's verdict on each path, from `FuzzHTTPRequest --verdict`."""
    verdicts = {}
    for start in range(0, len(paths), 200):
        chunk = paths[start : start + 200]
        output = subprocess.run(
            [binary, "--verdict", *chunk],
            check=True,
            capture_output=True,
            env={**os.environ, "ASAN_OPTIONS": "detect_leaks=0"},
        ).stdout.decode("utf-8")
        for line in filter(None, output.split("\n")):
            verdict = json.loads(line)
            verdicts[verdict.pop("file")] = verdict
    return verdicts


def compare(data, ours, theirs):
    """`None` when the verdicts agree, else the kind of disagreement."""
    if ours["outcome"] != theirs["outcome"]:
        if theirs.get("reason") == "no request line received" and re.match(rb"\r?\n", data):
            return "refused by h11 only (400): a leading empty line"
        if ours["outcome"] == "gone" and theirs.get("reason", "").startswith("illegal request line"):
            return "the reader: gone, h11 refuses at the first byte"
        if ours["outcome"] == "refused":
            return "refused by the reader only: " + reason_kind(ours["reason"])
        if theirs["outcome"] == "refused":
            return f"refused by h11 only ({theirs['status']}): " + h11_kind(theirs["reason"])
        return f"the reader: {ours['outcome']}, h11: {theirs['outcome']}"
    if ours["outcome"] != "head":
        return None
    for part in ("method", "target", "minorVersion"):
        if ours.get(part) != theirs.get(part):
            return f"both read the head, {part} differs"
    if ours["fields"] != theirs["fields"]:
        # h11 makes equal Content-Length values (`3, 3`, or two lines of 3) one line of one value.
        merged, length_seen = [], False
        for name, value in ours["fields"]:
            if name == "content-length":
                if length_seen:
                    continue
                length_seen, value = True, value.split(",")[0].strip(" \t")
            merged.append([name, value])
        if merged == theirs["fields"]:
            return "both read the head, h11 merges equal Content-Length values"
        return "both read the head, the fields differ"
    if ours.get("bodyOutcome") == "tooLarge":
        return None  # answered 413 unread; h11 would read it
    if ours.get("bodyOutcome") != theirs.get("bodyOutcome"):
        return f"the body: the reader {ours.get('bodyOutcome')}, h11 {theirs.get('bodyOutcome')}"
    if ours.get("body") != theirs.get("body"):
        return "both read the body, its bytes differ"
    return None


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument(
        "--binary", help="the FuzzHTTPRequest harness (default: .build-fuzz/*/release/FuzzHTTPRequest)"
    )
    parser.add_argument("--show", type=int, default=2, help="disagreements to print per kind (default 2)")
    parser.add_argument("inputs", nargs="*")
    arguments = parser.parse_args()
    binary = arguments.binary or next(
        iter(sorted(glob.glob(os.path.join(ROOT, ".build-fuzz", "*", "release", "FuzzHTTPRequest")))), None
    )
    if not binary or not os.path.exists(binary):
        sys.exit("no FuzzHTTPRequest binary: build it with scripts/fuzz.sh --build, or pass --binary")
    inputs = arguments.inputs or [
        os.path.join(ROOT, "Fuzz", "Corpus", "FuzzHTTPRequest"),
        os.path.join(ROOT, ".build-fuzz", "corpus", "FuzzHTTPRequest"),
    ]
    # Read once and replayed from a copy: a campaign still running renames and removes files.
    contents, seen = {}, set()
    for item in inputs:
        files = [item] if os.path.isfile(item) else sorted(glob.glob(os.path.join(item, "*")))
        for path in files:
            try:
                data = open(path, "rb").read()
            except OSError:
                continue
            digest = hashlib.sha1(data).hexdigest()
            if digest not in seen:
                seen.add(digest)
                contents[path] = data
    paths = list(contents)
    with tempfile.TemporaryDirectory() as folder:
        copies = {}
        for number, path in enumerate(paths):
            copies[path] = os.path.join(folder, str(number))
            with open(copies[path], "wb") as file:
                file.write(contents[path])
        by_copy = reader_verdicts(binary, list(copies.values()))
    ours = {path: by_copy[copies[path]] for path in paths}
    agreements = collections.Counter()
    kinds = collections.defaultdict(list)
    for path in paths:
        mine = ours[path]
        theirs = h11_verdict(contents[path])
        kind = compare(contents[path], mine, theirs)
        if kind is None:
            agreements[mine["outcome"]] += 1
        else:
            kinds[kind].append((path, mine, theirs))
    disagreeing = sum(len(found) for found in kinds.values())
    intended = sum(len(found) for kind, found in kinds.items() if kind in INTENDED)
    print(
        f"{len(paths)} requests: {sum(agreements.values())} agree "
        f"({agreements['head']} read alike, {agreements['refused']} refused by both, "
        f"{agreements['gone']} incomplete for both), {disagreeing} disagree "
        f"({intended} intended, {disagreeing - intended} findings)"
    )
    for kind, found in sorted(kinds.items(), key=lambda item: (item[0] in INTENDED, -len(item[1]))):
        label = "intended" if kind in INTENDED else "FINDING"
        print(f"  {len(found):5}  {label:8}  {kind}")
    for kind, found in sorted(kinds.items(), key=lambda item: (item[0] in INTENDED, -len(item[1]))):
        for path, mine, theirs in found[: arguments.show]:
            print(f"\n== {kind}\n   {os.path.relpath(path, ROOT)}: {contents[path][:300]!r}")
            print(f"   reader: {json.dumps(mine)[:400]}")
            print(f"   h11:    {json.dumps(theirs)[:400]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
