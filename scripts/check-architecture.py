#!/usr/bin/env python3
"""Checks that ARCHITECTURE.md is true of the code, as far as a script can tell.

Two kinds of check, both read from the map itself so the two cannot disagree:

1. Every path and every symbol the map names in backticks exists: a path (a token with a `/` or
   a file extension) must be a file or folder of the repository, given whole or as the end of a
   path; a symbol (an identifier, dotted or called) must occur in the package's code.
2. The rules of section "Checked rules": each bullet names a kind of code (an environment read, a
   whole-file write, a task-local, a process spawn, a raw socket) and the only files of
   `Sources/` allowed to hold it. A file outside its list that holds it fails the check, and so
   does a listed file that no longer does (the list would be stale).
3. The module graph, from the fenced block of section "Modules": every module of `Sources/` has
   a row, and no row names a module Package.swift lacks; a row's dependencies are the target's
   in Package.swift (targets, products of packages in parentheses' place, system libraries);
   and every `import` of a module's Swift files names a dependency of its row or the toolchain.
   Test frameworks are refused in what the review tool links.
4. The layers of the web module, from the bullet **web module layers** of the same section:
   folders, lowest first; a file of one layer may name nothing (a type, a function, a global)
   that a file of a higher layer declares, outside comments and string text.

Usage: scripts/check-architecture.py [--root DIR] [--map FILE]
Exits 1 with one line per false claim, 0 when the map holds.
"""

import argparse
import os
import re
import subprocess
import sys

# What each rule looks for in Sources/. The map names the rules (in bold) and their allowed
# files; a rule the map lacks, or a rule the map names that is not here, is an error.
RULES = {
    "environment reads": re.compile(
        r"ProcessInfo\.processInfo\.environment|\bgetenv\s*\(|\bsetenv\s*\(|\benviron\b"
    ),
    "whole-file writes": re.compile(
        r"\.write\s*\(\s*to\s*:|\.write\s*\(\s*toFile\s*:|createFile\s*\(\s*atPath\s*:"
        r"|(?<![.\w])f(?:re)?open\s*\(|(?<![.\w])fdopen\s*\("
    ),
    "task-locals": re.compile(r"@TaskLocal\b"),
    "process spawns": re.compile(
        r"\bposix_spawnp?\s*\(|\bProcess\s*\(\s*\)|\bFoundation\.Process\b|\bfork\s*\(|"
        r"\bvfork\s*\(|\bexecv[pe]*\s*\(|\bclone3?\s*\(|\bProcess\s*\.\s*run\b|"
        r"\blaunchedProcess\b|(?<![.\w])system\s*\(|(?<![.\w])popen\s*\("
    ),
    # Whatever spells the family (`AF_INET`, `Int32(AF_INET)`, a constant): any call of socket.
    "raw sockets": re.compile(r"(?<![.\w])socket\s*\("),
}

CODE_EXTENSIONS = (".swift", ".c", ".h", ".sh", ".py", ".js", ".mjs")
CODE_FOLDERS = ("Sources", "Tests", "scripts", "Fuzz", "Benchmarks", "Examples", ".ci", "Oracle")
SYSTEM_PREFIXES = ("/dev/", "/proc/", "/etc/", "/tmp", "/usr/", "/bin/", "/opt/")


def repository_paths(root):
    """Every tracked file and the folders that hold them, relative to root."""
    try:
        listed = subprocess.run(
            ["git", "-C", root, "ls-files", "--cached", "--others", "--exclude-standard"],
            check=True, capture_output=True, text=True,
        ).stdout.split("\n")
    except (OSError, subprocess.CalledProcessError):
        listed = []
        for folder, _, files in os.walk(root):
            if "/." in folder[len(root):]:
                continue
            listed += [os.path.relpath(os.path.join(folder, f), root) for f in files]
    files = [path for path in listed if path]
    folders = set()
    for path in files:
        parts = path.split("/")
        for end in range(1, len(parts)):
            folders.add("/".join(parts[:end]))
    return files, folders


def strip_comments(text, is_c_like=True):
    """The code of a Swift or C file without its comments (string contents are kept)."""
    if not is_c_like:
        return text
    text = re.sub(r"/\*.*?\*/", lambda m: "\n" * m.group(0).count("\n"), text, flags=re.S)
    return re.sub(r"//[^\n]*", "", text)


# The section whose paths are the files a run makes, not files of the repository.
RUN_TIME_SECTION = "What is on disk after a run"


