"""Dependencies: what the code imports is declared in pyproject.toml (directly, or through an
extra of a declared package: tornado through ``python-telegram-bot[webhooks]``), and
requirements.lock, which ``make`` and CI install from, pins every declared package at a version
pyproject.toml allows (``make lock`` remakes it; the README says when)."""

from __future__ import annotations

import ast
import re
import sys
import tomllib
from importlib import metadata
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parent.parent
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
LOCK = (ROOT / "requirements.lock").read_text(encoding="utf-8")
PACKAGES = ("ranking", "tiebreak", "bot", "site_builder")


def declared(extras: tuple[str, ...] = ()) -> list[Requirement]:
    requirements = [Requirement(text) for text in PROJECT["dependencies"]]
    for extra in extras:
        requirements += [Requirement(text) for text in PROJECT["optional-dependencies"][extra]]
    return requirements


def locked() -> dict[str, str]:
    """Package name -> pinned version, from the lock's ``name==version \\`` lines."""
    return {canonicalize_name(name): version
            for name, version in re.findall(r"^([A-Za-z0-9._-]+)==(\S+) \\$", LOCK, re.MULTILINE)}


def imported_distributions() -> dict[str, str]:
    """Third-party distribution -> a module of ours that imports it (``import x`` at any depth)."""
    owners = metadata.packages_distributions()
    ours = set(PACKAGES)
    found: dict[str, str] = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.Import):
                    names = [alias.name for alias in node.names]
                elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                    names = [node.module]
                else:
                    continue
                for name in names:
                    top = name.split(".")[0]
                    if top in ours or top in sys.stdlib_module_names:
                        continue
                    for distribution in owners.get(top, [top]):
                        found.setdefault(canonicalize_name(distribution), str(path.relative_to(ROOT)))
    return found


def reachable(requirements: list[Requirement]) -> set[str]:
    """The declared packages and what their declared extras bring (python-telegram-bot[webhooks]
    brings tornado)."""
    names = set()
    for requirement in requirements:
        names.add(canonicalize_name(requirement.name))
        for extra in requirement.extras:
            for text in metadata.requires(requirement.name) or []:
                brought = Requirement(text)
                if brought.marker is not None and brought.marker.evaluate({"extra": extra}):
                    names.add(canonicalize_name(brought.name))
    return names


def test_every_imported_package_is_declared() -> None:
    allowed = reachable(declared(("s3",)))
    missing = {name: where for name, where in imported_distributions().items() if name not in allowed}
    assert not missing, f"imported but not declared in pyproject.toml: {missing}"


def test_tornado_comes_through_the_webhooks_extra_and_the_bot_library_stays_below_23() -> None:
    [telegram] = [r for r in declared() if canonicalize_name(r.name) == "python-telegram-bot"]
    assert "webhooks" in telegram.extras and "tornado" in reachable([telegram])
    assert not telegram.specifier.contains("23.0") and telegram.specifier.contains("22.8")
    [ruff] = [r for r in declared(("test",)) if canonicalize_name(r.name) == "ruff"]
    assert str(ruff.specifier).startswith("=="), "ruff is pinned"


def test_the_lock_pins_every_declared_package_at_an_allowed_version_with_hashes() -> None:
    pins = locked()
    for requirement in declared(("test", "s3")):
        name = canonicalize_name(requirement.name)
        assert name in pins, f"{name} is not in requirements.lock: run `make lock`"
        assert requirement.specifier.contains(pins[name], prereleases=True), (
            f"requirements.lock pins {name}=={pins[name]}, pyproject.toml asks {requirement.specifier}: "
            "run `make lock`")
    assert LOCK.count("--hash=sha256:") >= len(pins), "every pin carries its hashes"
    assert "setuptools" in pins, "the build backend is locked too (make installs with --no-build-isolation)"


def test_the_installed_versions_are_the_locked_ones() -> None:
    for name, version in locked().items():
        try:
            installed = metadata.version(name)
        except metadata.PackageNotFoundError:
            raise AssertionError(f"{name} is locked but not installed: run make") from None
        assert installed == version, f"{name} {installed} installed, {version} locked: run make"
