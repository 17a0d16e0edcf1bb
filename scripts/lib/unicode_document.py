#!/usr/bin/env python3
"""Writes a JSON:API compound document of about BYTES bytes, deterministically from SEED:
Unicode-heavy text attributes (raw UTF-8 mixed with \\u escapes, surrogate pairs, \\n, \\"),
float attributes, and ids of several widths (numeric, hex, UUID-like), with relationships
linking primary data to included resources. For scripts/callgrind; the document is never committed.
Usage: scripts/lib/unicode_document.py BYTES SEED OUT"""
import random
import sys

size, seed, out = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
rng = random.Random(seed)
WORDS = ["naïve", "café", "Grüße", "日本語", "中文", "Ελληνικά", "русский", "עברית", "العربية", "emoji😀",
         "plain", "text", "über", "smörgåsbord", "façade", "jalapeño", "Zürich", "São", "Paulo", "Kraków"]


def esc_char(ch):
    cp = ord(ch)
    if cp < 0x80 and ch not in '"\\':
        return ch
    if ch == '"':
        return '\\"'
    if ch == '\\':
        return '\\\\'
    if cp > 0xFFFF:
        v = cp - 0x10000
        return "\\u%04x\\u%04x" % (0xD800 + (v >> 10), 0xDC00 + (v & 0x3FF))
    return "\\u%04x" % cp


def text(n):
    words = [rng.choice(WORDS) for _ in range(n)]
    s = " ".join(words)
    if rng.random() < 0.3:
        s += ' "quoted"\nline'
    # About half the non-ASCII characters escaped as \u, the rest raw UTF-8.
    parts = []
    for ch in s:
        if ch == '\n':
            parts.append('\\n')
        elif ch in '"\\':
            parts.append(esc_char(ch))
        elif ord(ch) >= 0x80 and rng.random() < 0.5:
            parts.append(esc_char(ch))
        else:
            parts.append(ch)
    return '"' + "".join(parts) + '"'


def ident(k):
    form = k % 3
    if form == 0:
        return str(k + 1)
    if form == 1:
        return "%012x" % rng.getrandbits(48)
    return "%08x-%04x-%04x-%04x-%012x" % (rng.getrandbits(32), rng.getrandbits(16), rng.getrandbits(16),
                                          rng.getrandbits(16), rng.getrandbits(48))


def flt():
    return repr(round(rng.uniform(-1e4, 1e4), rng.randint(1, 6)))


people = []
for k in range(max(4, size // 3000)):
    pid = ident(k)
    people.append((pid, '{"type":"people","id":"%s","attributes":{"name":%s,"bio":%s,"score":%s,"rating":%s}}' %
                   (pid, text(2), text(rng.randint(5, 20)), flt(), repr(rng.random()))))
pieces, total, k = [], 0, 0
while total + sum(len(p[1]) for p in people) < size * 0.97 or k < 2:
    aid = ident(k + 7)
    author = rng.choice(people)[0]
    tags = ",".join('{"type":"people","id":"%s"}' % rng.choice(people)[0] for _ in range(rng.randint(0, 3)))
    r = ('{"type":"articles","id":"%s","attributes":{"title":%s,"body":%s,"price":%s,"weight":%s,"views":%d},'
         '"relationships":{"author":{"data":{"type":"people","id":"%s"}},"reviewers":{"data":[%s]}},'
         '"links":{"self":"/articles/%s"}}' % (aid, text(rng.randint(2, 6)), text(rng.randint(10, 40)), flt(), flt(),
                                               rng.randint(0, 10**6), author, tags, aid))
    pieces.append(r)
    total += len(r) + 1
    k += 1
doc = '{"data":[' + ",".join(pieces) + '],"included":[' + ",".join(p[1] for p in people) + ']}'
with open(out, "w", encoding="utf-8") as f:
    f.write(doc)
