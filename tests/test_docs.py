"""The repository stands alone: what the code cites is in it.

Docstrings and comments cite the articles themselves or the project's own documents
(``docs/rules.md#options``, ``docs/architecture.md#storage``). A test fails when a ``.py`` file
cites a document or a path that is not in the repository (the working notes the project was
started from are not), when a cited section of ``docs/`` has no such heading, and when a module
is missing from ``docs/architecture.md``'s list.
"""

from __future__ import annotations

import ast
import fnmatch
import functools
import os
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("ranking", "tiebreak", "bot", "site_builder")
TOP = (*PACKAGES, "tests", "themes", "benchmarks", "scripts", "docs")

#: a document (``NAME.md``), a path under one of the repository's folders, or a section of docs/
DOCUMENT = re.compile(r"(?<![\w/.-])((?:\.\./)*[\w./-]*\.md)(?!\w)(?:#([\w-]+))?")
PATH = re.compile(rf"(?<![\w/.-])((?:{'|'.join(TOP)})/[\w./-]*[\w/])")
#: the working notes' names, however they are written
NOTES = re.compile(r"[Dd]utch notes|[Oo]ur notes|(?<!\w)(?:RULES|DESIGN|PEERS|STYLE)\.md|DUTCH_2026_NOTES"
                   r"|FIDE_C07_NOTES|/work/shared|(?<!\w)shared/")


#: what is not the repository's own: made by make, the tests, a run or git (see .gitignore)
UNTRACKED = {".git", ".venv", ".venv-lock", "node_modules", "__pycache__", "artifacts", ".pytest_cache",
             ".ruff_cache", ".hypothesis", "build", ".cache"}
UNTRACKED_AT_TOP = {"data", "public"}


@functools.cache
def tracked(pattern: str) -> list[Path]:
    """The repository's files matching ``pattern`` (no git needed: the test stays in-process)."""
    found = []
    for folder, folders, files in os.walk(ROOT):
        here = Path(folder)
        folders[:] = [name for name in folders if name not in UNTRACKED and not name.endswith(".egg-info")
                      and not name.startswith(".public.") and not (here == ROOT and name in UNTRACKED_AT_TOP)]
        found += [here / name for name in files if fnmatch.fnmatch(name, pattern)]
    return sorted(found)


def python_files() -> list[Path]:
    return tracked("*.py")


def anchors(document: Path) -> set[str]:
    """The section anchors of a Markdown file, as GitHub makes them from the headings."""
    found = set()
    for heading in re.findall(r"^#+ (.+)$", document.read_text(encoding="utf-8"), re.MULTILINE):
        slug = re.sub(r"[^\w\- ]", "", heading.strip().lower().replace("`", "")).replace(" ", "-")
        found.add(slug)
    return found


def exists(cited: str, source: Path) -> bool:
    if any(mark in cited for mark in "<>*{}") or re.search(r"\b[A-Z]{2,}\b", cited):
        return True  # a pattern (``players/<id>.html``, ``berger-NN.txt``), not a file
    cited = cited.rstrip("/.")
    parts = Path(cited).parts
    if set(parts) & UNTRACKED or parts[0] in UNTRACKED_AT_TOP:
        return True  # made by make, the tests or a run (tests/browser/node_modules, tests/artifacts/), not kept
    relative = (source.parent / cited).resolve()
    return (ROOT / cited).exists() or relative.exists() or (
        "/" not in cited and cited in {path.name for path in tracked("*")})  # named by its file name alone


def prose(path: Path) -> list[tuple[int, str]]:
    """The docstrings' and comments' lines of a .py file that may cite something, with their
    numbers (the file is parsed only when some line may)."""
    text = path.read_text(encoding="utf-8")
    lines = text.splitlines()
    candidates = {number for number, line in enumerate(lines, start=1)
                  if DOCUMENT.search(line) or PATH.search(line)}
    if not candidates:
        return []
    found = []
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) and isinstance(
                    first.value.value, str):
                found += [(first.lineno + offset, line) for offset, line in enumerate(first.value.value.splitlines())
                          if first.lineno + offset in candidates]
    for number in sorted(candidates):
        code, hash_, comment = lines[number - 1].partition("#")
        while hash_ and (code.count('"') % 2 or code.count("'") % 2):  # that # is inside a string
            more, hash_, comment = comment.partition("#")
            code += "#" + more
        if hash_:
            found.append((number, "#" + comment))
    return sorted(found)


@functools.cache
def citations() -> list[tuple[Path, int, str, str]]:
    """(file, line, cited document or path, section) for every citation in a .py file's
    docstrings and comments."""
    found = []
    for path in python_files():
        for number, line in prose(path):
            for document, section in DOCUMENT.findall(line):
                found.append((path, number, document, section))
            for cited in PATH.findall(line):
                if not cited.endswith(".md"):
                    found.append((path, number, cited, ""))
    return found


def text_files() -> list[Path]:
    """Every tracked text file but the changelog (it records what was, in the words of then)."""
    files = []
    for path in tracked("*"):
        if path.name == "CHANGELOG.md" or path.resolve() == Path(__file__).resolve() or not path.is_file():
            continue
        try:
            path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue
        files.append(path)
    return files


def test_no_file_cites_the_working_notes() -> None:
    cited = [f"{path.relative_to(ROOT)}:{number}: {line.strip()}"
             for path in text_files()
             for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
             if NOTES.search(line)]
    assert not cited, "cite the article or docs/ instead:\n" + "\n".join(cited)


def test_every_cited_file_is_in_the_repository() -> None:
    missing = [f"{path.relative_to(ROOT)}:{number}: {cited}"
               for path, number, cited, _ in citations() if not exists(cited, path)]
    assert not missing, "cited but not in the repository:\n" + "\n".join(missing)


def test_every_cited_section_of_docs_exists() -> None:
    wrong = []
    for path, number, document, section in citations():
        if section and document.startswith("docs/") and section not in anchors(ROOT / document):
            wrong.append(f"{path.relative_to(ROOT)}:{number}: {document}#{section}")
    assert not wrong, "no such section:\n" + "\n".join(wrong)


@pytest.mark.parametrize("package", PACKAGES)
def test_every_module_has_its_job_in_the_architecture(package: str) -> None:
    architecture = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    listed = set(re.findall(r"^\| `([\w/]+\.py)` \|", architecture, re.MULTILINE))
    modules = {str(path.relative_to(ROOT)) for path in python_files() if path.relative_to(ROOT).parts[0] == package}
    assert modules - listed == set(), "add them to docs/architecture.md#modules"
    assert {name for name in listed if name.startswith(package + "/")} - modules == set(), "listed, but gone"


def test_the_readme_links_the_docs_and_their_links_resolve() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "docs/rules.md" in readme and "docs/architecture.md" in readme
    for document in (ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))):
        for target, section in re.findall(r"\]\(([^)#\s]*)(?:#([\w-]+))?\)", document.read_text(encoding="utf-8")):
            if target.startswith(("http://", "https://")):
                continue
            linked = (document.parent / target).resolve() if target else document
            assert linked.exists(), f"{document.name}: {target}"
            if section and linked.suffix == ".md":
                assert section in anchors(linked), f"{document.name}: {target}#{section}"
