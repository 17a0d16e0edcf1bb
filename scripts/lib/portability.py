#!/usr/bin/env python3
"""Checks that the sources build where the README says each product runs: on every Apple platform
at the package's declared floor, and where `Int` has 32 bits (watchOS devices, arm64_32).

No Apple SDK is installed here, so the check reads what the compiler knows on Linux:

1. The type-checked syntax tree of every target (`swiftc -dump-ast -dump-ast-format json`, with the
   flags of the debug build), in which every name is resolved to the declaration it means and
   every literal has its type. Against it:
   - availability: a declaration of Swift, Foundation, Synchronization, Observation, ... that an
     Apple platform introduced after the package's floor there, used outside an `@available` or
     `if #available`/`guard #available` that covers it. What each platform introduced when is read
     from the toolchain's own modules (their symbol graphs carry the `@available` attributes
     Apple's builds use), not written here;
   - C names: a C function, type or constant used in code an Apple build compiles, unless it is
     one of Darwin's (portability_rules.DARWIN_C_NAMES) or the library's own C targets';
   - 32-bit `Int`: an integer literal typed `Int` or `UInt` that does not fit 32 bits; an
     `Int(...)`/`UInt(...)` conversion of a constant that does not (`Int(UInt32.max)` traps there);
     a shift of an `Int` or `UInt` by 32 or more (on 32 bits `x << 32` is 0, and `x &<< 40` shifts
     by 8).
2. The source text, with each `#if` evaluated for every platform and processor
   (portability_rules.CONFIGURATIONS), for what the Linux compiler never reads: code active only
   on Apple platforms is checked for Linux-only modules and names; every import of a Linux-only
   module must sit where only Linux reads it; and URLSession delegate methods must take the
   `@Sendable` completion handlers Apple's SDKs declare (elsewhere they are different methods).

Usage: scripts/lib/portability.py [--build-path .build] [--root DIR] [--targets A,B] [--json]
Run from the repository root after `swift build --enable-all-traits` (debug): it reads the build's
commands (debug.yaml) and modules. Exits 1 when it finds a problem, printing each as
`file:line:column: rule (platforms): detail`.
"""
import argparse
import concurrent.futures
import json
import os
import pathlib
import re
import subprocess
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import portability_rules as rules  # noqa: E402

# Modules whose declarations carry Apple availability: the standard library and the toolchain's
# overlays and Foundation. Their symbol graphs are read once per toolchain and cached.
SYMBOL_MODULES = [
    "Swift", "_Concurrency", "_StringProcessing", "RegexBuilder", "Synchronization", "Observation",
    "Dispatch", "FoundationEssentials", "FoundationInternationalization", "Foundation",
    "FoundationNetworking",
]


# MARK: - Versions and floors


def version(text):
    """'15', '15.0', '10.14.4' -> (15, 0, 0)."""
    parts = [int(p) for p in str(text).split(".") if p != ""]
    return tuple((parts + [0, 0, 0])[:3])


def show(v):
    return ".".join(str(x) for x in (v[:2] if v[2] == 0 else v))


def package_floors(root):
    """The `platforms:` of Package.swift: {'macOS': (15, 0, 0), ...}."""
    text = (root / "Package.swift").read_text(encoding="utf-8")
    floors = {}
    for name, value in re.findall(r"\.(macOS|iOS|tvOS|watchOS|visionOS)\(\s*\.v(\d+(?:_\d+)*)\s*\)", text):
        floors[name] = version(value.replace("_", "."))
    for name, value in re.findall(r'\.(macOS|iOS|tvOS|watchOS|visionOS)\(\s*"([\d.]+)"\s*\)', text):
        floors[name] = version(value)
    # SwiftPM's own minimums where the manifest is silent.
    defaults = {"macOS": (10, 13, 0), "iOS": (12, 0, 0), "tvOS": (12, 0, 0), "watchOS": (4, 0, 0), "visionOS": (1, 0, 0)}
    for name in rules.APPLE:
        floors.setdefault(name, defaults[name])
    return floors


def introduced_on(entry, platform):
    """When `platform` introduced a declaration, from its availability entry, or None when it has
    no restriction there. visionOS has every iOS API it had at its start: a declaration that names
    iOS but not visionOS is available on visionOS 1 when iOS had it by 17, else from the visionOS
    that shipped with that iOS (the compiler infers visionOS availability the same way)."""
    if platform in entry:
        return entry[platform]
    if platform == "visionOS" and "iOS" in entry:
        ios = entry["iOS"]
        if ios <= (17, 0, 0):
            return None
        return (ios[0] - 16, ios[1], ios[2]) if ios[0] < 26 else ios
    return None


# MARK: - Symbol availability from the toolchain


def toolchain_version():
    out = subprocess.run(["swiftc", "--version"], capture_output=True, text=True).stdout
    return out.strip().splitlines()[0] if out.strip() else "unknown"


