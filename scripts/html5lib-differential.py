#!/usr/bin/env python3
"""Compares the HTML reader's element trees with html5lib's (see Documentation/Reliability.md).

    scripts/html5lib-differential.py [--binary PATH] [--show N] [FOLDER_OR_FILE...]

Offline and outside CI: it feeds every file (by default the seeds in Fuzz/Corpus/FuzzHTML and
the corpus a campaign left in .build-fuzz/corpus/FuzzHTML) to the package's reader, through the
FuzzHTML harness's `--tree` mode (build it with `scripts/fuzz.sh --build`), and to html5lib (PyPI
`html5lib`, `pip install html5lib`), and compares the element trees: elements and their nesting,
with their attribute names. `html`, `head`, `body`, `tbody` and `colgroup` are left out on both
sides (the reader makes them only when the page writes them; a browser parsing the canonical
text makes them again), and so are text and comments (the reader keeps references undecoded).

html5lib parses with scripting on, as Chromium and the reader do (`noscript` holds text). It
reads each file in a process of its own, bounded to 2 GiB and 30 s; the files it gives up on are
named. Prints the number of files that agree and disagree, the disagreements counted by the
feature of the page that the reader's documentation lists as not modelled or where html5lib 1.1
follows an older standard (a byte pattern of the page, or html5lib agreeing once it follows the
current rule), and the first N of them with the first line where the trees part. Exits 0:
disagreements are findings to read, not failures.
"""

import argparse
import collections
import glob
import hashlib
import os
import pickle
import re
import resource
import subprocess
import sys

try:
    import html5lib
except ImportError:
    sys.exit("html5lib is missing: pip install html5lib")

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
NAMESPACE_PREFIXES = {
    "http://www.w3.org/1999/xlink": "xlink:",
    "http://www.w3.org/XML/1998/namespace": "xml:",
    "http://www.w3.org/2000/xmlns/": "xmlns:",
}
# Elements the tree builder implies, which the reader leaves to the browser (it makes them again
# when it parses the canonical text): their children stand in their place, on both sides.
FLATTENED = {"html", "head", "body", "tbody", "colgroup"}


def local_name(name):
    """`{namespace}name` without the namespace (element names)."""
    return name.split("}", 1)[1] if name.startswith("{") and "}" in name else name


def attribute_name(name):
    """`{xlink namespace}href` as `xlink:href`, as the source writes it."""
    if name.startswith("{") and "}" in name:
        namespace, local = name[1:].split("}", 1)
        return NAMESPACE_PREFIXES.get(namespace, "") + local
    return name


def normalized(elements):
    """`(depth, name, attribute names)` in document order, as lines: the elements of FLATTENED
    replaced by their children, and what a `template` holds left out (html5lib's etree keeps a
    template's contents apart)."""
    lines = []
    stack = []  # (depth, flattened, template) of the open ancestors
    for depth, name, attributes in elements:
        while stack and stack[-1][0] >= depth:
            stack.pop()
        if any(template for _, _, template in stack):
            continue
        flattened = name in FLATTENED
        if not flattened:
            level = sum(1 for _, flat, _ in stack if not flat)
            lines.append("  " * level + "<" + " ".join([name, *sorted(attributes)]) + ">")
        stack.append((depth, flattened, name == "template"))
    return lines


def html5lib_tree(data):
    # Scripting on, as in Chromium and as the reader reads `noscript` (its content is text); off,
    # html5lib parses it as elements, and in the head as a mode of its own.
    root = html5lib.parse(
        data.decode("utf-8", errors="replace"),
        treebuilder="etree",
        namespaceHTMLElements=False,
        scripting=True,
    )
    elements = []
    pending = [(root, 0)]
    while pending:
        element, depth = pending.pop()
        if not isinstance(element.tag, str) or element.tag.startswith("<!"):
            continue  # comments, the doctype, processing instructions
        attributes = [attribute_name(key) for key in element.attrib]
        elements.append((depth, local_name(element.tag), attributes))
        pending.extend((child, depth + 1) for child in reversed(list(element)))
    return normalized(elements)


# What html5lib may take for one document: some fuzzed pages make it grow past the machine's
# memory (reopened formatting elements), which ended whole runs before it had its own process.
HTML5LIB_MEMORY = 2 << 30  # bytes of address space
HTML5LIB_SECONDS = 30  # of processor time