def backticked_tokens(map_text):
    """(line number, token, section) for each backticked span outside fenced blocks."""
    tokens, fenced, section = [], False, ""
    for number, line in enumerate(map_text.split("\n"), start=1):
        if line.startswith("## "):
            section = line[3:].strip()
        if line.strip().startswith("```"):
            fenced = not fenced
            continue
        if fenced:
            continue
        tokens += [(number, token, section) for token in re.findall(r"`([^`]+)`", line)]
    return tokens


def path_claim(token):
    """The path a token names, or None when it names no path of the repository."""
    if any(mark in token for mark in "<>$*… {}") or "://" in token:
        return None
    if token.startswith(SYSTEM_PREFIXES) or token.startswith("-"):
        return None
    if token.endswith("()") or (token.startswith(".") and "/" not in token):
        return None
    looks_like_file = re.search(r"\.(swift|c|h|md|json|sh|py|txt|yml|html|js)$", token)
    if "/" not in token and not looks_like_file:
        return None
    if "/" in token and not re.fullmatch(r"[A-Za-z0-9_.@+\-/]+", token):
        return None
    return token.rstrip("/")


IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def symbol_claim(token):
    """The identifiers a token names (`A.b(c:)` names A and b), or None."""
    spelled = re.fullmatch(
        r"@?([A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*)(\([^()]*\))?", token.strip()
    )
    if not spelled or token.startswith("."):
        return None
    names = spelled.group(1).split(".")
    # Lower-case single words (`inline`, `matched`) are too often plain words; keep names that a
    # reader would look up: types, functions with a call, dotted members, C and environment names.
    if len(names) == 1 and spelled.group(2) is None:
        name = names[0]
        if not (name[0].isupper() or "_" in name or re.search(r"[a-z][A-Z]", name)):
            return None
    return names


def check_claims(root, map_text, files, folders):
    errors = []
    known = set(files) | folders
    suffixes = set()
    for path in known:
        parts = path.split("/")
        for start in range(len(parts)):
            suffixes.add("/".join(parts[start:]))
    # A file's base name counts as a name of the code: the map may name a file by its concept.
    words = {os.path.splitext(os.path.basename(path))[0] for path in files}
    words.update(external_names(map_text))
    for path in files:
        if path.endswith(CODE_EXTENSIONS) or os.path.basename(path) == "Package.swift":
            if path.split("/")[0] not in CODE_FOLDERS and "/" in path:
                continue
            if path.startswith("scripts/tests/"):  # the check's own tests name missing things
                continue
            try:
                with open(os.path.join(root, path), encoding="utf-8", errors="replace") as f:
                    words.update(IDENTIFIER.findall(f.read()))
            except OSError:
                continue
    for number, token, section in backticked_tokens(map_text):
        path = path_claim(token)
        if path is not None and section == RUN_TIME_SECTION:
            continue
        if path is not None:
            if path not in known and path not in suffixes:
                errors.append(f"ARCHITECTURE.md:{number}: no file or folder `{token}`")
            continue
        names = symbol_claim(token)
        if names is None:
            continue
        missing = [name for name in names if name not in words]
        if missing:
            errors.append(
                f"ARCHITECTURE.md:{number}: `{token}` names {', '.join(missing)}, "
                "which no code of the package holds"
            )
    return errors


def external_names(map_text):
    """The names of other projects the map cites, from its bullet **names of other projects**."""
    bullet = re.search(r"^- \*\*names of other projects\*\*(.*?)(?=^- \*\*|^#|\Z)", map_text,
                       flags=re.S | re.M)
    return set(re.findall(r"`([^`]+)`", bullet.group(1))) if bullet else set()


def allow_lists(map_text):
    """{rule: [allowed path, …]} from the bullets of section "Checked rules"."""
    section = re.search(r"^## Checked rules\n(.*?)(?=^## |\Z)", map_text, flags=re.S | re.M)
    if not section:
        return None
    lists = {}
    for bullet in re.findall(r"^- \*\*(.+?)\*\*(.*?)(?=^- \*\*|^#|\Z)", section.group(1),
                             flags=re.S | re.M):
        name, body = bullet
        if name.strip() in ("names of other projects", LAYERS_BULLET):
            continue
        allowed = body.split("Allowed in:", 1)[1] if "Allowed in:" in body else ""
        # Only paths of Sources/ are places; other backticked words explain them.
        lists[name.strip()] = [t for t in re.findall(r"`([^`]+)`", allowed)
                               if t.startswith("Sources/")]
    return lists