def load_symbols(cache_dir):
    """USR -> {platform: version} for every declaration of SYMBOL_MODULES that an Apple platform
    introduced, read from the toolchain's symbol graphs (cached per toolchain)."""
    cache_dir.mkdir(parents=True, exist_ok=True)
    key = re.sub(r"[^A-Za-z0-9.]+", "-", toolchain_version())
    cache = cache_dir / f"availability-{key}.json"
    if cache.exists():
        raw = json.loads(cache.read_text())
        table = {usr: {p: tuple(v) for p, v in entry.items()} for usr, entry in raw.items() if not usr.startswith("_")}
        table["_older_defaults"] = set(raw.get("_older_defaults", {}).get("all", []))
        table["_names"] = raw.get("_names", {}).get("all", {})
        return table
    graphs = cache_dir / "symbolgraphs"
    graphs.mkdir(exist_ok=True)

    def extract(module):
        subprocess.run(
            ["swift-symbolgraph-extract", "-module-name", module, "-target", host_target(),
             "-output-dir", str(graphs), "-minimum-access-level", "public"],
            capture_output=True)

    with concurrent.futures.ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        list(pool.map(extract, SYMBOL_MODULES))
    table = {}
    names = {}
    everything = set()
    for path in sorted(graphs.glob("*.symbols.json")):
        graph = json.loads(path.read_text())
        for symbol in graph.get("symbols", []):
            everything.add(symbol["identifier"]["precise"])
            entry = {}
            for item in symbol.get("availability") or []:
                domain = item.get("domain")
                if domain in rules.APPLE and "introduced" in item:
                    i = item["introduced"]
                    entry[domain] = (i.get("major", 0), i.get("minor", 0), i.get("patch", 0))
            if entry:
                table[symbol["identifier"]["precise"]] = entry
                names[symbol["identifier"]["precise"]] = ".".join(symbol.get("pathComponents", []))
    if not table:
        sys.exit("portability: no symbol graph could be read from the toolchain (swift-symbolgraph-extract)")
    # Requirements whose default implementation (the same member in an extension of the protocol:
    # `...P<member>` and `...PsE<member>`) is available everywhere the protocol is.
    older = []
    for usr in table:
        split = protocol_member_split(usr)
        if split and (split[0] + "sE" + split[1]) in everything and (split[0] + "sE" + split[1]) not in table:
            older.append(usr)
    table["_older_defaults"] = {"all": older}
    table["_names"] = {"all": names}
    cache.write_text(json.dumps(table))
    table["_older_defaults"] = set(older)
    table["_names"] = names
    return table


def protocol_member_split(usr):
    """`s:<module><protocol>P<member>` as (`s:<module><protocol>P`, `<member>`) for a protocol
    requirement (not an extension member, `PsE`); None for anything else."""
    match = re.match(r"s:(s|\d+)", usr)
    if not match:
        return None
    position = 2
    if usr[position] == "s":
        position += 1
    else:
        length = re.match(r"\d+", usr[position:]).group(0)
        position += len(length) + int(length)
    length = re.match(r"\d+", usr[position:])
    if not length:
        return None
    position += len(length.group(0)) + int(length.group(0))
    if position >= len(usr) or usr[position] != "P" or usr[position + 1:position + 3] == "sE":
        return None
    return usr[:position + 1], usr[position + 1:]


def host_target():
    out = subprocess.run(["swiftc", "-print-target-info"], capture_output=True, text=True).stdout
    try:
        return json.loads(out)["target"]["triple"]
    except (ValueError, KeyError):
        return "x86_64-unknown-linux-gnu"


# MARK: - #if regions


class Condition:
    """Evaluates a `#if` condition for one configuration: True, False or None (unknown: a flag such
    as DEBUG or a package trait, which either value may take)."""

    def __init__(self, os_name, arch, bits):
        self.os = os_name
        self.arch = arch
        self.bits = bits

    def evaluate(self, text):
        self.tokens = re.findall(r"&&|\|\||!|\(|\)|,|[<>=]+|[A-Za-z_][A-Za-z0-9_.]*|\d+(?:\.\d+)*", text)
        self.position = 0
        value = self.disjunction()
        return value

    def peek(self):
        return self.tokens[self.position] if self.position < len(self.tokens) else None

    def take(self):
        token = self.peek()
        self.position += 1
        return token

    def disjunction(self):
        value = self.conjunction()
        while self.peek() == "||":
            self.take()
            other = self.conjunction()
            value = True if value is True or other is True else (False if value is False and other is False else None)
        return value

    def conjunction(self):
        value = self.unary()
        while self.peek() == "&&":
            self.take()
            other = self.unary()
            value = False if value is False or other is False else (True if value is True and other is True else None)
        return value

    def unary(self):
        if self.peek() == "!":
            self.take()
            value = self.unary()
            return None if value is None else not value
        if self.peek() == "(":
            self.take()
            value = self.disjunction()
            if self.peek() == ")":
                self.take()
            return value
        name = self.take()
        if self.peek() == "(":
            self.take()
            arguments = []
            depth = 1
            while self.peek() is not None and depth > 0:
                token = self.take()
                if token == "(":
                    depth += 1
                elif token == ")":
                    depth -= 1
                    if depth == 0:
                        break
                arguments.append(token)
            return self.function(name, arguments)
        if name in ("true",):
            return True
        if name in ("false",):
            return False
        return None  # a flag: DEBUG, a package trait, JSONAPI_PORTABLE_SIMD, ...

    def function(self, name, arguments):
        first = arguments[0] if arguments else ""
        if name == "os":
            return self.os == first or (first == "Linux" and self.os == "Linux")
        if name == "arch":
            return self.arch == first
        if name == "canImport":
            return rules.can_import(first, self.os, self.arch)
        if name == "_pointerBitWidth":
            return first == f"_{self.bits}"
        if name == "_endian":
            return first == "little"
        if name == "targetEnvironment":
            return None
        if name in ("compiler", "swift"):
            return True  # the package needs Swift 6.2 or later
        if name in ("hasFeature", "hasAttribute", "_runtime"):
            return None
        return None


