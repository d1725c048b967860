"""The markers ``process``, ``browser`` and ``slow``, given to each test by what it uses.

``make check`` leaves the three out (``-m "not slow and not browser and not process"``);
``make test`` runs everything.

- ``browser``: the test's module drives Chromium (it imports selenium).
- ``process``: the test starts real processes: the test function, a fixture it asks for, or a
  function of the tests it calls (followed call by call, into the helper modules of ``tests/``)
  calls ``subprocess.run``, ``subprocess.Popen`` and the like, ``os.fork``, or
  ``asyncio.create_subprocess_*``. Processes the library starts itself (a site build's forked
  workers, a publisher running git or rsync, the bot's warm site server) are not seen in the
  test's source: those tests are named in ``PROCESS``. A test that starts a process without the
  marker fails (``processes_are_marked``), so the marker cannot fall behind the tests.
- ``slow``: the tests named in ``SLOW``, which take seconds of CPU even alone (large hypothesis
  runs, big generated events, pairing replays). A name there that no test has any more is an
  error, so a renamed test does not silently join the fast loop.
"""

from __future__ import annotations

import ast
import fnmatch
import functools
import gc
import os
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parent

#: module -> its tests that start processes through the library: forked build workers, the
#: publishers' git, rsync and commands, the warm site server ("*": every test of the module)
PROCESS: dict[str, tuple[str, ...] | str] = {
    "test_publish": ("test_command_failing_every_time_raises_a_one_line_publish_error",
                     "test_command_fails_twice_then_succeeds_with_backoff",
                     "test_git_unreachable_remote_fails_after_retries",
                     "test_rsync_failure_reports_its_last_error_line", "test_rsync_to_a_local_folder"),
    "test_publish_command": ("test_the_words_reach_the_program_as_written_and_sh_c_runs_a_pipeline",),
    "test_site": ("test_a_render_failing_in_a_worker_process_leaves_the_previous_site",
                  "test_forked_workers_build_the_same_site_as_one_process",
                  "test_the_helper_and_this_process_take_each_task_once",
                  "test_a_failure_in_a_forked_helper_is_raised_and_leaves_the_previous_site"),
    "test_site_faults": ("test_the_command_publisher_runs_its_command_without_the_bots_variables",
                         "test_the_git_publisher_runs_git_and_ssh_without_the_bots_variables",
                         "test_the_rsync_publisher_runs_rsync_without_the_bots_variables"),
    "test_site_server": "*",
    "test_site_trigger": ("test_the_bot_only_builds_without_publish_and_reports_a_failing_build",
                          "test_the_bot_publishes_through_its_site_server_when_publish_is_configured",
                          "test_the_site_build_the_bot_starts_never_gets_the_token"),
}

#: module -> its tests (names, or patterns of names with their parameters) that take seconds
#: even alone: large hypothesis runs, big generated events, pairing replays, retries that wait
SLOW: dict[str, tuple[str, ...] | str] = {
    "test_bot_e2e": ("test_a_4000_line_message_is_answered_without_crashing", "test_a_429_is_retried"),
    "test_bot_faults": ("test_a_confirmation_lost_to_the_network_is_retried_then_sent_with_the_next_reply",),
    "test_bot_parsing": ("test_generated_valid_lines_read_as_written",
                         "test_random_combinations_of_valid_tokens_never_raise", "test_random_text_never_raises"),
    "test_bot_service": ("test_long_output_is_split_below_the_message_limit",),
    "test_console_event": ("test_a_whole_round_robin_from_the_console",),
    "test_crosstable": ("test_generated_swiss_events[[]200-*", "test_the_benchmark_s_swiss",
                        "test_every_kind_of_tournament", "test_the_file_s_own_scoring_and_chain"),
    "test_dutch_properties": ("test_every_round_keeps_the_absolute_rules_and_pairs_everyone_present",),
    "test_dutch_replay": ("test_round_is_paired_as_bbppairings_did[[]dev_n200_*",),
    "test_fake_telegram": ("test_429_is_retried_by_aio_rate_limiter",),
    "test_generators": ("test_renumbered_tournaments_are_valid_and_reversible", "test_strategy_tournaments_are_valid",
                        "test_strategy_covers"),
    "test_golden": ("test_generated_tournaments_give_the_output_saved[[]1000-*",),
    "test_lifecycle_property": ("test_whatever_the_store_accepts_its_exports_read_back",),
    "test_properties": ("test_renumbering_players_changes_nothing", "test_points_sum_to_what_was_awarded",
                        "test_cuts_never_raise_a_buchholz_or_sonneborn_berger",
                        "test_places_follow_points_and_ties_share_the_better_place"),
    "test_site": ("test_every_link_resolves_to_a_file_inside_the_site",),
    "test_tomlfile": ("test_any_tournament_round_trips_through_toml", "test_fuzz_mutations_of_the_example",
                      "test_fuzz_shuffled_pieces", "test_trf_to_toml_and_back[[]chessresults_world_blitz_2021_open]"),
    "test_trf": ("test_fuzz_mutations_of_real_files", "test_any_tournament_survives_trf_as_its_trf_form",
                 "test_validation_systems_follow_092_or_the_schedule", "test_fuzz_record_shaped_lines"),
}