def current_adoption_agency(phase, token):
    """The adoption agency for the end tag `token` (and for an `a` or `nobr` start tag that ends
    the one open), as the HTML standard writes it now (13.2.6.4.7), on html5lib's tree: its inner
    loop walks up from the furthest block until it reaches the formatting element, dropping from
    the list of active formatting elements each entry it passes after the third, and the
    bookmark stays beside the entry it was set after. html5lib 1.1 follows an older revision:
    its inner loop stops after three steps, leaving the elements above them in place, and its
    bookmark moves one entry on when the formatting element leaves the list before it. Used
    only to tell which disagreements that revision explains (see `explained_by`)."""
    tree = phase.tree
    stack, entries = tree.openElements, tree.activeFormattingElements
    subject = token["name"]
    if stack[-1].name == subject and stack[-1] not in entries:
        stack.pop()
        return
    for _ in range(8):
        formatting = tree.elementInActiveFormattingElements(subject)
        if not formatting:
            phase.endTagOther(token)
            return
        if formatting not in stack:
            entries.remove(formatting)
            return
        if not tree.elementInScope(formatting.name):
            return
        position = stack.index(formatting)
        furthest = next(
            (e for e in stack[position + 1 :] if e.nameTuple in html5lib.constants.specialElements),
            None,
        )
        if furthest is None:
            del stack[position:]
            entries.remove(formatting)
            return
        common_ancestor = stack[position - 1]
        bookmark = entries.index(formatting)
        last = furthest
        index = stack.index(furthest)
        steps = 0
        while True:
            steps += 1
            index -= 1
            node = stack[index]
            if node is formatting:
                break
            if steps > 3 and node in entries:
                if entries.index(node) < bookmark:
                    bookmark -= 1
                entries.remove(node)
            if node not in entries:
                del stack[index]
                continue
            if last is furthest:
                bookmark = entries.index(node) + 1
            clone = node.cloneNode()
            entries[entries.index(node)] = clone
            stack[index] = clone
            if last.parent:
                last.parent.removeChild(last)
            clone.appendChild(last)
            last = clone
        if last.parent:
            last.parent.removeChild(last)
        if common_ancestor.name in ("table", "tbody", "tfoot", "thead", "tr"):
            parent, before = tree.getTableMisnestedNodePosition()
            parent.insertBefore(last, before)
        else:
            common_ancestor.appendChild(last)
        clone = formatting.cloneNode()
        furthest.reparentChildren(clone)
        furthest.appendChild(clone)
        if entries.index(formatting) < bookmark:
            bookmark -= 1
        entries.remove(formatting)
        entries.insert(bookmark, clone)
        stack.remove(formatting)
        stack.insert(stack.index(furthest) + 1, clone)


def follow_current_adoption_agency():
    """Makes html5lib's "in body" rules run `current_adoption_agency` (in the child process)."""
    in_body = html5lib.html5parser.getPhases(False)["inBody"]
    in_body.endTagFormatting = current_adoption_agency
    handlers = in_body.__dict__["endTagHandler"]
    for name in ("a", "b", "big", "code", "em", "font", "i", "nobr", "s", "small", "strike",
                 "strong", "tt", "u"):
        handlers[name] = current_adoption_agency


def end_paragraph_at_dialog_and_search():
    """Makes html5lib's "in body" rules end an open `p` at `<dialog>` and `<search>` and treat
    `</search>` as a block's end tag, as the current standard does (in the child process)."""
    in_body = html5lib.html5parser.getPhases(False)["inBody"]
    start_handlers = in_body.__dict__["startTagHandler"]
    end_handlers = in_body.__dict__["endTagHandler"]
    start_handlers["dialog"] = start_handlers["search"] = start_handlers["address"]
    end_handlers["search"] = end_handlers["address"]


def bounded_html5lib_tree(data, adjust=None):
    """html5lib's tree of `data` from a child process within the bounds above, or None; `adjust`
    changes html5lib there first."""
    read_end, write_end = os.pipe()
    child = os.fork()
    if child == 0:
        os.close(read_end)
        status = 1
        try:
            resource.setrlimit(resource.RLIMIT_AS, (HTML5LIB_MEMORY, HTML5LIB_MEMORY))
            resource.setrlimit(resource.RLIMIT_CPU, (HTML5LIB_SECONDS, HTML5LIB_SECONDS))
            if adjust:
                adjust()
            with os.fdopen(write_end, "wb") as pipe:
                pickle.dump(html5lib_tree(data), pipe)
            status = 0
        finally:
            os._exit(status)
    os.close(write_end)
    with os.fdopen(read_end, "rb") as pipe:
        payload = pipe.read()
    _, status = os.waitpid(child, 0)
    return pickle.loads(payload) if status == 0 and payload else None


def reader_trees(binary, paths):
    """The reader's tree of each path, from `FuzzHTML --tree`."""
    trees = {}
    for start in range(0, len(paths), 200):
        chunk = paths[start : start + 200]
        output = subprocess.run(
            [binary, "--tree", *chunk],
            check=True,
            capture_output=True,
            env={**os.environ, "ASAN_OPTIONS": "detect_leaks=0"},
        ).stdout.decode("utf-8", errors="replace")
        current, elements = None, []
        for line in output.split("\n") + ["#document"]:
            if line.startswith("#document"):
                if current is not None:
                    trees[current] = ["#refused"] if elements == "refused" else normalized(elements)
                current, elements = line[len("#document ") :], []
            elif line == "#refused":
                elements = "refused"
            elif line and current is not None:
                depth, label = line.split("\t", 1)
                name, *attributes = label.split(" ")
                elements.append((int(depth), name, attributes))
    return trees


