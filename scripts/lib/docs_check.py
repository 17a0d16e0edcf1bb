#!/usr/bin/env python3
"""The checks scripts/docs runs besides DocC's own: curation and the text of the documentation.

    docs_check.py curation SYMBOL_GRAPH_DIR CATALOG
        Every top-level public symbol of the module (type, protocol, type alias, global function
        or variable, and every type of another module the module extends) must be listed under
        `## Topics` in the catalog's landing page, or in an article that the landing page's
        Topics list. Every article must be listed in the landing page's Topics.

    docs_check.py text FILE...
        Markdown files are read whole; Swift files only on their `///` lines. Fails on what looks
        like a commit hash (7 to 40 lowercase hex digits with at least one letter and one digit,
        not part of a longer word, a decimal number or a UUID, and not in ALLOWED_HEX), and on
        phrases that record how the work was done rather than what the software does.

    docs_check.py examples MARKDOWN TESTS_DIR
        Every line of code in the ```swift blocks of MARKDOWN must be found in a test under
        TESTS_DIR, so that the examples a reader copies are compiled and run. Lines are compared
        without their `//` comments and without whitespace, so a test may wrap or indent them
        as swift-format does (a trailing comma before `]` or `)` is ignored too). A block that starts with `// Package.swift` is a manifest
        fragment (scripts/consumer-check builds one). UNTESTED_EXAMPLE_LINES lists the few lines
        a test cannot run as written, each with its reason.

Each problem is printed as `PATH:LINE: message`; the exit status is 1 when there are any.
"""

import json
import os
import re
import sys

# Hex words that are not commit hashes but would look like one. Add a word here, with where it
# comes from, only when it is part of the software (an identifier, a constant, a test vector).
ALLOWED_HEX = {
}

HEX_WORD = re.compile(r"(?<![0-9A-Za-z_.])[0-9a-f]{7,40}(?![0-9A-Za-z_])")
UUID = re.compile(r"[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}")

PHRASES = [
    ("whole-suite run", re.compile(r"whole-suite run", re.I)),
    ("filtered run", re.compile(r"filtered runs?\b", re.I)),
    ("tried and dropped", re.compile(r"tried and dropped", re.I)),
    ("session", re.compile(r"\bsessions?\b", re.I)),
    ("the README's run", re.compile(r"the README['\u2019]s (benchmark )?run", re.I)),
    ("benchmark run", re.compile(r"benchmark runs?\b", re.I)),
]

# Example lines no test can run as written, with the reason. The rest of their examples is run.
UNTESTED_EXAMPLE_LINES = {
    # A test serves on a port the system picks, so it cannot name 8080.
    'let client = JSONAPIClient(baseURL: "http://127.0.0.1:8080", transport: URLSessionTransport())':
        "the test's service listens on a free port",
    # The client's examples name a service; the tests give the example service's loopback URL.
    'let baseURL = "https://api.example.com"': "the test's service listens on a free port",
    'let baseURL = "https://api.example.com/v2"': "the test's service listens on a free port",
    # Vapor's `.detect()` reads the process's arguments (the test runner's), and `execute()` runs
    # until the process is stopped; the test starts the same routes on a free port instead.
    "let app = try await Application.make(.detect())": "reads the test runner's arguments",
    "try await app.execute()": "serves until the process is stopped",
    # Hummingbird's `runService()` serves until the process is stopped; the test serves the same
    # router with `app.test(.live)` on a free port.
    'try await Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 8080)))':
        "the test's server listens on a free port",
    ".runService()": "serves until the process is stopped",
}

TOPICS = re.compile(r"^##\s+Topics\s*$")
SYMBOL_LINK = re.compile(r"``([^`]+)``")
DOC_LINK = re.compile(r"<doc:([^>#]+)(?:#[^>]*)?>")


def problem(path, line, message):
    print(f"{path}:{line}: {message}")


# Curation ------------------------------------------------------------------------------------


def topics_links(path):
    """The symbol and article links in a page's `## Topics` section, with their line numbers."""
    symbols, articles = [], []
    in_topics = False
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            if line.startswith("## "):
                in_topics = bool(TOPICS.match(line))
                continue
            if line.startswith("# "):
                in_topics = False
                continue
            if not in_topics or not line.lstrip().startswith("- "):
                continue
            symbols += [(m, number) for m in SYMBOL_LINK.findall(line)]
            articles += [(m.split("/")[-1], number) for m in DOC_LINK.findall(line)]
    return symbols, articles


def top_level_name(link, module):
    """The first path component of a symbol link (``JSONAPI/Document/init()`` -> Document)."""
    parts = link.split("/")
    if parts[0] == module:
        if len(parts) == 1:
            return None  # the module itself
        parts = parts[1:]  # a type may share the module's name (JSONAPIClient/JSONAPIClient)
    return re.sub(r"-[^/]*$", "", parts[0])


def public_top_level_symbols(graph_dir, module):
    """Top-level symbols of `module`, and the types of other modules it extends ("Swift/DecodingError")."""
    names = {}
    for entry in sorted(os.listdir(graph_dir)):
        if not entry.endswith(".symbols.json"):
            continue
        stem = entry[: -len(".symbols.json")]
        if stem != module and not stem.startswith(module + "@"):
            continue
        extended = stem.split("@", 1)[1] if "@" in stem else None
        with open(os.path.join(graph_dir, entry), encoding="utf-8") as f:
            graph = json.load(f)
        for symbol in graph["symbols"]:
            path = symbol["pathComponents"]
            kind = symbol["kind"]["identifier"]
            if extended is None:
                if len(path) == 1 and kind != "swift.extension":
                    names[path[0]] = kind.removeprefix("swift.")
            else:
                # What the module adds to another module's type: the members' paths (and, with
                # extension block symbols, the block's own) start with that type's name.
                names[f"{extended}/{path[0]}"] = "extension"
    return names


