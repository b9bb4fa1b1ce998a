"""How ``bench/bench_stages.py`` reads issue 29's targets: a ratio to the ReportLab floor, or a
target in seconds read as the same share of the baseline's time measured beside (the issue's
targets are ratios in one run), in seconds only when no baseline ran."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

BENCH = Path(__file__).resolve().parent.parent / "bench" / "bench_stages.py"


@pytest.fixture(scope="module")
def stages() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bench_stages_under_test", BENCH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up while the class is made
    spec.loader.exec_module(module)
    return module


def test_a_floor_target_is_the_ratio_to_the_floor(stages: ModuleType) -> None:
    target = stages.Target(3.0, True)
    assert target.verdict(2.9, 1.0)[1] is True
    assert target.verdict(3.1, 1.0, baseline_wall=100.0)[1] is False  # the baseline does not enter


def test_seconds_are_read_as_the_issues_share_of_the_baseline_beside(stages: ModuleType) -> None:
    order11 = stages.Target(2.5, False, 5.4)  # at most 2.5 / 5.4 = 0.463 of the baseline
    text, held = order11.verdict(7.12, float("nan"), baseline_wall=17.98)
    assert held and "0.40 of the baseline's 17.98 s" in text and "target <= 0.46" in text
    assert order11.verdict(8.5, float("nan"), baseline_wall=17.98)[1] is False  # 0.47: over
    assert order11.verdict(2.6, float("nan"), baseline_wall=5.4)[1] is False  # the issue's own machine


def test_without_a_baseline_seconds_stay_seconds(stages: ModuleType) -> None:
    order11 = stages.Target(2.5, False, 5.4)
    assert order11.verdict(2.4, float("nan"))[1] is True
    text, held = order11.verdict(7.12, float("nan"))
    assert not held and "7.12 s" in text
