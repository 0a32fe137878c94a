"""`crib` itself: the command table, help that lists every command, the version, and a start that loads little."""

from __future__ import annotations

import argparse
import importlib
import json
import pkgutil
import subprocess
import sys
from importlib.metadata import version

import pytest

from companion import commands
from companion.cli import COMMANDS, main

HEAVY = ("numpy", "PIL", "fpdf", "zxingcpp", "matplotlib", "gpiozero", "luma", "serial", "evdev")


def test_a_bare_crib_lists_every_command_with_its_line(capsys):
    assert main([]) == 2
    out = capsys.readouterr().out
    assert out.startswith("usage: crib")
    for name, (_, summary) in COMMANDS.items():
        assert name in out
        assert " ".join(summary.split()[:4]) in " ".join(out.split())


def test_help_lists_the_commands_too(capsys):
    with pytest.raises(SystemExit) as leaving:
        main(["--help"])
    assert leaving.value.code == 0
    assert "print-deck" in capsys.readouterr().out


def test_every_command_module_is_in_the_table_with_the_same_line():
    modules = {m.name for m in pkgutil.iter_modules(commands.__path__)}
    assert modules == {module for module, _ in COMMANDS.values()}
    for name, (module, summary) in COMMANDS.items():
        subparsers = argparse.ArgumentParser().add_subparsers()
        importlib.import_module(f"companion.commands.{module}").register(subparsers)
        [action] = subparsers._choices_actions
        assert (action.dest, action.help) == (name, summary)


@pytest.mark.parametrize("name", COMMANDS)
def test_each_command_has_its_full_help(name, capsys):
    with pytest.raises(SystemExit) as leaving:
        main([name, "--help"])
    assert leaving.value.code == 0
    out = capsys.readouterr().out
    assert out.startswith(f"usage: crib {name} [-h]")
    assert "options:" in out


def test_an_unknown_command_names_the_choices(capsys):
    with pytest.raises(SystemExit) as leaving:
        main(["scores"])
    assert leaving.value.code == 2
    assert "invalid choice: 'scores' (choose from 'sim'" in capsys.readouterr().err


def test_the_version_is_the_installed_package_version(capsys):
    with pytest.raises(SystemExit):
        main(["--version"])
    assert capsys.readouterr().out == f"crib {version('cribbage-companion')}\n"


def loaded_after(argv: list[str]) -> list[str]:
    """The heavy libraries in sys.modules after `crib ARGV` runs in a fresh interpreter."""
    probe = ("import json, sys\nfrom companion.cli import main\n"
             f"try:\n    main({argv!r})\nexcept SystemExit:\n    pass\n"
             f"print(json.dumps(sorted({{m.split('.')[0] for m in sys.modules}} & set({HEAVY!r}))))")
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    return json.loads(result.stdout.splitlines()[-1])


@pytest.mark.parametrize("argv", [["score", "5H", "5D", "5C", "JS", "5S"], ["score", "--help"], ["--version"], [],
                                  ["peg", "9H", "6D"], ["print-deck", "--help"], ["stats", "--help"],
                                  ["state", "--help"]])
def test_a_plain_command_loads_no_heavy_library(argv):
    assert loaded_after(argv) == []


def test_the_probe_sees_a_heavy_library_when_one_is_loaded():
    assert "numpy" in loaded_after(["advise", "5H", "5D", "6C", "JS", "4S", "QD", "--dealer"])


def test_the_board_runs_without_the_print_and_plots_extras():
    probe = ("import sys\nfor name in ('fpdf', 'zxingcpp', 'matplotlib'):\n    sys.modules[name] = None\n"
             "import companion.daemon, companion.commands.run, companion.commands.sim, companion.commands.state\n"
             "from companion.cli import main\nsys.exit(main(['sim', '--help']))")
    result = subprocess.run([sys.executable, "-c", probe], check=False, capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("usage: crib sim")


def test_the_simulated_board_loads_no_numpy_until_a_game_against_the_computer(tmp_path):
    # numpy is a third of the board's memory, and only the computer players and the statistics pictures need it
    script = tmp_path / "script.txt"
    script.write_text("hand Ann 5H 5D 6C JS 4S QD\n")
    loaded = loaded_after(["sim", "--players", "Ann,Bob", "--dealer", "Ann", "--quiet", "--state-dir",
                           str(tmp_path / "state"), "--script", str(script), "--set", "devices.pin_factory=mock"])
    assert "luma" in loaded and "numpy" not in loaded