def check_rules(root, map_text, files):
    lists = allow_lists(map_text)
    if lists is None:
        return ["ARCHITECTURE.md has no section \"## Checked rules\""]
    errors = []
    for name in sorted(set(RULES) - set(lists)):
        errors.append(f"ARCHITECTURE.md: section \"Checked rules\" has no bullet **{name}**")
    for name in sorted(set(lists) - set(RULES) - set(DELEGATED_RULES)):
        errors.append(f"ARCHITECTURE.md: rule **{name}** is unknown to {sys.argv[0]}")
    sources = [p for p in files if p.startswith("Sources/") and p.endswith((".swift", ".c", ".h"))]
    for name, pattern in RULES.items():
        allowed = set(lists.get(name, []))
        holders = set()
        for path in sources:
            try:
                with open(os.path.join(root, path), encoding="utf-8", errors="replace") as f:
                    code = strip_comments(f.read())
            except OSError:
                continue
            for number, line in enumerate(code.split("\n"), start=1):
                if pattern.search(line):
                    holders.add(path)
                    if path not in allowed:
                        errors.append(
                            f"{path}:{number}: {name[:-1] if name.endswith('s') else name} "
                            f"outside the places ARCHITECTURE.md allows (\"Checked rules\"): "
                            f"{line.strip()}"
                        )
        for path in sorted(allowed - holders):
            errors.append(
                f"ARCHITECTURE.md: **{name}** allows `{path}`, which holds none (stale entry)"
            )
    return errors


LAYERS_BULLET = "web module layers"
# Rules whose places the map lists but another script checks, because they need a build:
# scripts/check-unsafe.py reads the compiler's strict memory safety diagnostics.
DELEGATED_RULES = ("unsafe code", "unsafe code still to move")


def layer_folders(map_text):
    """[[folder, …] per layer, lowest first] from the bullet **web module layers**, or None."""
    bullet = re.search(r"^- \*\*" + LAYERS_BULLET + r"\*\*(.*?)(?=^- \*\*|^#|\Z)", map_text,
                       flags=re.S | re.M)
    if not bullet:
        return None
    return [[t.rstrip("/") for t in re.findall(r"`(Sources/[^`]+)`", segment)]
            for segment in bullet.group(1).split("→")]


def swift_code(text):
    """Swift text without comments and without the text of string literals (interpolations,
    being code, are kept); line breaks are kept, so line numbers stay true."""
    out, i, n = [], 0, len(text)
    # A stack of what encloses the scanner: "code" (with its open parentheses, inside an
    # interpolation) or a string with its closing delimiter.
    stack = [["code", 0]]
    while i < n:
        top = stack[-1]
        if top[0] == "code":
            if text.startswith("//", i):
                end = text.find("\n", i)
                i = n if end < 0 else end
                continue
            if text.startswith("/*", i):
                depth, j = 1, i + 2
                while j < n and depth:
                    if text.startswith("/*", j):
                        depth, j = depth + 1, j + 2
                    elif text.startswith("*/", j):
                        depth, j = depth - 1, j + 2
                    else:
                        j += 1
                out.append("\n" * text.count("\n", i, j))
                i = j
                continue
            raw = re.match(r'(#*)("""|")', text[i:i + 8])
            if raw:
                hashes, quote = raw.group(1), raw.group(2)
                stack.append(["string", quote + hashes, "\\" + hashes])
                out.append(" ")
                i += len(raw.group(0))
                continue
            if text[i] == "(":
                top[1] += 1
            elif text[i] == ")":
                if top[1] == 0 and len(stack) > 1:
                    stack.pop()
                    out.append(" ")
                    i += 1
                    continue
                top[1] -= 1
            out.append(text[i])
            i += 1
        else:
            closing, escape = top[1], top[2]
            if text.startswith(escape + "(", i):
                stack.append(["code", 0])
                out.append(" ")
                i += len(escape) + 1
            elif text.startswith(escape, i):
                skipped = text[i + len(escape):i + len(escape) + 1]
                out.append("\n" if skipped == "\n" else "")
                i += len(escape) + 1
            elif text.startswith(closing, i):
                stack.pop()
                out.append(" ")
                i += len(closing)
            else:
                out.append("\n" if text[i] == "\n" else "")
                i += 1
    return "".join(out)


