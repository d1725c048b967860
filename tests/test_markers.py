"""The markers cannot fall behind the tests (``tests/markers.py``): a test that reaches a process
through a helper or a fixture is ``process``, a name it assigns is its own, an unmarked test that
starts a process fails, and a name the tables keep after its test is gone is an error (also when
a test id collects part of the module)."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path
from types import SimpleNamespace

import markers
import pytest

CACHED = (markers._tree, markers._imports, markers._definitions, markers._spawns, markers._uses,
          markers._test_names)

SAMPLE = '''
import pytest
from helper import run_it
import helper


@pytest.fixture
def served():
    helper.serve()


def test_calls_the_helper():
    run_it()


def test_asks_for_the_fixture(served):
    pass


def test_names_a_value_like_the_helper():
    run_it = "a value"
    assert run_it


def test_reads_a_file(tmp_path):
    (tmp_path / "x").write_text("x")


@pytest.mark.parametrize("size", [1, 2])
def test_with_parameters(size):
    pass


class TestGrouped:
    def test_in_a_class(self):
        pass
'''

HELPER = '''
import subprocess


def run_it():
    return started()


def started():
    return subprocess.run(["true"])


def serve():
    run_it()


def quiet():
    return 1
'''


@pytest.fixture
def sample(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    """A test module and its helper in a folder of tests of their own."""
    (tmp_path / "test_sample.py").write_text(SAMPLE, encoding="utf-8")
    (tmp_path / "helper.py").write_text(HELPER, encoding="utf-8")
    monkeypatch.setattr(markers, "TESTS", tmp_path)
    for cached in CACHED:
        cached.cache_clear()
    yield "test_sample"
    for cached in CACHED:
        cached.cache_clear()


def item(name: str, fixtures: tuple[str, ...] = ()) -> SimpleNamespace:
    marks: list[pytest.MarkDecorator] = []
    return SimpleNamespace(module=SimpleNamespace(__name__="test_sample"), name=name, cls=None,
                           originalname=name.partition("[")[0], fixturenames=fixtures, own_markers=marks,
                           add_marker=marks.append, nodeid=f"test_sample.py::{name}")


def kinds(tested: SimpleNamespace) -> set[str]:
    return {mark.name for mark in tested.own_markers}


def test_a_test_reaching_a_process_through_a_helper_or_a_fixture_is_process(sample: str) -> None:
    tests = [item("test_calls_the_helper"), item("test_asks_for_the_fixture", ("served",)),
             item("test_names_a_value_like_the_helper"), item("test_reads_a_file", ("tmp_path",))]
    markers.mark_by_use(tests, [])
    assert [kinds(tested) for tested in tests] == [{"process"}, {"process"}, set(), set()]


def test_the_tables_name_tests_by_name_or_by_a_pattern_of_their_parameters(sample: str,
                                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(markers, "SLOW", {sample: ("test_with_parameters[[]2]",)})
    monkeypatch.setattr(markers, "PROCESS", {sample: ("test_reads_a_file",)})
    tests = [item("test_with_parameters[1]"), item("test_with_parameters[2]"), item("test_reads_a_file")]
    markers.mark_by_use(tests, [])
    assert [kinds(tested) for tested in tests] == [set(), {"slow"}, {"process"}]


@pytest.mark.parametrize("table", ["SLOW", "PROCESS"])
def test_a_name_no_test_has_is_an_error(sample: str, monkeypatch: pytest.MonkeyPatch, table: str) -> None:
    monkeypatch.setattr(markers, table, {sample: ("test_reads_a_file", "test_renamed_since")})
    with pytest.raises(pytest.UsageError, match=f"{table} names tests test_sample no longer has: test_renamed_since"):
        markers.mark_by_use([item("test_reads_a_file")], [])


def test_a_test_id_collecting_part_of_a_module_checks_the_names_in_its_source(sample: str,
                                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(markers, "SLOW", {sample: ("test_with_parameters[[]2]", "test_in_a_class")})
    markers.mark_by_use([item("test_reads_a_file")], ["test_sample.py::test_reads_a_file"])
    monkeypatch.setattr(markers, "SLOW", {sample: ("test_with_parameters[[]2]", "test_renamed_since")})
    with pytest.raises(pytest.UsageError, match="test_renamed_since"):
        markers.mark_by_use([item("test_reads_a_file")], ["test_sample.py::test_reads_a_file"])
    with pytest.raises(pytest.UsageError, match="test_with_parameters"):  # the whole module: its parameters too
        markers.mark_by_use([item("test_with_parameters[1]")], [])


@pytest.mark.parametrize("start", ["Popen", "fork"])
def test_an_unmarked_test_that_starts_a_process_fails(monkeypatch: pytest.MonkeyPatch, start: str) -> None:
    """The guard spies on ``subprocess.Popen`` and ``os.fork``: here they are stand-ins that
    start nothing (this test starts no process, and the guard of this test sees none)."""
    monkeypatch.setattr(subprocess.Popen, "__init__", lambda self, args, **kwargs: None)
    monkeypatch.setattr(os, "fork", lambda: 0)
    unmarked = SimpleNamespace(nodeid="test_sample.py::test_x", get_closest_marker=lambda name: None)
    guard = markers.processes_are_marked(unmarked)
    next(guard)
    subprocess.Popen.__init__(None, ["true"]) if start == "Popen" else os.fork()
    with pytest.raises(pytest.fail.Exception, match=r"test_sample\.py::test_x started processes .* without the"):
        next(guard, None)
    marked = SimpleNamespace(nodeid="test_sample.py::test_y", get_closest_marker=lambda name: name == "process")
    guard = markers.processes_are_marked(marked)
    next(guard)
    subprocess.Popen.__init__(None, ["true"]) if start == "Popen" else os.fork()
    assert next(guard, "done") == "done"
    assert os.fork() == 0  # the stand-ins are back: the guard puts back what it found