DIRECTIVE = re.compile(r"^\s*#(if|elseif|else|endif)\b(.*)$")


def strip_comment(text):
    return re.sub(r'"(\\.|[^"\\])*"', '""', text).split("//", 1)[0]


def regions(lines):
    """For each line, the `#if` conditions that enclose it: a list of (condition text, polarity)
    clauses, each clause a list of (condition, expected truth)."""
    stack = []  # each entry: list of (condition, expected) for the active clause
    result = []
    in_block_comment = False
    in_multiline_string = False
    for line in lines:
        stripped = line.strip()
        if in_multiline_string:
            if '"""' in stripped:
                in_multiline_string = False
            result.append([c for frame in stack for c in frame["clause"]])
            continue
        if in_block_comment:
            if "*/" in stripped:
                in_block_comment = False
            result.append([c for frame in stack for c in frame["clause"]])
            continue
        match = DIRECTIVE.match(line)
        if match:
            kind, rest = match.group(1), strip_comment(match.group(2)).strip()
            if kind == "if":
                stack.append({"previous": [rest], "clause": [(rest, True)]})
            elif kind == "elseif" and stack:
                frame = stack[-1]
                frame["clause"] = [(p, False) for p in frame["previous"]] + [(rest, True)]
                frame["previous"].append(rest)
            elif kind == "else" and stack:
                frame = stack[-1]
                frame["clause"] = [(p, False) for p in frame["previous"]]
            elif kind == "endif" and stack:
                stack.pop()
            result.append([c for frame in stack for c in frame["clause"]])
            continue
        code = strip_comment(line)
        if code.count('"""') % 2 == 1:
            in_multiline_string = True
        if "/*" in code and "*/" not in code.split("/*", 1)[1]:
            in_block_comment = True
        result.append([c for frame in stack for c in frame["clause"]])
    return result


def active(clauses, configuration):
    """Whether a line under `clauses` may be compiled in `configuration` (True, False, None)."""
    _, os_name, arch, bits = configuration
    evaluator = Condition(os_name, arch, bits)
    verdict = True
    for text, expected in clauses:
        value = evaluator.evaluate(text)
        if value is None:
            verdict = None if verdict is not False else False
        elif value != expected:
            return False
    return verdict


class SourceFile:
    def __init__(self, path, target, root):
        self.path = path
        self.target = target
        self.relative = path.relative_to(root).as_posix()
        self.text = path.read_text(encoding="utf-8")
        self.lines = self.text.split("\n")
        self.line_starts = [0]
        for line in self.lines:
            self.line_starts.append(self.line_starts[-1] + len(line.encode("utf-8")) + 1)
        self.clauses = regions(self.lines)
        self.cache = {}

    def position(self, offset):
        """Line and column (1-based) of a UTF-8 byte offset."""
        low, high = 0, len(self.line_starts) - 1
        while low < high:
            middle = (low + high + 1) // 2
            if self.line_starts[middle] <= offset:
                low = middle
            else:
                high = middle - 1
        return low + 1, offset - self.line_starts[low] + 1

    def configurations(self, line):
        """The configurations (names) in which `line` (1-based) may be compiled."""
        key = line
        if key not in self.cache:
            clauses = self.clauses[line - 1] if 0 < line <= len(self.clauses) else []
            self.cache[key] = [c for c in rules.CONFIGURATIONS if active(clauses, c) is not False]
        return self.cache[key]


# MARK: - Findings


class Findings:
    def __init__(self):
        self.items = set()

    def add(self, source, line, column, rule, platforms, detail):
        self.items.add((source.relative, line, column, rule, ", ".join(platforms), detail))

    def sorted(self):
        """Each problem once per line: the first column where a line shows it."""
        first = {}
        for file, line, column, rule, platforms, detail in self.items:
            key = (file, line, rule, platforms, detail)
            first[key] = min(column, first.get(key, column))
        return sorted((f, l, c, r, p, d) for (f, l, r, p, d), c in first.items())


# MARK: - The text check


IMPORT = re.compile(r"^\s*(?:@\w+(?:\([^)]*\))?\s+)*(?:(?:private|internal|public|package|fileprivate)\s+)?import\s+(?:(?:struct|class|enum|func|var|let|typealias|protocol)\s+)?([A-Za-z_][A-Za-z0-9_]*)")
LINUX_PATH = re.compile(r'"/(proc|sys)/')


def text_check(source, findings):
    platforms = rules.platforms_of(source.target)
    for number, line in enumerate(source.lines, start=1):
        code = strip_comment(line)
        match = IMPORT.match(code)
        if match and match.group(1) in rules.LINUX_ONLY_MODULES:
            apple = [c[0] for c in source.configurations(number) if c[1] in platforms]
            if apple:
                findings.add(source, number, line.index("import") + 1, "Linux-only module", apple,
                             f"`import {match.group(1)}` where an Apple build reads it: guard it with "
                             f"`#if canImport({match.group(1)})` or `#if os(Linux)`")
        if LINUX_PATH.search(line.split("//", 1)[0]):
            apple = [c[0] for c in source.configurations(number) if c[1] in platforms]
            if apple:
                findings.add(source, number, LINUX_PATH.search(line).start() + 1, "Linux-only path", apple,
                             "a /proc or /sys path where an Apple build runs it")
        # Code only Apple builds compile: the Linux compiler never reads it, so its names are
        # checked here by spelling.
        configurations = source.configurations(number)
        on_linux = any(c[1] == "Linux" for c in configurations)
        apple = [c[0] for c in configurations if c[1] in platforms]
        if apple and not on_linux:
            for name in re.findall(r"\b[A-Za-z_][A-Za-z0-9_]*\b", code):
                if name in LINUX_ONLY_C_NAMES:
                    findings.add(source, number, code.index(name) + 1, "Linux-only C name", apple,
                                 f"`{name}` is not part of Darwin")