def check_curation(graph_dir, catalog):
    pages = sorted(
        os.path.join(root, name)
        for root, _, files in os.walk(catalog)
        for name in files
        if name.endswith(".md")
    )
    module = None
    landing = None
    for page in pages:
        with open(page, encoding="utf-8") as f:
            first = f.readline()
        m = re.match(r"^#\s+``([^`]+)``\s*$", first)
        if m:
            module, landing = m.group(1), page
    if landing is None:
        problem(catalog, 1, "no landing page (a page whose title is ``Module``)")
        return 1
    failures = 0
    articles = {os.path.splitext(os.path.basename(p))[0]: p for p in pages if p != landing}

    symbols, linked_articles = topics_links(landing)
    linked = {name for name, _ in linked_articles}
    for name, path in sorted(articles.items()):
        if name not in linked:
            problem(path, 1, f"article <doc:{name}> is not listed under ## Topics in {os.path.basename(landing)}")
            failures += 1
    for name in sorted(linked & set(articles)):
        more, _ = topics_links(articles[name])
        symbols += more

    curated = set()
    for link, _ in symbols:
        top = top_level_name(link, module)
        if top is None:
            continue
        curated.add(top)
        parts = link.split("/")
        if parts[0] == module:
            parts = parts[1:]
        if len(parts) >= 2:
            curated.add(f"{parts[0]}/{re.sub(r'-[^/]*$', '', parts[1])}")

    public = public_top_level_symbols(graph_dir, module)
    if not public:
        problem(graph_dir, 1, f"no symbol graph for {module}")
        return failures + 1
    missing = 0
    for name, kind in sorted(public.items()):
        if name not in curated:
            problem(landing, 1, f"public {kind} ``{name}`` is not listed under ## Topics "
                    "(of the landing page or of an article it lists)")
            missing += 1
    print(f"curation: {len(public) - missing} of {len(public)} top-level symbols listed", file=sys.stderr)
    return failures + missing


# Text ----------------------------------------------------------------------------------------


def check_line(path, number, text):
    failures = 0
    masked = UUID.sub(" ", text)
    for word in HEX_WORD.findall(masked):
        if re.search(r"[a-f]", word) and re.search(r"[0-9]", word) and word not in ALLOWED_HEX:
            problem(path, number, f"looks like a commit hash: {word}")
            failures += 1
    for label, pattern in PHRASES:
        if pattern.search(text):
            problem(path, number, f"records run history or how work was organised: \"{label}\"")
            failures += 1
    return failures


def check_text(paths):
    failures = 0
    for path in paths:
        doc_comments_only = path.endswith(".swift")
        with open(path, encoding="utf-8", errors="replace") as f:
            for number, line in enumerate(f, 1):
                if doc_comments_only and not line.lstrip().startswith("///"):
                    continue
                failures += check_line(path, number, line)
    return failures


# Examples ------------------------------------------------------------------------------------


def without_comment(line):
    """`line` without a `//` comment that is outside a string literal."""
    quoted = False
    for index, char in enumerate(line):
        if char == '"' and (index == 0 or line[index - 1] != "\\"):
            quoted = not quoted
        elif not quoted and line.startswith("//", index):
            return line[:index]
    return line


def squeezed(text):
    """`text` without whitespace, and without the trailing commas swift-format adds to wrapped lists."""
    return re.sub(r",([\])])", r"\1", re.sub(r"\s+", "", text))


def check_examples(markdown, tests_dir):
    sources = []
    for root, _, files in os.walk(tests_dir):
        for name in sorted(files):
            if name.endswith(".swift"):
                with open(os.path.join(root, name), encoding="utf-8") as f:
                    sources.append(squeezed("".join(without_comment(line) for line in f)))
    tested = "\n".join(sources)
    allowed = {squeezed(line) for line in UNTESTED_EXAMPLE_LINES}
    failures = checked = 0
    in_block = False
    block_start = 0
    with open(markdown, encoding="utf-8") as f:
        lines = f.read().splitlines()
    for number, line in enumerate(lines, 1):
        if not in_block:
            if line.strip() == "```swift":
                in_block, block_start = True, number
            continue
        if line.strip() == "```":
            in_block = False
            continue
        if number == block_start + 1 and line.strip() == "// Package.swift":
            in_block = False  # a manifest fragment: the lines up to its closing fence are skipped
            continue
        code = squeezed(without_comment(line)).removesuffix(",")
        if not code or code in allowed:
            continue
        checked += 1
        if code not in tested:
            problem(markdown, number, f"example line is in no test under {tests_dir}: {line.strip()}")
            failures += 1
    print(f"examples: {checked - failures} of {checked} lines of {markdown} found in tests", file=sys.stderr)
    return failures


def main(argv):
    if len(argv) >= 2 and argv[1] == "curation" and len(argv) == 4:
        return 1 if check_curation(argv[2], argv[3]) else 0
    if len(argv) >= 2 and argv[1] == "text":
        return 1 if check_text(argv[2:]) else 0
    if len(argv) == 4 and argv[1] == "examples":
        return 1 if check_examples(argv[2], argv[3]) else 0
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