TOP_LEVEL_DECLARATION = re.compile(
    r"^(?:(?:public|package|internal|final|nonisolated|@[A-Za-z]+(?:\([^)]*\))?)\s+)*"
    r"(?:class|struct|enum|actor|protocol|typealias|func|let|var)\s+([A-Za-z_][A-Za-z0-9_]*)",
    flags=re.M,
)


def check_layers(root, map_text, files):
    """A lower layer's file that names a higher layer's declaration, or a file in no layer."""
    layers = layer_folders(map_text)
    if layers is None:
        return [f"ARCHITECTURE.md: section \"Checked rules\" has no bullet **{LAYERS_BULLET}**"]
    errors = []
    module = os.path.commonpath([folder for layer in layers for folder in layer] or ["Sources"])
    codes, declared, layer_of = {}, {}, {}
    for path in sorted(p for p in files if p.startswith(module + "/") and p.endswith(".swift")):
        try:
            with open(os.path.join(root, path), encoding="utf-8", errors="replace") as f:
                codes[path] = swift_code(f.read())
        except OSError:
            continue
        names = TOP_LEVEL_DECLARATION.findall(codes[path])
        found = [index for index, layer in enumerate(layers)
                 if any(path.startswith(folder + "/") for folder in layer)]
        if not found:
            if names:
                errors.append(f"{path}: declares {', '.join(names)} but is in no layer of "
                              f"**{LAYERS_BULLET}** in ARCHITECTURE.md")
            continue
        layer_of[path] = found[0]
        for name in names:
            declared[name] = (found[0], path)
    for path, code in codes.items():
        if path not in layer_of:
            continue
        for number, line in enumerate(code.split("\n"), start=1):
            for name in set(IDENTIFIER.findall(line)):
                owner = declared.get(name)
                if owner and owner[0] > layer_of[path]:
                    errors.append(
                        f"{path}:{number}: names `{name}` of a higher layer ({owner[1]}); "
                        f"a layer of **{LAYERS_BULLET}** names only its own and lower ones"
                    )
    return errors


# What the toolchain brings, which no row lists; the test frameworks are refused where the tool links.
TOOLCHAIN = {
    "Foundation", "FoundationEssentials", "FoundationNetworking", "FoundationXML", "Glibc", "Musl",
    "Darwin", "ucrt", "WinSDK", "Android", "Bionic", "Dispatch", "Synchronization", "Swift",
    "_Concurrency", "os", "RegexBuilder", "_StringProcessing", "XCTest", "Testing",
}
TEST_FRAMEWORKS = {"XCTest", "Testing"}
TOOL = "SnapshotTestingCLI"
# A system library's name in the map, and in Package.swift's `linkedLibrary`.
SYSTEM_LIBRARIES = {"libpng": "png", "zlib": "z", "libdeflate": "deflate"}
IMPORT = re.compile(
    r"^\s*(?:@[A-Za-z_]+(?:\([^)]*\))?\s+)*(?:(?:public|package|internal|private|fileprivate)\s+)?"
    r"import\s+(?:(?:struct|class|enum|protocol|func|var|let|typealias)\s+)?([A-Za-z_][A-Za-z0-9_]*)",
    flags=re.M,
)


def module_rows(map_text):
    """{module: (line number, {dependency, …})} from the first fenced block of "## Modules".
    A row is `Module → a, b, c`, continued on indented lines; words in parentheses are notes, and
    "nothing" or "Foundation only" is no dependency."""
    section = re.search(r"^## Modules\n(.*?)(?=^## |\Z)", map_text, flags=re.S | re.M)
    if not section:
        return None
    block = re.search(r"^```[^\n]*\n(.*?)^```", section.group(1), flags=re.S | re.M)
    if not block:
        return None
    first_line = map_text[:section.start(1) + block.start(1)].count("\n") + 1
    rows, last = {}, None
    for offset, line in enumerate(block.group(1).split("\n")):
        if "→" in line:
            left, right = line.split("→", 1)
            last = left.strip()
            rows[last] = (first_line + offset, set())
        elif last and line.startswith(" ") and line.strip():
            right = line  # a row continued on the next line
        else:
            continue
        right = re.sub(r"\([^)]*\)", "", right)
        rows[last][1].update({name.strip() for name in right.split(",")}
                             - {"", "nothing", "Foundation only"})
    return rows