DELEGATE_METHOD = re.compile(r"func\s+urlSession\s*\(([^{]*)\{", re.S)


def delegate_check(source, findings):
    """URLSession's delegate methods take `@Sendable` completion handlers in Apple's SDKs, where
    they are optional Objective-C requirements: a method whose handler type differs is another
    method there, which URLSession never calls (a data task would wait for its disposition
    forever), though it compiles, and on Linux even works."""
    platforms = rules.platforms_of(source.target)
    code = "\n".join(strip_comment(line) for line in source.lines)
    for match in DELEGATE_METHOD.finditer(code):
        signature = match.group(1)
        handler = re.search(r"completionHandler\s*:\s*([^)]*?\()", signature)
        if handler and "@Sendable" not in handler.group(1):
            line = code.count("\n", 0, match.start()) + 1
            apple = [c[0] for c in source.configurations(line) if c[1] in platforms]
            if apple:
                findings.add(source, line, 1, "delegate signature", apple,
                             "a URLSession delegate method's completionHandler must be `@escaping @Sendable`, "
                             "as Apple's SDKs declare it, or URLSession never calls the method there")


# Names of glibc and Linux that code compiled only for Apple platforms must not use (the text check
# has no compiler to resolve names there; compiled code is held to DARWIN_C_NAMES instead).
LINUX_ONLY_C_NAMES = {
    "mremap", "MREMAP_MAYMOVE", "MADV_HUGEPAGE", "MADV_NOHUGEPAGE", "posix_fadvise", "POSIX_FADV_SEQUENTIAL",
    "malloc_usable_size", "mallinfo", "mallinfo2", "malloc_trim", "mallopt", "epoll_create", "epoll_create1",
    "epoll_ctl", "epoll_wait", "eventfd", "inotify_init", "sched_getaffinity", "get_nprocs", "sysinfo",
    "prctl", "memfd_create", "getrandom", "gettid", "pipe2", "accept4", "posix_fallocate", "MAP_POPULATE",
    "MAP_HUGETLB", "O_DIRECT", "O_NOATIME",
}


# MARK: - The syntax-tree check


def build_commands(build_path):
    """Target name -> its debug module command's arguments, from the build's debug.yaml."""
    yaml = build_path / "debug.yaml"
    if not yaml.exists():
        sys.exit(f"portability: {yaml} is missing: run `swift build --enable-all-traits` first")
    commands = {}
    current = None
    for line in yaml.read_text().splitlines():
        match = re.match(r'^  "C\.([A-Za-z0-9_]+)-[^"]*-debug(?:-tool)?\.module":', line)
        if match:
            current = match.group(1)
            continue
        if current and line.startswith("    args: "):
            args = json.loads(line[len("    args: "):])
            if "-module-name" in args:
                commands[current] = args
            current = None
    return commands


DROPPED_WITH_VALUE = {"-emit-module-path", "-output-file-map", "-index-store-path", "-emit-objc-header-path",
                      "-emit-dependencies-path", "-j"}
DROPPED = {"-emit-dependencies", "-emit-module", "-incremental", "-c", "-enable-batch-mode",
           "-serialize-diagnostics", "-parseable-output", "-emit-objc-header", "-g", "-enable-testing",
           "-whole-module-optimization", "-wmo", "-emit-module-interface", "-enable-library-evolution"}


def dump_arguments(args, old_root, new_root):
    """The debug build's command for a module, turned into a dump of its type-checked syntax tree."""
    result = [args[0]]
    skip = False
    passed_on = False
    for argument in args[1:]:
        if passed_on:  # the value of -Xcc and the like, for the tool behind the compiler
            result.append(argument)
            passed_on = False
            continue
        if skip:
            skip = False
            continue
        if argument in ("-Xcc", "-Xlinker", "-Xfrontend", "-Xclang-linker"):
            result.append(argument)
            passed_on = True
            continue
        if argument in DROPPED_WITH_VALUE:
            skip = True
            continue
        if argument in DROPPED or argument.startswith("-j"):
            continue
        result.append(argument)
    result += ["-dump-ast", "-dump-ast-format", "json", "-suppress-warnings", "-j2", "-enable-batch-mode"]
    return result


def source_list(args, old_root, new_root):
    """The module's source files (from its @sources file), moved to `new_root` if the check runs on
    a copy of the tree."""
    for argument in args:
        if argument.startswith("@"):
            files = pathlib.Path(argument[1:]).read_text().split()
            return [str(new_root / pathlib.Path(f).relative_to(old_root)) if f.startswith(str(old_root) + "/") else f
                    for f in files]
    return []


