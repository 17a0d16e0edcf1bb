#!/usr/bin/env python3
"""Checks where the core library (Sources/JSONAPI) works with raw memory.

A raw memory operation (a load or store through a pointer, binding, allocating or freeing
memory, a buffer made from an address or by rebasing a slice, a mutable pointer) may appear only
in the files of OWNERS, the types that own byte storage or run the hot byte loops; everything
else reads bytes through ByteView (Sources/JSONAPI/Memory/ByteView.swift). And every operation
needs a `SAFETY` comment saying why it is sound: on its line, or above it in the same run of lines
(no blank line in between) and the same function (a comment above a loop covers the loads in it).

Usage: scripts/lib/raw_memory_check.py   (from the repository root; exits 1 on a violation)
"""
import pathlib
import re
import sys

ROOT = pathlib.Path("Sources/JSONAPI")

# The owners of raw memory, relative to Sources/JSONAPI: a directory (ending in /) or a file.
OWNERS = [
    "Memory/",  # ByteView: how everything else reads bytes it does not own
    "Concurrency/Locked.swift",  # the lock's mutex
    "Scanner/",  # the tokenizer, the syntax validator and the string decoder: the hot byte loops
    "Parsing/InputBuffer.swift",  # the parser's input bytes
    "Parsing/JSONAPIRules+Chunk.swift",  # the whole-object readers' key matching, on the scanner's chunk
    "Parsing/MemberNameRules+Chunk.swift",  # the sixteen-byte member-name test, on the scanner's chunk
    "Decoding/TrivialStack.swift",  # the decoder's frames and the member table's entries
    "Decoding/ContainerPool.swift",  # the decoder's reused container boxes
    "Decoding/ResultSlot.swift",  # the memory a reader-decoded value passes through
    "Decoding/ArrayFiller.swift",  # arrays filled through their storage in generic code
    "Encoding/StreamBuffer.swift",  # the encoder's output bytes
    "Arena/TypeTable.swift",  # interned type names
    "Arena/ResourceIndex.swift",  # the (type, id) index
    "Streaming/IdentityIndex.swift",  # the resource stream's exact (type, id) index and its key store
    "Writing/JSONWriter+Strings.swift",  # the writer's string escaping loop
    "Writing/JSONWriter+Numbers.swift",  # the writer's number formatting
    "Writing/ShortestDouble.swift",  # the double printer, writing into the writers' buffers
]

OPERATION = re.compile(
    r"\.(load|loadUnaligned|storeBytes|bindMemory|assumingMemoryBound|initialize|deinitialize|deallocate"
    r"|allocate|copyMemory|withMemoryRebound)\(|rebasing:|UnsafeRaw(Mutable)?BufferPointer\(start"
)
# Also kept to the owners, though not operations themselves (no SAFETY comment needed).
POINTER = re.compile(r"baseAddress|UnsafeMutable(Raw)?Pointer")


def code(line):
    """The line without its comment (a `//` outside a string literal, roughly)."""
    return re.sub(r'"(\\.|[^"\\])*"', '""', line).split("//", 1)[0]


DECLARATION = re.compile(r"^\s*(@\w+(\(.*?\))?\s+)*((private|fileprivate|internal|public|static|mutating|override)\s+)*"
                         r"(func|init|deinit|subscript)\b")


def has_safety_comment(lines, index):
    """SAFETY on the line, or above it in the same run of lines (no blank line between) and the
    same function: past the function's declaration, only the comment right above it counts."""
    in_declaration_comment = False
    for position in range(index, -1, -1):
        line = lines[position]
        if "SAFETY" in line:
            return True
        stripped = line.strip()
        if not stripped or (in_declaration_comment and not stripped.startswith("//")):
            return False
        if DECLARATION.match(line):
            in_declaration_comment = True
    return False


def main():
    problems = []
    for path in sorted(ROOT.rglob("*.swift")):
        relative = path.relative_to(ROOT).as_posix()
        owner = any(relative.startswith(o) if o.endswith("/") else relative == o for o in OWNERS)
        lines = path.read_text(encoding="utf-8").split("\n")
        for index, line in enumerate(lines):
            text = code(line)
            operation = OPERATION.search(text)
            if not operation and not POINTER.search(text):
                continue
            where = f"{path}:{index + 1}"
            if not owner:
                problems.append(f"{where}: raw memory outside the owner types (read bytes through ByteView)")
            elif operation and not has_safety_comment(lines, index):
                problems.append(f"{where}: raw memory operation without a SAFETY comment above it")
    for problem in problems:
        print(problem, file=sys.stderr)
    if problems:
        print(f"raw memory check: {len(problems)} problem(s)", file=sys.stderr)
        return 1
    print("raw memory check: passed", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
