#!/usr/bin/env python3
"""scripts/structure.py: checks the shape of the Rust code; scripts/check.sh runs it.

  scripts/structure.py            check; exit 1 with a list of what is wrong
  scripts/structure.py --report   print the numbers (files and lines per folder, longest
                                  functions, circles) without failing

Rules (issue 21), over non-test code of the viewer (src/) and the core (crates/core/src),
the CLI (crates/cli/src), examples and benches:
  * no file over 500 lines of code: the lines before the file's first `#[cfg(test)]`;
  * no function over 80 lines (outside `#[cfg(test)]` code and tests/ folders);
  * no import circle between modules: for every folder, the graph whose nodes are its child
    modules and whose edges are `use` / `crate::` / `super::` paths from anywhere inside one
    child to anywhere inside another has no cycle. A module may still name its own ancestors
    or descendants: that is layering, not a circle.
Comments and string literals are blanked before counting, so a brace in text does not count.
"""
import os
import re
import sys
from collections import defaultdict

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
CRATES = [("src", "src"), ("crates/core/src", "crates/core/src"), ("crates/cli/src", "crates/cli/src")]
EXTRA = ["crates/core/examples", "crates/core/benches"]
MAX_FILE = 500
MAX_FN = 80


def blank(src):
    """Source with comments and string/char literals replaced by spaces (newlines kept)."""
    out, i, n = [], 0, len(src)
    keep = lambda s: "".join(c if c == "\n" else " " for c in s)
    while i < n:
        if src.startswith("//", i):
            j = src.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i)); i = j; continue
        if src.startswith("/*", i):
            depth, j = 1, i + 2
            while j < n and depth:
                if src.startswith("/*", j): depth += 1; j += 2
                elif src.startswith("*/", j): depth -= 1; j += 2
                else: j += 1
            out.append(keep(src[i:j])); i = j; continue
        m = re.compile(r'b?r(#*)"').match(src, i)
        if m and (i == 0 or not (src[i - 1].isalnum() or src[i - 1] == "_")):
            end = src.find('"' + m.group(1), m.end())
            end = n if end < 0 else end + 1 + len(m.group(1))
            out.append(keep(src[i:end])); i = end; continue
        if src[i] == '"' or src.startswith('b"', i) and (i == 0 or not src[i - 1].isalnum()):
            j = i + (2 if src[i] == "b" else 1)
            while j < n and src[j] != '"':
                j += 2 if src[j] == "\\" else 1
            out.append(keep(src[i:j + 1])); i = j + 1; continue
        m = re.compile(r"b?'(\\(x[0-9a-fA-F]{2}|u\{[0-9a-fA-F]+\}|.)|[^\\'])'").match(src, i)
        if m and (i == 0 or not (src[i - 1].isalnum() or src[i - 1] == "_")):
            out.append(" " * (m.end() - i)); i = m.end(); continue
        out.append(src[i]); i += 1
    return "".join(out)


def code_part(text):
    """The text before the first `#[cfg(test)]` line, and its line count."""
    lines = text.split("\n")
    for k, line in enumerate(lines):
        if re.match(r"\s*#\[cfg\(test\)\]", line):
            return "\n".join(lines[:k]), k
    return text, len(lines) - (1 if text.endswith("\n") else 0)


def rust_files(folder):
    for dp, dn, fn in os.walk(os.path.join(ROOT, folder)):
        dn.sort()
        for f in sorted(fn):
            if f.endswith(".rs"):
                yield os.path.relpath(os.path.join(dp, f), ROOT)


def functions(code):
    """(name, first line, lines) of every fn with a body in blanked code."""
    for m in re.finditer(r"\bfn\s+(\w+)", code):
        j = m.end()
        depth_paren = 0
        while j < len(code):  # find the body's `{`, skipping the signature; `;` means no body
            c = code[j]
            if c in "([<": depth_paren += 1
            elif c in ")]>": depth_paren -= 1
            elif c == ";" and depth_paren <= 0: j = -1; break
            elif c == "{" and depth_paren <= 0: break
            j += 1
        if j < 0 or j >= len(code):
            continue
        depth, k = 0, j
        while k < len(code):
            if code[k] == "{": depth += 1
            elif code[k] == "}":
                depth -= 1
                if depth == 0: break
            k += 1
        first = code.count("\n", 0, m.start()) + 1
        last = code.count("\n", 0, k) + 1
        yield m.group(1), first, last - first + 1


def module_of(path, src_root):
    rel = os.path.relpath(path, src_root)[:-3].split(os.sep)
    if rel[-1] in ("mod", "lib", "main"):
        rel = rel[:-1]
    return tuple(rel)