def run_dump(target, args, sources, scratch):
    """The syntax trees of a target's files, as (raw JSON text, parsed tree) pairs."""
    listing = scratch / f"{target}.sources"
    listing.write_text("\n".join(sources) + "\n")
    command = [a for a in args if not a.startswith("@")] + [f"@{listing}"]
    process = subprocess.run(command, capture_output=True, text=True)
    text = process.stderr + process.stdout
    decoder = json.JSONDecoder()
    trees = []
    position = 0
    while True:
        start = text.find('{"_kind":"source_file"', position)
        if start < 0:
            break
        try:
            tree, end = decoder.raw_decode(text, start)
        except ValueError:
            position = start + 1
            continue
        trees.append((text[start:end], tree))
        position = end
    if process.returncode != 0 or not trees:
        errors = "\n".join(l for l in text.splitlines() if "error:" in l and not l.startswith('{"_kind"'))[:4000]
        raise RuntimeError(f"the syntax tree of {target} could not be dumped (exit {process.returncode}):\n{errors}")
    return trees


INT_TYPES = {"$sSiD": "Int", "$sSuD": "UInt"}
WIDE_INTEGER_TYPES = {"$ss6UInt32VD": "UInt32", "$ss5Int64VD": "Int64", "$ss6UInt64VD": "UInt64", "$sSuD": "UInt"}
SHIFTS = {"<<", ">>", "&<<", "&>>"}
INT32_RANGE = (-(1 << 31), (1 << 31) - 1)
UINT32_MAX = (1 << 32) - 1


def literal_value(text):
    text = text.replace("_", "")
    negative = text.startswith("-")
    text = text.lstrip("-")
    try:
        if text.lower().startswith("0x"):
            value = int(text, 16)
        elif text.lower().startswith("0b"):
            value = int(text, 2)
        elif text.lower().startswith("0o"):
            value = int(text, 8)
        else:
            value = int(text)
    except ValueError:
        return None
    return -value if negative else value


