"""Usage errors click finds (bad option values, unknown commands) end as one line, exit 2."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from printdeck.cli import main


@pytest.mark.parametrize(
    ("args", "names"),
    [
        (["build", "--dpi", "5"], ["--dpi", "72<=x<=1200", "printdeck build --help"]),
        (["bogus"], ["bogus", "printdeck --help"]),
        (["build", "--paper"], ["--paper"]),
        (["preview", "--cards", "many"], ["--cards"]),
    ],
)
def test_usage_errors_are_one_line(args, names) -> None:
    result = CliRunner().invoke(main, args, prog_name="printdeck")
    assert result.exit_code == 2, result.output
    assert result.output.startswith("printdeck: error: ") and result.output.count("\n") == 1, result.output
    assert "Usage:" not in result.output and "Traceback" not in result.output
    for name in names:
        assert name in result.output


def test_help_version_and_bare_command_still_work() -> None:
    runner = CliRunner()
    assert runner.invoke(main, ["--version"]).exit_code == 0
    helped = runner.invoke(main, ["build", "--help"], prog_name="printdeck")
    assert helped.exit_code == 0 and helped.output.startswith("Usage: printdeck build")
    bare = runner.invoke(main, [], prog_name="printdeck")
    assert "Usage: printdeck" in bare.output and "printdeck: error" not in bare.output