def expand_use(tree):
    """`a::{b, c::{d, e as f}, self}` -> ["a::b", "a::c::d", "a::c::e", "a"]."""
    tree = re.sub(r"\s+", "", tree)
    depth = 0
    for i, c in enumerate(tree):
        if c == "{":
            if depth == 0:
                prefix, inner = tree[:i], tree[i + 1:tree.rfind("}")]
                parts, d, start = [], 0, 0
                for j, cc in enumerate(inner):
                    if cc == "{": d += 1
                    elif cc == "}": d -= 1
                    elif cc == "," and d == 0:
                        parts.append(inner[start:j]); start = j + 1
                parts.append(inner[start:])
                out = []
                for p in parts:
                    if not p: continue
                    if p == "self": out.append(prefix.rstrip(":"))
                    else: out.extend(prefix + q for q in expand_use(p))
                return out
            depth += 1
    return [re.sub(r"as\w+$", "", tree) if "as" in tree and re.search(r"as\w+$", tree) and "::" in tree else tree]


def edges_of(code, mod, modules):
    paths = []
    for m in re.finditer(r"\buse\s+([^;]+);", code):
        paths.extend(expand_use(m.group(1)))
    paths.extend(m.group(0) for m in re.finditer(r"\b(?:crate|super|self)(?:::(?:super|\w+))+", code))
    out = set()
    for p in paths:
        segs = [s for s in p.split("::") if s]
        if not segs: continue
        if segs[0] == "crate": base, rest = (), segs[1:]
        elif segs[0] in ("super", "self"):
            base = mod
            while segs and segs[0] in ("super", "self"):
                if segs[0] == "super": base = base[:-1]
                segs = segs[1:]
            rest = segs
        else:
            # `use name::...` where name is a child module declared here
            if mod + (segs[0],) in modules: base, rest = mod, segs
            else: continue
        target = base
        for s in rest:
            if target + (s,) in modules: target = target + (s,)
            else: break
        out.add(target)
    return out


def cycles(crate_root, files):
    modules = {module_of(os.path.join(ROOT, f), os.path.join(ROOT, crate_root)): f for f in files}
    graphs = defaultdict(lambda: defaultdict(set))
    for mod, f in modules.items():
        code, _ = code_part(blank(open(os.path.join(ROOT, f)).read()))
        for target in edges_of(code, mod, modules):
            k = 0
            while k < len(mod) and k < len(target) and mod[k] == target[k]: k += 1
            if k == len(mod) or k == len(target): continue  # ancestor or descendant
            graphs[mod[:k]][mod[k]].add(target[k])
    found = []
    for parent, g in graphs.items():
        for comp in sccs(g):
            if len(comp) > 1:
                where = "::".join(parent) or "(root)"
                found.append(f"{crate_root}: in {where}: circle among {', '.join(sorted(comp))}")
    return found


def sccs(g):
    index, low, stack, on, out, counter = {}, {}, [], set(), [], [0]
    nodes = set(g) | {t for ts in g.values() for t in ts}

    def visit(v):
        index[v] = low[v] = counter[0]; counter[0] += 1
        stack.append(v); on.add(v)
        for w in g.get(v, ()):
            if w not in index:
                visit(w); low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop(); on.discard(w); comp.append(w)
                if w == v: break
            out.append(comp)

    for v in sorted(nodes):
        if v not in index: visit(v)
    return out


def main():
    report = "--report" in sys.argv
    problems, long_fns, per_folder = [], [], defaultdict(lambda: [0, 0])
    all_files = []
    for crate_root, _ in CRATES:
        files = [f for f in rust_files(crate_root) if not f.startswith(crate_root + "/bin/")]
        all_files.extend(files)
        problems.extend(cycles(crate_root, files))
    for folder in EXTRA:
        all_files.extend(rust_files(folder))
    for f in all_files:
        text = blank(open(os.path.join(ROOT, f)).read())
        code, n = code_part(text)
        folder = os.path.dirname(f)
        per_folder[folder][0] += 1
        per_folder[folder][1] += n
        if n > MAX_FILE:
            problems.append(f"{f}: {n} lines of code (at most {MAX_FILE})")
        for name, first, length in functions(code):
            long_fns.append((length, f"{f}:{first} fn {name}"))
            if length > MAX_FN:
                problems.append(f"{f}:{first}: fn {name} has {length} lines (at most {MAX_FN})")
    if report:
        print("files and lines of code per folder:")
        for folder in sorted(per_folder):
            print(f"  {folder:50} {per_folder[folder][0]:4} files {per_folder[folder][1]:7} lines")
        print("longest functions:")
        for length, where in sorted(long_fns, reverse=True)[:15]:
            print(f"  {length:5}  {where}")
        circles = [p for p in problems if "circle" in p]
        print("import circles:" + ("" if circles else " none"))
        for c in circles: print("  " + c)
        return 0
    for p in problems:
        print(p)
    if problems:
        print(f"structure.py: {len(problems)} problem(s)", file=sys.stderr)
        return 1
    print(f"structure.py: {len(all_files)} files: none over {MAX_FILE} lines, no fn over {MAX_FN}, no import circle")
    return 0


if __name__ == "__main__":
    sys.exit(main())
