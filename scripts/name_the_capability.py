# ruff: noqa: B023, RUF059
"""Issue 36, step 4: callers name the capability. Replaces `from campaign import services`
(+ `services.X`) and `from campaign.services import X` (re-exported names) by imports of
the modules of campaign.services; same for battles.services. Usage: run from the repo root.
Prints the files it touched and any it could not do."""

import ast
import pathlib
import re
import sys

PACKAGES = {
    "campaign.services": "campaign/services/__init__.py",
    "battles.services": "battles/services/__init__.py",
}


def exported(init: str, package: str) -> dict[str, str]:
    tree = ast.parse(pathlib.Path(init).read_text())
    found = {}
    for node in tree.body:
        if (
            isinstance(node, ast.ImportFrom)
            and node.module
            and node.module.startswith(package + ".")
        ):
            for alias in node.names:
                found[alias.asname or alias.name] = node.module.removeprefix(package + ".")
    return found


def bound(tree: ast.AST) -> set[str]:
    """The names a module binds itself (assigned, parameters, functions, loop targets)."""
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            found.add(node.id)
        elif isinstance(node, ast.arg):
            found.add(node.arg)
        elif isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            found.add(node.name)
        elif isinstance(node, ast.ImportFrom) and not (node.module or "").endswith("services"):
            found.update(a.asname or a.name for a in node.names)
    return found


def rewrite(path: pathlib.Path, package: str, names: dict[str, str], problems: list[str]) -> bool:
    text = path.read_text()
    parent, pkg = package.rsplit(".", 1)
    tree = ast.parse(text)
    changed = False
    # 1. `from parent import services [as alias]` + `alias.X`
    aliases = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module == parent and node.level == 0:
            for a in node.names:
                if a.name == pkg:
                    aliases.append((node, a.asname or pkg))
    taken = bound(tree)

    def as_named(mod: str) -> str:
        return f"{mod}_{pkg}" if mod in taken else mod

    for node, alias in aliases:
        used = set(re.findall(rf"(?<![\w.]){re.escape(alias)}\.(\w+)", text))
        bare = re.findall(rf"(?<![\w.]){re.escape(alias)}(?![\w.])", text)
        # the import itself names it once
        other_bare = len(bare) - 1
        for name in used:
            if name not in names and name not in set(names.values()):
                problems.append(f"{path}: {alias}.{name} is not re-exported")
        mods = {names[n] for n in used if n in names}
        modules = set(names.values())
        for mod in used & modules:  # `services.submissions._check_own`: the module itself
            mods.add(mod)
            text = re.sub(rf"(?<![\w.]){re.escape(alias)}\.{mod}\b", as_named(mod), text)

        # monkeypatch.setattr(services, "name", ...) -> the module's
        def patched(m: re.Match[str]) -> str:
            mod = names.get(m.group(2))
            if mod is None:
                problems.append(f"{path}: setattr({alias}, {m.group(2)!r}) not mapped")
                return m.group(0)
            mods.add(mod)
            return f'{m.group(1)}{as_named(mod)}, "{m.group(2)}"'

        text, n_patch = re.subn(rf"(setattr\(){re.escape(alias)}, \"(\w+)\"", patched, text)
        if other_bare - n_patch > 0:
            problems.append(f"{path}: {alias} used bare {other_bare - n_patch} time(s)")
        text = re.sub(
            rf"(?<![\w.]){re.escape(alias)}\.(\w+)",
            lambda m: (
                f"{as_named(names[m.group(1)])}.{m.group(1)}" if m.group(1) in names else m.group(0)
            ),
            text,
        )
        imported = sorted(
            f"{mod} as {as_named(mod)}" if as_named(mod) != mod else mod for mod in mods
        )
        line = f"from {package} import {', '.join(imported)}" if mods else ""
        others = [
            f"{a.name} as {a.asname}" if a.asname else a.name for a in node.names if a.name != pkg
        ]
        old_line = re.compile(
            rf"^([ \t]*)from {re.escape(parent)} import ([\w, ]*\b{re.escape(pkg)}\b(?: as {re.escape(alias)})?[\w, ]*?)([ \t]*#[^\n]*)?$",
            re.M,
        )

        def replaced(m: re.Match[str]) -> str:
            indent, comment = m.group(1), m.group(3) or ""
            lines = [f"{indent}from {parent} import {', '.join(others)}"] if others else []
            if line:
                lines.append(indent + line + comment)
            return "\n".join(lines)

        text, n = old_line.subn(replaced, text, count=1)
        if n != 1:
            problems.append(f"{path}: could not find the import line of {alias}")
        changed = True
    # 2. `from package import A, B` of re-exported names
    pattern = re.compile(rf"^(\s*)from {re.escape(package)} import (\([^)]*\)|[^\n]*)$", re.M)

    def split(m: re.Match[str]) -> str:
        indent, body = m.group(1), m.group(2).strip("()")
        wanted = [n.strip() for n in body.replace("\n", " ").split(",") if n.strip()]
        by_mod: dict[str, list[str]] = {}
        keep = []
        for n in wanted:
            name, _, asname = n.partition(" as ")
            if name in names:
                by_mod.setdefault(names[name], []).append(n)
            else:
                keep.append(n)  # a module of the package
        lines = [f"{indent}from {package} import {', '.join(keep)}"] if keep else []
        lines += [
            f"{indent}from {package}.{mod} import {', '.join(ns)}"
            for mod, ns in sorted(by_mod.items())
        ]
        return "\n".join(lines)

    new_text = pattern.sub(split, text)
    if new_text != text:
        text, changed = new_text, True
    if changed:
        path.write_text(text)
    return changed


def main() -> None:
    touched, problems = [], []
    files = [
        p
        for p in pathlib.Path(".").rglob("*.py")
        if ".venv" not in p.parts and "node_modules" not in p.parts
    ]
    for package, init in PACKAGES.items():
        names = exported(init, package)
        for path in files:
            if str(path) == init:
                continue
            if rewrite(path, package, names, problems):
                touched.append(str(path))
    print("\n".join(sorted(set(touched))))
    print("PROBLEMS:", *problems, sep="\n", file=sys.stderr)


main()