class TreeCheck:
    """Walks one file's syntax tree with the availability its context guarantees."""

    def __init__(self, source, symbols, nominal_pattern, floors, findings, own_c_names):
        self.source = source
        self.symbols = symbols
        self.nominal_pattern = nominal_pattern
        self.floors = floors
        self.findings = findings
        self.own_c_names = own_c_names
        self.platforms = rules.platforms_of(source.target)

    def run(self, tree):
        guaranteed = {p: self.floors[p] for p in self.platforms}
        for item in tree.get("items", []):
            self.visit(item, guaranteed, None)

    # Availability context

    @staticmethod
    def raised(guaranteed, attributes):
        """The guarantee inside a declaration with these `@available` attributes."""
        result = dict(guaranteed)
        for attribute in attributes:
            if attribute.get("_kind") == "available_attr" and attribute.get("introduced"):
                domain = attribute.get("domain")
                if domain in result:
                    result[domain] = max(result[domain], version(attribute["introduced"]))
        return result

    @staticmethod
    def with_queries(guaranteed, conditions):
        result = dict(guaranteed)
        for condition in conditions or []:
            if condition.get("_kind") == "#available":
                queries = condition.get("queries", [])
                if not any(q.get("domain") == "*" for q in queries):
                    continue  # `#unavailable`: the guarantee holds in the else branch only
                for query in queries:
                    domain = query.get("domain")
                    if domain in result and query.get("version"):
                        result[domain] = max(result[domain], version(query["version"]))
        return result

    def visit(self, node, guaranteed, range_start):
        if isinstance(node, list):
            for item in node:
                self.visit(item, guaranteed, range_start)
            return
        if not isinstance(node, dict):
            return
        kind = node.get("_kind")
        if isinstance(node.get("range"), dict) and "start" in node["range"]:
            range_start = node["range"]["start"]
        if "attrs" in node:
            guaranteed = self.raised(guaranteed, node["attrs"])
        if kind == "if_stmt":
            then_guarantee = self.with_queries(guaranteed, node.get("conditions"))
            self.visit(node.get("conditions"), guaranteed, range_start)
            self.visit(node.get("then_stmt"), then_guarantee, range_start)
            self.visit(node.get("else_stmt"), guaranteed, range_start)
            return
        if kind == "for_each_stmt":
            # The loop's `next` call is the compiler's: `next(isolation:)` where the deployment
            # target has it, `next()` before.
            for key, value in node.items():
                if key != "next_call" and isinstance(value, (dict, list)):
                    self.visit(value, guaranteed, range_start)
            return
        if kind == "brace_stmt":
            current = guaranteed
            for element in node.get("elements", []):
                self.visit(element, current, range_start)
                if isinstance(element, dict) and element.get("_kind") == "guard_stmt":
                    current = self.with_queries(current, element.get("conditions"))
            return
        self.check(node, kind, guaranteed, range_start)
        for key, value in node.items():
            if isinstance(value, (dict, list)):
                self.visit(value, guaranteed, range_start)

    # Rules

    def where(self, offset):
        line, column = self.source.position(offset if offset is not None else 0)
        return line, column

    def apple_configurations(self, line):
        return [c for c in self.source.configurations(line) if c[1] in self.platforms]

    def check(self, node, kind, guaranteed, range_start):
        decl = node.get("decl")
        if isinstance(decl, dict) and decl.get("decl_usr"):
            self.check_reference(decl["decl_usr"], decl.get("base_name", ""), guaranteed, range_start)
        for key in ("type", "interface_type", "result"):
            value = node.get(key)
            if isinstance(value, str) and self.nominal_pattern is not None:
                match = self.nominal_pattern.search(value)
                if match:
                    self.check_reference("s:" + match.group(0), match.group(0), guaranteed, range_start)
        if kind == "integer_literal_expr":
            self.check_literal(node, range_start)
        elif kind == "binary_expr":
            self.check_shift(node, range_start)
        elif kind == "call_expr":
            self.check_conversion(node, range_start)

    def check_reference(self, usr, name, guaranteed, range_start):
        if usr.startswith("c:"):
            self.check_c_name(usr, range_start)
            return
        entry = self.symbols.get(usr)
        if entry is not None and usr in self.symbols.get("_older_defaults", ()):
            # A protocol requirement added later with a default implementation that is older (as
            # `FixedWidthInteger.&*`, a requirement since Swift 6 and an extension method before):
            # where the requirement is not available the compiler calls the extension's.
            return
        if entry is None:
            # A member inherits its type's availability.
            parent = self.nominal_pattern.match(usr[2:]) if self.nominal_pattern is not None and usr.startswith("s:") else None
            if parent is None:
                return
            usr = "s:" + parent.group(0)
            entry = self.symbols.get(usr)
            if entry is None:
                return
        line, column = self.where(range_start)
        late = []
        for platform in self.platforms:
            needed = introduced_on(entry, platform)
            if needed is not None and needed > guaranteed[platform]:
                if any(c[1] == platform for c in self.source.configurations(line)):
                    late.append(f"{platform} {show(needed)}")
        if late:
            self.findings.add(
                self.source, line, column, "availability", [l.split()[0] for l in late],
                f"`{self.symbols['_names'].get(usr) or name}` needs {', '.join(late)}; the package supports "
                f"{', '.join(p + ' ' + show(self.floors[p]) for p in self.platforms)}: guard it with "
                f"@available or #available, or use what those versions have")

    def check_c_name(self, usr, range_start):
        name = re.split(r"[@$]", usr)[-1]
        if name in rules.DARWIN_C_NAMES or name in self.own_c_names or not name:
            return
        line, column = self.where(range_start)
        apple = self.apple_configurations(line)
        if rules.is_x86_intrinsic(name):
            apple = [c for c in apple if c[2] != "x86_64"]
        if apple:
            self.findings.add(
                self.source, line, column, "C name not known on Apple platforms", [c[0] for c in apple],
                f"`{name}` is not in Darwin's list (scripts/lib/portability_rules.py): put it under "
                f"`#if os(Linux)` or `#if canImport(Glibc)`, or add it to the list with where Apple documents it")

    def thirty_two_bit(self, line):
        return [c[0] for c in self.source.configurations(line) if c[3] == 32 and c[1] in self.platforms]

    def check_literal(self, node, range_start):
        kind = INT_TYPES.get(node.get("type"))
        if kind is None:
            return
        value = literal_value(node.get("value", ""))
        if value is None or (INT32_RANGE[0] <= value <= (UINT32_MAX if kind == "UInt" else INT32_RANGE[1])):
            return
        line, column = self.where(node.get("range", {}).get("start", range_start))
        narrow = self.thirty_two_bit(line)
        if narrow:
            self.findings.add(self.source, line, column, "32-bit Int", narrow,
                              f"the literal {node.get('value')} is an `{kind}` and does not fit 32 bits: "
                              f"spell its type (`Int64`, `UInt64`)")

    def check_shift(self, node, range_start):
        fn = node.get("fn", {})
        operator = find_decl_name(fn)
        if operator not in SHIFTS or node.get("type") not in INT_TYPES:
            return
        arguments = node.get("args", {}).get("args", [])
        if len(arguments) != 2:
            return
        amount = arguments[1].get("expr", {})
        while amount.get("_kind") in ("paren_expr",):
            amount = amount.get("sub_expr", {})
        if amount.get("_kind") != "integer_literal_expr":
            return
        value = literal_value(amount.get("value", ""))
        if value is None or value < 32:
            return
        line, column = self.where(node.get("range", {}).get("start", range_start))
        narrow = self.thirty_two_bit(line)
        if narrow:
            self.findings.add(self.source, line, column, "32-bit Int", narrow,
                              f"`{operator} {value}` on an `{INT_TYPES[node['type']]}`: on 32 bits it "
                              f"{'is 0' if operator in ('<<', '>>') else 'shifts by ' + str(value % 32)}")

    def check_conversion(self, node, range_start):
        if node.get("type") not in INT_TYPES:
            return
        labels = node.get("args", {}).get("labels")
        arguments = node.get("args", {}).get("args", [])
        if labels or len(arguments) != 1:
            return  # clamping:, truncatingIfNeeded:, exactly: and the like decide what happens
        fn = node.get("fn", {})
        if fn.get("_kind") != "constructor_ref_call_expr":
            return
        constant = wide_constant(arguments[0].get("expr", {}))
        if constant is None:
            return
        line, column = self.where(node.get("range", {}).get("start", range_start))
        narrow = self.thirty_two_bit(line)
        if narrow:
            self.findings.add(self.source, line, column, "32-bit Int", narrow,
                              f"`{INT_TYPES[node['type']]}({constant})` traps where `Int` has 32 bits: "
                              f"use `Int(clamping:)` or a 32-bit bound")


def find_decl_name(node):
    """The operator a binary expression calls."""
    stack = [node]
    while stack:
        current = stack.pop()
        if isinstance(current, dict):
            decl = current.get("decl")
            if isinstance(decl, dict) and decl.get("base_name"):
                return decl["base_name"]
            stack.extend(v for v in current.values() if isinstance(v, (dict, list)))
        elif isinstance(current, list):
            stack.extend(current)
    return None


