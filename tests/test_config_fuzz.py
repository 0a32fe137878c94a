"""The packaged defaults mangled line by line: `crib check-config FILE` says which file and line, never a traceback."""

from __future__ import annotations

import contextlib
import io
import re
import tempfile
import tomllib
from pathlib import Path
from unittest import mock

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion import cli
from companion.config import DEFAULTS_PATH, MAX_BYTES, ConfigError, load_config

LINES = DEFAULTS_PATH.read_text(encoding="utf-8").splitlines()
VALUES = ['""', '"', "'", "true", "False", "0", "-1", "1e400", "nan", "inf", "0x", "12:30:00", "1979-05-27",
          "[", "[]", "[1, 2", '["Ann"]', '["Ann", "Ann"]', '["#zzzzzz"]', "{}", "{ a = 1 }", '"""', "'''x",
          '"\\q"', '"\\u00e9"', '"two"', '"pico"', '"/nonexistent/layout.json"', "99999999999999999999999",
          "[[1]]", '"\x00"', "é", "= 1"]


def _mutate(data: st.DataObject) -> str:
    lines = list(LINES)
    for _ in range(data.draw(st.integers(1, 3), label="mutations")):
        index = data.draw(st.integers(0, len(lines) - 1), label="line")
        line = lines[index]
        kind = data.draw(st.sampled_from(["quote", "value", "unknown key", "duplicate", "delete", "junk", "table",
                                          "cut"]))
        if kind == "quote" and ('"' in line or "'" in line):
            quote = line.find('"') if '"' in line else line.find("'")
            lines[index] = line[:quote] + line[quote + 1 :]
        elif kind == "value" and "=" in line:
            lines[index] = line.split("=", 1)[0] + "= " + data.draw(st.sampled_from(VALUES) | st.text(max_size=12))
        elif kind == "unknown key":
            lines.insert(index + 1, data.draw(st.sampled_from(["colour = 1", "game = 2", "[extra]", "a.b.c = 3",
                                                              '"players" = []', "scanner.port = 1"])))
        elif kind == "duplicate":
            lines.insert(index + 1, line)
        elif kind == "delete":
            del lines[index]
        elif kind == "junk":
            lines.insert(index, data.draw(st.text(max_size=20)))
        elif kind == "table":
            lines.insert(index, data.draw(st.sampled_from(["[game]", "[devices]", "[[game]]", "[game", "]", "[ ]",
                                                           "[game.sub]", "[\"board\"]"])))
        else:
            lines[index] = line[: data.draw(st.integers(0, len(line)))]
    return "\n".join(lines) + data.draw(st.sampled_from(["\n", "", "\r\n"]))


@settings(max_examples=120, deadline=None)
@given(data=st.data())
def test_check_config_on_a_mangled_file_names_the_file_and_line_or_accepts_it(data):
    text = _mutate(data)
    with tempfile.TemporaryDirectory() as directory:
        path = Path(directory) / "config.toml"
        path.write_text(text, encoding="utf-8", errors="surrogateescape")
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            status = cli.main(["check-config", str(path)])
    if status == 0:
        assert "[game]" in out.getvalue() and not err.getvalue()
        return
    message = err.getvalue()
    assert status == 2 and message.startswith("crib check-config: "), message
    for problem in message.removeprefix("crib check-config: ").strip().splitlines():
        assert str(path) in problem or "packaged defaults.toml" in problem, problem
        assert re.search(rf"{re.escape(str(path))}:\d+|line \d+", problem), problem


def test_a_string_left_open_names_the_line_it_begins_on_not_just_the_end_of_the_file(tmp_path):
    path = tmp_path / "config.toml"
    path.write_text('[game]\nplayers = ["Ann",\n  "Bob"]\ndealer = """\n\n[board]\nbrightness = 5\n', encoding="utf-8")
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        assert cli.main(["check-config", str(path)]) == 2
    assert f"{path}: not valid TOML at line 8, column 1, the end of the file: a string is never closed with its " \
           "quote: what begins at line 4 is never closed" in err.getvalue()


@pytest.mark.parametrize("open_at", [3, 1234, 3999])
def test_a_string_left_open_in_a_4000_line_file_is_found_in_a_few_parses(tmp_path, open_at):
    """The line is found in one pass over the text, with no parse beyond the one that failed (it was one parse a
    line, 53 s for this file; `crib bench --only reliability` prints the time)."""
    lines = ["[game]\n"] + [f"# note {n}\n" if n % 2 else f'key{n} = "A{n}"\n' for n in range(1, 4000)]
    lines[open_at] = 'dealer = """never closed\n'
    path = tmp_path / "config.toml"
    path.write_text("".join(lines), encoding="utf-8")
    with mock.patch("companion.config.tomllib.loads", side_effect=tomllib.loads) as parses, \
            pytest.raises(ConfigError, match=rf"what begins at line {open_at + 1} is never closed"):
        load_config(path, system_path=None)
    assert parses.call_count == 2, parses.call_count  # the packaged defaults and the file


def test_a_file_far_larger_than_any_configuration_is_refused_unread(tmp_path):
    path = tmp_path / "config.toml"
    path.write_bytes(b"[game]\n" + b"# " + b"x" * MAX_BYTES + b"\n")
    with mock.patch("companion.config.tomllib.loads") as parses, \
            pytest.raises(ConfigError, match=rf"{path}: larger than 64 KiB.*keep the keys you change"):
        load_config(path, system_path=None)
    assert parses.call_count == 1  # the packaged defaults only


@pytest.mark.parametrize(("text", "line"), [
    ('[game]\nplayers = ["Ann", # a "quoted" comment\n  "Bob"\n', 2),
    ("[game]\ndealer = 'Ann'\nplayers = [\n  'A\\', \"B\\\\\"\n", 3),
    ('[game]\ndealer = """one\n"two\\" three"""\nvariant = """\n', 4),
    ("[board]\ncolours = [[\"#e01010\"], [\n", 2),
])
def test_the_line_left_open_is_found_past_quotes_escapes_and_comments(tmp_path, text, line):
    path = tmp_path / "config.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ConfigError, match=rf"what begins at line {line} is never closed"):
        load_config(path, system_path=None)