def package_targets(root):
    """{target: {dependency, …}} of the targets under Sources/, from `swift package dump-package`:
    targets by name, products by name, linked system libraries by the map's names."""
    import json
    dumped = subprocess.run(["swift", "package", "dump-package", "--package-path", root],
                            check=True, capture_output=True, text=True).stdout
    names = {value: key for key, value in SYSTEM_LIBRARIES.items()}
    targets = {}
    for target in json.loads(dumped)["targets"]:
        if target["type"] == "test" or not (target.get("path") or "Sources/").startswith("Sources/"):
            continue
        dependencies = set()
        for dependency in target["dependencies"]:
            kind, value = next(iter(dependency.items()))
            dependencies.add(value[0])
        for setting in target.get("settings", []):
            library = setting.get("kind", {}).get("linkedLibrary")
            if library:
                dependencies.add(names.get(library["_0"], "lib" + library["_0"]))
        targets[target["name"]] = dependencies
    return targets


def check_modules(root, map_text, files, targets=None):
    rows = module_rows(map_text)
    if rows is None:
        return ["ARCHITECTURE.md: section \"Modules\" has no fenced block of dependencies"]
    try:
        targets = targets if targets is not None else package_targets(root)
    except (OSError, subprocess.CalledProcessError) as error:
        return [f"Package.swift could not be read with `swift package dump-package`: {error}"]
    errors = []
    for name in sorted(set(targets) - set(rows)):
        errors.append(f"ARCHITECTURE.md: module {name} (Package.swift) is missing from the map's "
                      "dependency block (\"Modules\")")
    for name in sorted(set(rows) - set(targets)):
        errors.append(f"ARCHITECTURE.md:{rows[name][0]}: the map names module {name}, which "
                      "Package.swift does not declare under Sources/")
    for name in sorted(set(rows) & set(targets)):
        number, listed = rows[name]
        if listed != targets[name]:
            extra, lacking = sorted(listed - targets[name]), sorted(targets[name] - listed)
            errors.append(
                f"ARCHITECTURE.md:{number}: {name}'s row differs from Package.swift"
                + (f"; the map adds {', '.join(extra)}" if extra else "")
                + (f"; the map lacks {', '.join(lacking)}" if lacking else ""))
    # What the review tool links, which must not bring a test framework.
    tool, pending = set(), [TOOL]
    while pending:
        module = pending.pop()
        if module not in tool:
            tool.add(module)
            pending += [d for d in rows.get(module, (0, set()))[1] if d in rows]
    for path in sorted(p for p in files if p.startswith("Sources/") and p.endswith(".swift")):
        module = path.split("/")[1]
        if module not in rows:
            continue
        try:
            with open(os.path.join(root, path), encoding="utf-8", errors="replace") as f:
                code = swift_code(f.read())
        except OSError:
            continue
        allowed = rows[module][1] | {module}
        for match in IMPORT.finditer(code):
            imported = match.group(1)
            number = code.count("\n", 0, match.start(1)) + 1
            if imported in TEST_FRAMEWORKS and module in tool:
                errors.append(f"{path}:{number}: imports {imported}, but {module} is linked by the "
                              "review tool, which must link no test framework")
            elif imported not in allowed and imported not in TOOLCHAIN:
                errors.append(f"{path}:{number}: imports {imported}, which {module}'s row in "
                              "ARCHITECTURE.md (\"Modules\") does not list")
    return errors


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--root", default=os.path.join(os.path.dirname(__file__), ".."))
    parser.add_argument("--map", help="the map to check (default: ROOT/ARCHITECTURE.md)")
    arguments = parser.parse_args()
    root = os.path.abspath(arguments.root)
    map_path = arguments.map or os.path.join(root, "ARCHITECTURE.md")
    with open(map_path, encoding="utf-8") as f:
        map_text = f.read()
    files, folders = repository_paths(root)
    errors = (check_claims(root, map_text, files, folders) + check_rules(root, map_text, files)
              + check_modules(root, map_text, files) + check_layers(root, map_text, files))
    for error in errors:
        print(f"error: {error}", file=sys.stderr)
    if errors:
        print(f"{len(errors)} false claim(s) in {map_path}", file=sys.stderr)
        return 1
    print(f"ARCHITECTURE.md holds: {len(backticked_tokens(map_text))} names checked, "
          f"{len(RULES)} rules, {len(module_rows(map_text) or {})} modules and their imports, "
          f"{len(layer_folders(map_text) or [])} web module layers")
    return 0


if __name__ == "__main__":
    sys.exit(main())