_SPAWNING = {
    "subprocess": {"run", "Popen", "call", "check_call", "check_output", "getoutput", "getstatusoutput"},
    "os": {"fork", "forkpty", "system", "popen", "posix_spawn", "posix_spawnp", "execv", "execve",
           "spawnv", "spawnl"},
    "asyncio": {"create_subprocess_exec", "create_subprocess_shell"},
}


def mark_by_use(items: list[pytest.Item], args: list[str]) -> None:
    """Add the markers to the collected tests (``pytest_collection_modifyitems``); ``args`` are
    the command line's files and test ids (a test id collects part of its module)."""
    gc.disable()  # the syntax trees are many small objects: collecting the heap as they are made costs seconds
    try:
        _mark_by_use(items, {Path(arg.partition("::")[0]).stem for arg in args if "::" in arg})
    finally:
        gc.enable()


def _mark_by_use(items: list[pytest.Item], in_part: set[str]) -> None:
    seen: dict[str, list[str]] = {}
    for item in items:
        module = item.module.__name__ if getattr(item, "module", None) else ""
        seen.setdefault(module, []).append(item.name)
        if module and _imports(module, "selenium"):
            item.add_marker(pytest.mark.browser)
        if module and (_named(PROCESS, module, item.name) or _starts_processes(item, module)):
            item.add_marker(pytest.mark.process)
        if _named(SLOW, module, item.name):
            item.add_marker(pytest.mark.slow)
    for table, label in ((PROCESS, "PROCESS"), (SLOW, "SLOW")):
        for module, names in table.items():
            if module in seen and names != "*":
                if module in in_part:  # its source has the test (its parameters are not all collected)
                    missing = [name for name in names if name.partition("[")[0] not in _test_names(module)]
                else:
                    missing = [name for name in names if not any(_matches(test, name) for test in seen[module])]
                if missing:
                    raise pytest.UsageError(f"tests/markers.py {label} names tests {module} no longer has: "
                                            f"{', '.join(missing)}")


def processes_are_marked(item: pytest.Item) -> Iterator[None]:
    """Run the test; if it has no ``process`` marker and started a process, fail it, naming it."""
    if item.get_closest_marker("process") is not None:
        yield
        return
    started: list[str] = []

    def spying(function, what):
        @functools.wraps(function)
        def spy(*args, **kwargs):
            started.append(what(args, kwargs))
            return function(*args, **kwargs)
        return spy

    popen_init, fork = subprocess.Popen.__init__, os.fork
    subprocess.Popen.__init__ = spying(popen_init, lambda args, kwargs: repr(args[1] if len(args) > 1
                                                                              else kwargs.get("args")))
    os.fork = spying(fork, lambda args, kwargs: "os.fork()")
    try:
        yield
    finally:
        subprocess.Popen.__init__, os.fork = popen_init, fork
    if started:
        pytest.fail(f"{item.nodeid} started processes ({', '.join(started[:3])}) without the process marker: "
                    "name it in PROCESS in tests/markers.py", pytrace=False)


@functools.cache
def _test_names(module: str) -> frozenset[str]:
    """The names of the tests a module defines, in classes too."""
    tree = _tree(module)
    tops = tree.body if tree else []
    nodes = [node for top in tops for node in (top.body if isinstance(top, ast.ClassDef) else [top])]
    return frozenset(node.name for node in nodes
                     if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.name.startswith("test"))