# The fixed-width integer types by their mangled names: spelling and bounds. (`Int` and `UInt` are
# not here: their bounds are the platform's own, so `Int(Int.max)` is right everywhere.)
INTEGER_BOUNDS = {
    "$ss6UInt32VD": ("UInt32", 0, (1 << 32) - 1), "$ss5Int64VD": ("Int64", -(1 << 63), (1 << 63) - 1),
    "$ss6UInt64VD": ("UInt64", 0, (1 << 64) - 1), "$ss5Int32VD": ("Int32", -(1 << 31), (1 << 31) - 1),
    "$ss6UInt16VD": ("UInt16", 0, (1 << 16) - 1), "$ss5Int16VD": ("Int16", -(1 << 15), (1 << 15) - 1),
    "$ss5UInt8VD": ("UInt8", 0, 255), "$ss4Int8VD": ("Int8", -128, 127),
}
OPERATORS = {
    "+": lambda a, b: a + b, "&+": lambda a, b: a + b, "-": lambda a, b: a - b, "&-": lambda a, b: a - b,
    "*": lambda a, b: a * b, "&*": lambda a, b: a * b, "&": lambda a, b: a & b, "|": lambda a, b: a | b,
    "^": lambda a, b: a ^ b, "<<": lambda a, b: a << b, "&<<": lambda a, b: a << b, ">>": lambda a, b: a >> b,
    "&>>": lambda a, b: a >> b,
}


def constant_value(expr):
    """The value of `expr` when it is built of integer constants only (literals, `.max` and `.min` of
    the fixed-width integers, arithmetic on them, conversions of them), with its spelling; else None."""
    kind = expr.get("_kind")
    if kind == "paren_expr":
        return constant_value(expr.get("sub_expr", {}))
    if kind == "integer_literal_expr":
        value = literal_value(expr.get("value", ""))
        return None if value is None else (value, expr.get("value"))
    if kind in ("member_ref_expr", "dot_syntax_call_expr", "declref_expr"):
        decl = expr.get("decl") if isinstance(expr.get("decl"), dict) else {}
        if kind == "dot_syntax_call_expr":
            inner = expr.get("fn", {})
            decl = inner.get("decl") if isinstance(inner.get("decl"), dict) else {}
        bounds = INTEGER_BOUNDS.get(expr.get("type"))
        if decl.get("base_name") in ("max", "min") and bounds:
            name, low, high = bounds
            return (high, f"{name}.max") if decl["base_name"] == "max" else (low, f"{name}.min")
        return None
    if kind == "prefix_unary_expr":
        operand = expr.get("args", {}).get("args", [{}])[0].get("expr", {})
        value = constant_value(operand)
        if value is not None and find_decl_name(expr.get("fn", {})) == "-":
            return -value[0], "-" + value[1]
        return None
    if kind == "binary_expr":
        operator = find_decl_name(expr.get("fn", {}))
        arguments = expr.get("args", {}).get("args", [])
        if operator not in OPERATORS or len(arguments) != 2:
            return None
        left = constant_value(arguments[0].get("expr", {}))
        right = constant_value(arguments[1].get("expr", {}))
        if left is None or right is None:
            return None
        try:
            return OPERATORS[operator](left[0], right[0]), f"{left[1]} {operator} {right[1]}"
        except (ValueError, OverflowError):
            return None
    if kind == "call_expr" and expr.get("fn", {}).get("_kind") == "constructor_ref_call_expr":
        arguments = expr.get("args", {}).get("args", [])
        if len(arguments) == 1 and not expr.get("args", {}).get("labels"):
            return constant_value(arguments[0].get("expr", {}))
    return None


def wide_constant(expr):
    """The spelling of `expr` when it is a constant outside the 32-bit `Int` range, else None."""
    value = constant_value(expr)
    if value is None or INT32_RANGE[0] <= value[0] <= INT32_RANGE[1]:
        return None
    return value[1]


# MARK: - Main


def own_c_names(root):
    """Names declared by the package's C targets: their headers, and the system headers a
    system-library target's shim includes (libyajl's, found where pkg-config's include path puts
    them)."""
    names = set()
    headers = list(root.glob("Sources/C*/**/*.h"))
    for shim in list(headers):
        for included in re.findall(r"#include\s*<([^>]+)>", shim.read_text(encoding="utf-8", errors="replace")):
            folder = pathlib.Path("/usr/include") / pathlib.Path(included).parent
            if included.count("/") >= 1 and folder.is_dir():
                headers += sorted(folder.glob("*.h"))
    for header in headers:
        text = header.read_text(encoding="utf-8", errors="replace")
        text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
        names.update(re.findall(r"\b([A-Za-z_][A-Za-z0-9_]*)\b", text))
    return names - rules.LINUX_ONLY_NAMES_IN_HEADERS


USR_FIELD = re.compile(r'"decl_usr":"([^"]*)"')
TYPE_FIELD = re.compile(r'"(?:type|interface_type|result)":"([^"]*)"')
LITERAL_FIELD = re.compile(r'"value":"(-?[0-9A-Fa-fxob_]+)"')