# The features the reader's documentation lists as not modelled (HTMLReader, MarkupSnapshots.md),
# tested in this order on the page's bytes, lowercased; a page is counted under the first.
FEATURES = [
    ("isindex (html5lib 1.1 follows an older standard)", re.compile(rb"<isindex")),
    ("frameset", re.compile(rb"<frameset")),
    ("template contents", re.compile(rb"<template")),
    ("select content", re.compile(rb"<select")),
    ("ruby (rp, rt)", re.compile(rb"<r[pt][\s/>]")),
    ("plaintext", re.compile(rb"<plaintext")),
    ("SVG and MathML", re.compile(rb"<(svg|math)")),
    ("foster parenting (table)", re.compile(rb"<(table|tr|td|th|tbody|thead|tfoot|caption|col)")),
    ("form element pointer", re.compile(rb"<form")),
    ("tags after the body", re.compile(rb"</(body|html)")),
    ("NUL bytes", re.compile(rb"\x00")),
    ("script data escapes", re.compile(rb"<script")),
]


# The rules html5lib 1.1 follows in an older revision, for the pages under none of the features
# above: a disagreement counts under the first whose change (html5lib made to follow the current
# rule, one at a time) gives the reader's tree. More precise than a byte pattern: a page with
# `<dialog>` that differs for another reason stays "other".
EXPLAINED_BY = [
    (
        "dialog, search (html5lib 1.1 follows an older standard: their start tags do not end a p)",
        end_paragraph_at_dialog_and_search,
    ),
    (
        "adoption agency (html5lib 1.1 follows an older standard: its inner loop stops after three steps)",
        follow_current_adoption_agency,
    ),
]


def feature(data):
    lowered = data.lower()
    for name, pattern in FEATURES:
        if pattern.search(lowered):
            return name
    return "other"


def explained_by(data, mine):
    """The first of EXPLAINED_BY whose change makes html5lib agree with the reader, or "other"."""
    for name, adjust in EXPLAINED_BY:
        if bounded_html5lib_tree(data, adjust) == mine:
            return name
    return "other"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--binary", help="the FuzzHTML harness (default: .build-fuzz/*/release/FuzzHTML)")
    parser.add_argument("--show", type=int, default=20, help="disagreements to print (default 20)")
    parser.add_argument("inputs", nargs="*")
    arguments = parser.parse_args()
    binary = arguments.binary or next(
        iter(sorted(glob.glob(os.path.join(ROOT, ".build-fuzz", "*", "release", "FuzzHTML")))), None
    )
    if not binary or not os.path.exists(binary):
        sys.exit("no FuzzHTML binary: build it with scripts/fuzz.sh --build, or pass --binary")
    inputs = arguments.inputs or [
        os.path.join(ROOT, "Fuzz", "Corpus", "FuzzHTML"),
        os.path.join(ROOT, ".build-fuzz", "corpus", "FuzzHTML"),
    ]
    paths, seen = [], set()
    for item in inputs:
        files = [item] if os.path.isfile(item) else sorted(glob.glob(os.path.join(item, "*")))
        for path in files:
            if not os.path.isfile(path):
                continue
            digest = hashlib.sha1(open(path, "rb").read()).hexdigest()
            if digest not in seen:
                seen.add(digest)
                paths.append(path)
    ours = reader_trees(binary, paths)
    agree, refused = 0, 0
    gave_up = []
    disagreements = []
    by_feature = collections.Counter()
    for path in paths:
        data = open(path, "rb").read()
        if ours.get(path) == ["#refused"]:
            refused += 1
            continue
        theirs = bounded_html5lib_tree(data)
        if theirs is None:
            gave_up.append(path)
            continue
        mine = ours.get(path, [])
        if mine == theirs:
            agree += 1
            continue
        kind = feature(data)
        if kind == "other":
            kind = explained_by(data, mine)
        by_feature[kind] += 1
        index = next(
            (i for i, (a, b) in enumerate(zip(mine, theirs)) if a != b), min(len(mine), len(theirs))
        )
        disagreements.append((path, kind, index, mine, theirs))
    print(f"{len(paths)} documents: {agree} agree, {len(disagreements)} disagree, {refused} refused as too deep")
    if gave_up:
        print(
            f"  html5lib gave up on {len(gave_up)} (over {HTML5LIB_MEMORY >> 30} GiB or {HTML5LIB_SECONDS} s): "
            + ", ".join(os.path.relpath(path, ROOT) for path in gave_up)
        )
    for kind, count in by_feature.most_common():
        print(f"  {count:5}  {kind}")
    for path, kind, index, mine, theirs in disagreements[: arguments.show]:
        print(f"\n== {os.path.relpath(path, ROOT)} ({kind}), line {index + 1}:")
        print("   reader:   " + (mine[index] if index < len(mine) else "(ends)"))
        print("   html5lib: " + (theirs[index] if index < len(theirs) else "(ends)"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