def _named(table: dict[str, tuple[str, ...] | str], module: str, test: str) -> bool:
    """Whether ``test`` (its name with its parameters) is in the table."""
    names = table.get(module, ())
    return names == "*" or any(_matches(test, name) for name in names)


def _matches(test: str, name: str) -> bool:
    """``name`` is a test's name (any parameters) or a pattern of names with parameters."""
    return test.partition("[")[0] == name or fnmatch.fnmatchcase(test, name)


# -- what a test's source uses ------------------------------------------------------------------


@functools.cache
def _tree(module: str) -> ast.Module | None:
    if module == __name__:
        return None  # the guard itself spies on processes; it starts none
    path = TESTS / f"{module.replace('.', '/')}.py"
    return ast.parse(path.read_text(encoding="utf-8")) if path.is_file() else None


@functools.cache
def _imports(module: str, package: str) -> bool:
    tree = _tree(module)
    return tree is not None and any(
        (isinstance(node, ast.Import) and any(alias.name.split(".")[0] == package for alias in node.names))
        or (isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == package)
        for node in ast.walk(tree))


@functools.cache
def _definitions(module: str) -> dict[str, ast.AST]:
    """The module's top-level functions and classes, and the names it imports from another
    module of tests/ (as that module's definition) or from a spawning module."""
    tree = _tree(module)
    found: dict[str, ast.AST] = {}
    if tree is None:
        return found
    for node in tree.body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            found[node.name] = node
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            for alias in node.names:
                found[alias.asname or alias.name] = ast.Constant(value=f"{node.module}:{alias.name}")
        elif isinstance(node, ast.Import):
            for alias in node.names:
                found[alias.asname or alias.name] = ast.Constant(value=alias.name)  # a module
    return found


def _starts_processes(item: pytest.Item, module: str) -> bool:
    roots: list[tuple[str, str]] = [(module, item.cls.__name__ if item.cls else item.originalname)]
    for fixture in getattr(item, "fixturenames", ()):
        roots += [(module, fixture), ("conftest", fixture)]
    return any(_spawns(root) for root in roots)


@functools.cache
def _spawns(root: tuple[str, str]) -> bool:
    """Whether the definition ``root`` (module, name) starts a process, or reaches one that does."""
    seen, todo = {root}, [root]
    while todo:
        spawning, refs = _uses(*todo.pop())
        if spawning:
            return True
        todo += [ref for ref in refs - seen]
        seen |= refs
    return False


@functools.cache
def _uses(module: str, name: str) -> tuple[bool, frozenset[tuple[str, str]]]:
    """Whether ``name`` of ``module`` (a function, a class, or an import) calls a spawning
    function itself, and the definitions of tests/ it refers to."""
    if module in _SPAWNING:
        return name in _SPAWNING[module], frozenset()
    definitions = _definitions(module)
    node = definitions.get(name)
    if node is None:
        return False, frozenset()
    if isinstance(node, ast.Constant):  # imported: follow it into tests/ (or a spawning module)
        source, _, imported = node.value.partition(":")
        followed = imported and (source in _SPAWNING or _tree(source) is not None)
        return False, frozenset({(source, imported)} if followed else ())
    refs = set()
    local = _assigned(node) if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) else set()
    for inner in ast.walk(node):
        if isinstance(inner, ast.Attribute) and isinstance(inner.value, ast.Name):
            imported = definitions.get(inner.value.id)
            if isinstance(imported, ast.Constant) and ":" not in imported.value:  # module.function
                if inner.attr in _SPAWNING.get(imported.value, ()):
                    return True, frozenset()
                if _tree(imported.value) is not None:
                    refs.add((imported.value, inner.attr))
        elif isinstance(inner, ast.Name) and inner.id != name and inner.id in definitions and inner.id not in local:
            refs.add((module, inner.id))
    return False, frozenset(refs)


def _assigned(function: ast.FunctionDef | ast.AsyncFunctionDef) -> set[str]:
    """The names a function assigns: local there, whatever the module defines under them (a
    ``git = settings_from_config(...)`` is no call of the module's ``git`` helper)."""
    return {inner.id for inner in ast.walk(function)
            if isinstance(inner, ast.Name) and isinstance(inner.ctx, ast.Store)}