def needs_walk(raw, symbols, nominal_pattern, c_names):
    """Whether a file's tree holds anything a rule looks at: a declaration or type with Apple
    availability, a C name not known to be Darwin's, a literal of 32 bits or more (a value, or a
    shift amount), or an integer type's bound. Most files hold none, and are not walked."""
    for usr in set(USR_FIELD.findall(raw)):
        if usr in symbols:
            return True
        if usr.startswith("c:"):
            name = re.split(r"[@$]", usr)[-1]
            if name and name not in rules.DARWIN_C_NAMES and name not in c_names:
                return True
        elif nominal_pattern is not None and usr.startswith("s:") and nominal_pattern.match(usr[2:]):
            return True
    if nominal_pattern is not None:
        for mangled in set(TYPE_FIELD.findall(raw)):
            if nominal_pattern.search(mangled):
                return True
    for value in set(LITERAL_FIELD.findall(raw)):
        number = literal_value(value)
        if number is not None and (number >= 32 or number < INT32_RANGE[0]):
            return True
    return '"base_name":"max"' in raw or '"base_name":"min"' in raw


def check_target(job):
    """Dumps one target's syntax tree and checks it: (target, findings, error)."""
    (target, command, sources, root, scratch, symbols, nominal, floors, c_names) = job
    nominal_pattern = re.compile("|".join(re.escape(n) for n in nominal)) if nominal else None
    findings = Findings()
    try:
        trees = run_dump(target, command, sources, scratch)
    except RuntimeError as error:
        return target, [], str(error)
    files = {}
    for raw, tree in trees:
        path = pathlib.Path(tree.get("filename", "")).resolve()
        try:
            path.relative_to(root / "Sources" / target)
        except ValueError:
            continue
        if not needs_walk(raw, symbols, nominal_pattern, c_names):
            continue
        source = files.get(path) or SourceFile(path, target, root)
        files[path] = source
        TreeCheck(source, symbols, nominal_pattern, floors, findings, c_names).run(tree)
    return target, list(findings.items), None


SPI_PLATFORMS = {"ios": "iOS", "tvos": "tvOS", "watchos": "watchOS", "visionos": "visionOS", "macos-xcodebuild": "macOS"}


def spi_check(root, findings_items):
    """The Swift Package Index builds each Apple platform from .spi.yml: every platform must be
    listed there, with the scheme of an app product (portability_rules.APP_TARGETS)."""
    path = root / ".spi.yml"
    if not path.exists():
        return
    text = path.read_text(encoding="utf-8")
    listed = {}
    for platform, scheme in re.findall(r"-\s*platform:\s*([\w-]+)\s*\n\s*scheme:\s*(\w+)", text):
        listed[platform] = scheme
    for key, name in SPI_PLATFORMS.items():
        scheme = listed.get(key)
        if scheme not in rules.APP_TARGETS:
            findings_items.add((".spi.yml", 1, 1, "Swift Package Index", name,
                                f"no build of an app product for {name} ({key}: {scheme or 'missing'})"))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--build-path", default=".build", help="the debug build's scratch path")
    parser.add_argument("--root", default=".", help="the tree to check (a copy of this one, for the self-test)")
    parser.add_argument("--targets", default="", help="only these targets (comma-separated)")
    parser.add_argument("--json", action="store_true", help="print the problems as JSON")
    options = parser.parse_args()
    root = pathlib.Path(options.root).resolve()
    repository = pathlib.Path(__file__).resolve().parents[2]
    build = pathlib.Path(options.build_path).resolve()
    floors = package_floors(root)
    commands = build_commands(build)
    selected = [t for t in options.targets.split(",") if t] or sorted(
        p.name for p in (root / "Sources").iterdir() if p.is_dir() and not p.name.startswith("C"))
    missing = [t for t in selected if t not in commands]
    if missing:
        sys.exit(f"portability: the build has no command for {', '.join(missing)}: "
                 f"run `swift build --enable-all-traits` first")
    symbols = load_symbols(build / "portability")
    nominal = sorted({usr[2:] for usr in symbols
                      if usr.startswith("s:") and re.fullmatch(r"s:(s|\d+[A-Za-z_]+)\d+[A-Za-z_][A-Za-z0-9_]*[VCOP]", usr)},
                     key=len, reverse=True)
    c_names = own_c_names(root)
    scratch = build / "portability" / "dumps"
    scratch.mkdir(parents=True, exist_ok=True)

    findings = Findings()
    if not options.targets:
        spi_check(root, findings.items)
    for target in selected:
        for path in sorted((root / "Sources" / target).rglob("*.swift")):
            source = SourceFile(path.resolve(), target, root)
            text_check(source, findings)
            delegate_check(source, findings)

    jobs = [(t, dump_arguments(commands[t], repository, root), source_list(commands[t], repository, root), root,
             scratch, symbols, nominal, floors, c_names) for t in selected]
    # The largest target first, so that the others share the second core meanwhile.
    jobs.sort(key=lambda job: -len(job[2]))
    errors = []
    with concurrent.futures.ProcessPoolExecutor(max_workers=max(1, min(2, os.cpu_count() or 1))) as pool:
        for target, items, error in pool.map(check_target, jobs):
            findings.items.update(items)
            if error:
                errors.append(error)
    if errors:
        sys.exit("portability: " + "\n".join(errors))

    items = findings.sorted()
    if options.json:
        print(json.dumps([dict(zip(("file", "line", "column", "rule", "platforms", "detail"), i)) for i in items]))
    else:
        for file, line, column, rule, platforms, detail in items:
            print(f"{file}:{line}:{column}: {rule} ({platforms}): {detail}")
    floor_text = ", ".join(f"{p} {show(floors[p])}" for p in rules.APPLE)
    print(f"portability: {len(items)} problem(s) in {len(selected)} targets (floors: {floor_text})", file=sys.stderr)
    return 1 if items else 0


if __name__ == "__main__":
    sys.exit(main())
