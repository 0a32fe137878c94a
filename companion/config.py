"""The configuration: TOML files in layers, checked against the packaged defaults.

Later layers win: the packaged `defaults.toml` < `/etc/cribbage-companion/config.toml` (when it exists) <
a `--config FILE` < command-line overrides ("devices.scanner=serial"). Every key must exist in the packaged
defaults; an unknown key or a bad value is a `ConfigError` naming the file, the line and the key, and saying
what is allowed. tomllib gives no line numbers, so we find them by scanning the text for the table and key.
"""

from __future__ import annotations

import argparse
import re
import tomllib
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import Any, Literal, TypeVar
from urllib.parse import urlsplit

from companion import i18n
from companion.base.usage import CommandError
from companion.boards import AUTO, LayoutError, builtin_for, load_layout, misfit
from companion.cribbage.rules import MATCH_SCORING, VARIANT, VARIANTS
from companion.i18n import _
from companion.words.settings import (
    FOR_THIS_GAME,
    Bad,
    From,
    Invalid,
    Origin,
    Problem,
    Toml,
    problems_words,
    where_words,
)

DEFAULTS_PATH = Path(__file__).with_name("defaults.toml")
MAX_BYTES = 64 * 1024  # a configuration file larger than this is refused before it is parsed
SYSTEM_PATH = Path("/etc/cribbage-companion/config.toml")

Color = tuple[int, int, int]
Check = Callable[[object], Any]
Value = TypeVar("Value")


class ConfigError(CommandError):
    """A configuration that cannot be used: its problems (words/settings.py's values), each saying where it is
    written; said in the language of the edge that prints it."""

    def __init__(self, problems: Sequence[Problem]) -> None:
        self.problems = tuple(problems)
        super().__init__(*self.problems)

    def __str__(self) -> str:
        return problems_words(self.problems)


def given(option: str, check: Callable[[str], Value], value: str) -> Value:
    """`value` of a command-line `option` that stands for a setting (--listen, --broker), checked as the setting is:
    a ConfigError in the setting's words, naming the option ("--listen must be "HOST:PORT" like ...")."""
    try:
        return check(value)
    except Invalid as error:
        raise ConfigError([Problem(error.kind, key=option, facts=error.facts)]) from None


# --- value checks: each returns the value in its Python form or raises Invalid saying what is allowed ---

def choice(*allowed: str) -> Check:
    def check(value: object) -> str:
        if value not in allowed:
            raise Invalid(Bad.CHOICE, allowed=allowed, value=value)
        return str(value)

    return check


def integer(low: int, high: int, *, only: tuple[int, ...] = ()) -> Check:
    def check(value: object) -> int:
        if only and value not in only:
            raise Invalid(Bad.ONLY, allowed=only, value=value)
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise Invalid(Bad.RANGE, low=low, high=high, value=value)
        return value

    return check


def boolean(value: object) -> bool:
    if not isinstance(value, bool):
        raise Invalid(Bad.BOOLEAN, value=value)
    return value


def text(value: object) -> str:
    if not isinstance(value, str):
        raise Invalid(Bad.TEXT, value=value)
    return value


def broker_address(url: str) -> tuple[str, int, bool]:
    """A broker's URL as (host, port, TLS): mqtt://HOST:PORT, or mqtts://HOST:PORT for TLS (without the port,
    MQTT's own; a bare HOST:PORT is mqtt). Raises Invalid."""
    parts = urlsplit(url if "://" in url else f"mqtt://{url}")
    if parts.scheme not in ("mqtt", "mqtts") or not parts.hostname:
        raise Invalid(Bad.BROKER_URL, broker=url)
    tls = parts.scheme == "mqtts"
    try:
        return parts.hostname, parts.port or (8883 if tls else 1883), tls
    except ValueError:
        raise Invalid(Bad.BROKER_PORT, broker=url) from None


NAME_CHARS = 12
"""The longest name a player may have: the OLED's 21 columns hold "Undone: <name>'s 10♥" and every other message
whole with it (tests/view/test_oled_words.py)."""


def names(value: object) -> tuple[str, ...]:
    if not isinstance(value, list) or not 2 <= len(value) <= 4 or not all(isinstance(n, str) and n.strip()
                                                                          for n in value):
        raise Invalid(Bad.NAMES, value=value)
    if long := [name for name in value if len(name) > NAME_CHARS]:
        raise Invalid(Bad.NAME_LONG, most=NAME_CHARS, name=long[0])
    if len(set(value)) != len(value):
        raise Invalid(Bad.NAME_TWICE, value=value)
    return tuple(value)


def gpio_pins(count: int) -> Check:
    def check(value: object) -> tuple[int, ...]:
        if (not isinstance(value, list) or len(value) != count
                or not all(isinstance(p, int) and not isinstance(p, bool) and 2 <= p <= 27 for p in value)):
            raise Invalid(Bad.GPIO_PINS, count=count, value=value)
        return tuple(value)

    return check


def pico_pins(count: int) -> Check:
    """The form only: which GP numbers the Pico has, its driver says (the registry's check_config)."""
    def check(value: object) -> tuple[int, ...]:
        if (not isinstance(value, list) or len(value) != count
                or not all(isinstance(p, int) and not isinstance(p, bool) and p >= 0 for p in value)):
            raise Invalid(Bad.PICO_PINS, count=count, value=value)
        return tuple(value)

    return check


_HEX_COLOUR = re.compile(r"^#[0-9a-fA-F]{6}$")


def colours(value: object) -> tuple[Color, ...]:
    if not isinstance(value, list) or not value or not all(isinstance(c, str) and _HEX_COLOUR.match(c)
                                                          for c in value):
        raise Invalid(Bad.COLOURS, value=value)
    return tuple((int(c[1:3], 16), int(c[3:5], 16), int(c[5:7], 16)) for c in value)


def _option(check: Check) -> Any:
    return field(metadata={"check": check})


# --- the sections: field names are the TOML keys; values come from the layered files, never from here ---

@dataclass(frozen=True)
class GameConfig:
    players: tuple[str, ...] = _option(names)
    dealer: str = _option(text)
    target: int = _option(integer(61, 121, only=(61, 121)))
    variant: Literal["two", "three", "four", "five-card"] = _option(choice(*VARIANTS))  # the engine's VariantName
    muggins: bool = _option(boolean)
    match: int = _option(integer(0, 99))
    match_scoring: Literal["standard", "acc"] = _option(choice(*MATCH_SCORING))  # the engine's MatchScoringName
    coaching: bool = _option(boolean)
    language: str = _option(choice("auto", *i18n.LANGUAGES))

    @property
    def sides(self) -> int:
        """Who pegs: each player, or two partnerships in the four-player game."""
        return VARIANT[self.variant].sides


@dataclass(frozen=True)
class BoardConfig:
    layout: str = _option(text)
    colours: tuple[Color, ...] = _option(colours)
    brightness: int = _option(integer(1, 100))


@dataclass(frozen=True)
class DevicesConfig:
    keypad: str = _option(choice("gpio", "pico", "none"))
    buttons: str = _option(choice("gpio", "none"))
    scanner: str = _option(choice("evdev", "serial", "terminal", "none"))
    display: str = _option(choice("ssd1306", "sh1106", "dummy", "none"))
    strip: str = _option(choice("pico", "pico-sim", "sim", "none"))
    pin_factory: str = _option(choice("lgpio", "rpigpio", "mock"))


@dataclass(frozen=True)
class KeypadConfig:
    rows: tuple[int, ...] = _option(gpio_pins(4))
    columns: tuple[int, ...] = _option(gpio_pins(4))
    debounce_ms: int = _option(integer(1, 200))
    sequence_timeout_ms: int = _option(integer(500, 60_000))
    keymap: str = _option(choice("standard"))
    pico_rows: tuple[int, ...] = _option(pico_pins(4))
    pico_columns: tuple[int, ...] = _option(pico_pins(4))


@dataclass(frozen=True)
class ButtonsConfig:
    go: int = _option(integer(2, 27))
    undo: int = _option(integer(2, 27))
    ok: int = _option(integer(2, 27))


@dataclass(frozen=True)
class DisplayConfig:
    i2c_port: int = _option(integer(0, 22))
    address: int = _option(integer(0x3C, 0x3D))
    rotate: int = _option(integer(0, 2, only=(0, 2)))
    page_ms: int = _option(integer(1000, 30_000))


@dataclass(frozen=True)
class ScannerConfig:
    device: str = _option(text)  # its form the scanner driver judges (the registry's check_config)
    port: str = _option(text)
    baud: int = _option(integer(1200, 921_600))
    duplicate_window_ms: int = _option(integer(0, 10_000))


@dataclass(frozen=True)
class StripConfig:
    port: str = _option(text)
    baud: int = _option(integer(9600, 3_000_000))
    pin: int = _option(integer(0, 28))
    color_order: str = _option(choice("GRB", "RGB", "BRG", "RBG", "GBR", "BGR"))
    max_current_ma: int = _option(integer(100, 20_000))


def video_device(value: object) -> str:
    if not isinstance(value, str) or not ((value.isdigit() and len(value) <= 3) or value.startswith("/dev/")):
        raise Invalid(Bad.VIDEO_DEVICE, value=value)
    return value


@dataclass(frozen=True)
class CameraConfig:
    driver: str = _option(choice("picamera2", "opencv", "sim", "none"))
    device: str = _option(video_device)
    width: int = _option(integer(160, 4096))
    height: int = _option(integer(120, 3072))
    frame_ms: int = _option(integer(50, 5000))
    frames: int = _option(integer(1, 10))
    gone_frames: int = _option(integer(1, 50))
    images: str = _option(text)
    deck: str = _option(text)


@dataclass(frozen=True)
class StateConfig:
    dir: str = _option(text)

    @property
    def path(self) -> Path:
        return Path(self.dir)


@dataclass(frozen=True)
class ServiceConfig:
    watchdog: bool = _option(boolean)


def listen_address(value: object) -> str:
    if not isinstance(value, str) or not re.fullmatch(r"(\[[0-9a-fA-F:]+\]|[A-Za-z0-9.-]+):\d{1,5}", value) \
            or int(value.rsplit(":", 1)[1]) > 65535:
        raise Invalid(Bad.LISTEN, value=value)
    return value


def optional_listen_address(value: object) -> str:
    if value == "":
        return ""
    try:
        return listen_address(value)
    except Invalid:
        raise Invalid(Bad.OPTIONAL_LISTEN, value=value) from None


def club_id(value: object) -> str:
    if not isinstance(value, str) or (value and not re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,39}", value)):
        raise Invalid(Bad.CLUB_ID, value=value)
    return value


@dataclass(frozen=True)
class ClubConfig:
    broker: str = _option(text)
    club: str = _option(club_id)
    board: str = _option(club_id)
    username: str = _option(text)
    password_file: str = _option(text)
    ca_file: str = _option(text)
    cert_file: str = _option(text)
    key_file: str = _option(text)
    home_assistant: bool = _option(boolean)
    signing_key_file: str = _option(text)
    scoring: str = _option(choice("match", "acc"))
    skunks_before_spread: bool = _option(boolean)
    best_of: int = _option(integer(1, 7, only=(1, 3, 5, 7)))


@dataclass(frozen=True)
class WebConfig:
    listen: str = _option(listen_address)
    token: str = _option(text)
    https: str = _option(optional_listen_address)


SPOKEN = ("scores", "winner", "count", "turn")
"""What the board may say aloud ([voice] speak): each score as counted (the show, and 15, 31, pairs, runs, go and
last card in the play), the winner, the count after each card, whose turn it is."""


def spoken(value: object) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(v, str) and v in SPOKEN for v in value) \
            or len(set(value)) != len(value):
        raise Invalid(Bad.SPOKEN, choices=SPOKEN, value=value)
    return tuple(value)


@dataclass(frozen=True)
class VoiceConfig:
    enabled: bool = _option(boolean)
    engine: str = _option(choice("espeak-ng", "piper"))
    voice: str = _option(text)
    rate: int = _option(integer(80, 450))
    volume: int = _option(integer(0, 200))
    speak: tuple[str, ...] = _option(spoken)
    device: str = _option(text)
    record_to: str = _option(text)


@dataclass(frozen=True)
class Config:
    game: GameConfig
    board: BoardConfig
    devices: DevicesConfig
    keypad: KeypadConfig
    buttons: ButtonsConfig
    display: DisplayConfig
    scanner: ScannerConfig
    strip: StripConfig
    camera: CameraConfig
    state: StateConfig
    service: ServiceConfig
    web: WebConfig
    club: ClubConfig
    voice: VoiceConfig
    origins: dict[str, Origin] = field(default_factory=dict, compare=False, repr=False)
    """Where each effective value came from, by dotted key: /etc/cribbage-companion/config.toml, line 12."""
    auto_layout: bool = False
    """board.layout was "auto": `board.layout` holds the builtin board fitting the configured game, and the
    daemon picks again for the game it actually plays (`companion.daemon.fit_board`)."""

    def to_toml(self, lang: i18n.Language) -> str:
        """The effective configuration as TOML, each value with a comment saying where it came from (in `lang`)."""
        lines: list[str] = []
        for section in SECTIONS:
            lines.append(f"[{section}]")
            values = getattr(self, section)
            for option in fields(values):
                dotted = f"{section}.{option.name}"
                value, origin = getattr(values, option.name), where_words(self.origins.get(dotted), lang) or "?"
                if dotted == "board.layout" and self.auto_layout:
                    value, origin = AUTO, lang.gettext(FOR_THIS_GAME).format(origin=origin, layout=value)
                lines.append(f"{option.name} = {_toml_value(dotted, value)}".ljust(44) + f"  # {origin}")
            lines.append("")
        return "\n".join(lines)


_SECTION_CLASSES: dict[str, type] = {
    "game": GameConfig, "board": BoardConfig, "devices": DevicesConfig, "keypad": KeypadConfig,
    "buttons": ButtonsConfig, "display": DisplayConfig, "scanner": ScannerConfig, "strip": StripConfig,
    "camera": CameraConfig, "state": StateConfig, "service": ServiceConfig, "club": ClubConfig, "web": WebConfig,
    "voice": VoiceConfig,
}
SECTIONS = tuple(_SECTION_CLASSES)


def _toml_value(dotted: str, value: object) -> str:
    if dotted == "display.address" and isinstance(value, int):
        return f"0x{value:02X}"
    if dotted == "board.colours" and isinstance(value, tuple):
        return "[" + ", ".join('"#{:02x}{:02x}{:02x}"'.format(*c) for c in value) + "]"
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(value, tuple):
        return "[" + ", ".join(_toml_value(dotted, v) for v in value) + "]"
    return str(value)


# --- reading the layers ---

@dataclass(frozen=True)
class _Value:
    value: object
    where: Origin


_TABLE = re.compile(r"^\s*\[\s*([^\[\]]+?)\s*\]\s*(#.*)?$")
_KEY = re.compile(r"^\s*([A-Za-z0-9_\-.\"' ]+?)\s*=")


def _split_key(key: str) -> list[str]:
    return [part.strip().strip("\"'") for part in key.split(".")]


def _statements(source: str) -> Iterator[tuple[int, list[str]]]:
    """Each line (1-based) where a table header or a key begins, outside multi-line strings, with its full path."""
    table: list[str] = []
    in_multiline = False
    for number, line in enumerate(source.splitlines(), start=1):
        opens_or_closes = line.count('"""') % 2 or line.count("'''") % 2
        if in_multiline:
            in_multiline = not opens_or_closes
            continue
        in_multiline = bool(opens_or_closes)
        if match := _TABLE.match(line):
            table = _split_key(match.group(1))
            yield number, table
        elif match := _KEY.match(line):
            yield number, table + _split_key(match.group(1))


def find_line(source: str, path: Sequence[str]) -> int | None:
    """The line (1-based) where a dotted key, or the table holding it, is written in TOML text."""
    return _first_lines(source).get(tuple(path))


def _first_lines(source: str) -> dict[tuple[str, ...], int]:
    """Every path `find_line` answers, with its line: the text read once, not once a key."""
    first: dict[tuple[str, ...], int] = {}
    for number, full in _statements(source):
        for end in range(len(full) + 1):
            first.setdefault(tuple(full[:end]), number)
    return first


def _read_layer(path: Path, source: From = From.FILE) -> dict[str, _Value]:
    whole = Origin(From.FILE, str(path))  # a file that cannot be read is named by its path
    try:
        with path.open("rb") as file:
            raw = file.read(MAX_BYTES + 1)
        if len(raw) > MAX_BYTES:
            raise ConfigError([Problem(Bad.TOO_LARGE, whole, facts={"most": MAX_BYTES // 1024})])
        text_ = raw.decode("utf-8")
    except FileNotFoundError:
        raise ConfigError([Problem(Bad.NO_FILE, whole)]) from None
    except (OSError, UnicodeDecodeError) as error:
        raise ConfigError([Problem(Bad.UNREADABLE, whole, facts={"error": str(error)})]) from None
    try:
        data = tomllib.loads(text_)
    except tomllib.TOMLDecodeError as error:
        raise ConfigError([Problem(Bad.NOT_TOML, whole, facts=_toml_facts(text_, error))]) from None
    layer: dict[str, _Value] = {}
    lines = _first_lines(text_)
    for section, table in data.items():
        if not isinstance(table, dict):
            raise ConfigError([Problem(Bad.OUTSIDE_TABLE, Origin(source, str(path), lines.get((section,)) or 1),
                                       facts={"section": section, "tables": SECTIONS})])
        for key, value in table.items():
            layer[f"{section}.{key}"] = _Value(value, Origin(source, str(path), lines.get((section, key)) or 1))
    return layer


_TOML_SAYS = [(re.compile(said), fault) for said, fault in [  # tomllib's words (3.11 to 3.13), first match
    (r"Invalid statement", Toml.STATEMENT),
    (r"Expected newline or end of document after a statement", Toml.AFTER_VALUE),
    (r"Expected ']' at the end of a table declaration", Toml.TABLE_END),
    (r"Expected ']]' at the end of an array declaration", Toml.ARRAY_TABLE_END),
    (r"Expected '=' after a key in a key/value pair", Toml.EQUALS),
    (r"Expected \"'(?:'')?\"", Toml.QUOTE),  # a 'literal string' or a '''literal string''' never closed
    (r"Found invalid character (?P<detail>.+)", Toml.CHARACTER),
    (r"Cannot declare .+ twice", Toml.TABLE_TWICE),
    (r"Cannot overwrite a value", Toml.VALUE_TWICE),
    (r"Cannot (?:mutate immutable|redefine) namespace .+", Toml.TABLE_CLOSED),
    (r"Invalid initial character for a key part", Toml.KEY),
    (r"Unclosed array", Toml.ARRAY),
    (r"Duplicate inline table key .+", Toml.INLINE_TWICE),
    (r"Unclosed inline table", Toml.INLINE),
    (r"Unescaped '\\' in a string", Toml.BACKSLASH),
    (r"Invalid hex value", Toml.HEX),
    (r"Escaped character is not a Unicode scalar value", Toml.SCALAR),
    (r"Unterminated string", Toml.STRING),
    (r"Illegal character (?P<detail>.+)", Toml.ILLEGAL),
    (r"Invalid date or datetime", Toml.DATE),
    (r"Invalid value", Toml.VALUE),
]]
_AT = re.compile(r"(?s)(?P<error>.*) \(at (?:line (?P<line>\d+), column (?P<column>\d+)|end of document)\)")


def _toml_facts(source: str, error: tomllib.TOMLDecodeError) -> dict[str, Any]:
    """tomllib's refusal as facts: what is wrong (`fault`, a Toml; None for words of tomllib's we do not know,
    said as they are: `error`), the character it names (`detail`), its line and column (None when tomllib says no
    place), whether that is the `end` of the file, and there the line where what is left open begins
    (`unclosed`)."""
    said, end, line, column = str(error), False, None, None
    parts = vars(error)
    if isinstance(parts.get("msg"), str):  # Python 3.14 on: the words and where, apart
        said, end = parts["msg"], parts["pos"] >= len(source)
        line, column = parts["lineno"], parts["colno"]
    elif at := _AT.fullmatch(said):
        said, end = at["error"], at["line"] is None
        line, column = ((source.count("\n") + 1, len(source) - source.rfind("\n")) if end
                        else (int(at["line"]), int(at["column"])))
    fault, detail = None, ""
    for pattern, kind in _TOML_SAYS:
        if found := pattern.fullmatch(said):
            fault, detail = kind, found.groupdict().get("detail") or ""
            break
    # no character typed: a line's end (a CR alone is one only where the file's lines end in CR LF)
    line_end = detail == repr("\n") or (detail == repr("\r") and "\r\n" in source)
    if fault in (Toml.ILLEGAL, Toml.CHARACTER) and line_end:
        fault, detail = Toml.LINE_END, ""
    return {"fault": fault, "error": said, "detail": detail, "line": line, "column": column, "end": end,
            "unclosed": _unclosed(source) if end else None}


def _unclosed(source: str) -> int | None:
    """For a refusal at the end of the document, the line where the string, array or table left open begins,
    found in one pass over the text (quotes, escapes, comments and brackets as TOML reads them); None when all
    is closed."""
    line, opened_at, depth, index, end = 1, 1, 0, 0, len(source)
    closing = ""  # the quote that ends the string we are in, if any
    while index < end:
        char = source[index]
        if closing:
            if char == "\\" and closing in ('"', '"""'):
                line += source[index + 1: index + 2] == "\n"
                index += 2
                continue
            if source.startswith(closing, index):
                index += len(closing)
                closing = ""
                continue
            line += char == "\n"
        elif char == "#":
            newline = source.find("\n", index)
            index = end if newline < 0 else newline
            continue
        elif char in "\"'":
            closing = char * 3 if source.startswith(char * 3, index) else char
            if not depth:
                opened_at = line
            index += len(closing)
            continue
        elif char in "[{":
            depth += 1
            if depth == 1:
                opened_at = line
        elif char in "]}":
            depth = max(depth - 1, 0)
        elif char == "\n":
            line += 1
        index += 1
    return opened_at if closing or depth else None  # "a =" at the end leaves nothing open


def _parse_override(text_: str) -> tuple[str, _Value]:
    key, equals, raw = text_.partition("=")
    key = key.strip()
    if not equals or key.count(".") != 1:
        raise ConfigError([Problem(Bad.OVERRIDE, facts={"text": text_})])
    try:
        value = tomllib.loads(f"v = {raw.strip()}")["v"]
    except tomllib.TOMLDecodeError:
        value = raw.strip()  # a bare word is a string: devices.scanner=serial
    return key, _Value(value, Origin(From.OVERRIDE, text_))


def load_config(path: Path | str | None = None, overrides: Sequence[str] = (), *,
                system_path: Path | None = SYSTEM_PATH) -> Config:
    """The effective configuration: packaged defaults < system file (if present) < `path` < `overrides`."""
    merged = _read_layer(DEFAULTS_PATH, From.PACKAGED)
    layers = [system_path] if system_path is not None and system_path.exists() else []
    if path is not None:
        layers.append(Path(path))
    later = [item for layer_path in layers for item in _read_layer(layer_path).items()]
    later += [_parse_override(override) for override in overrides]
    errors: list[Problem] = []
    for key, value in later:
        if key in merged:
            merged[key] = value
        else:
            errors.append(_unknown(key, value.where))
    return _build(merged, errors)


def add_config_arguments(parser: argparse.ArgumentParser) -> None:
    """The --config and --set options every command that runs the board shares."""
    parser.add_argument("--config", metavar="FILE", type=Path,
                        help=_("a TOML file read after the packaged defaults and {path}").format(path=SYSTEM_PATH))
    parser.add_argument("--set", metavar="KEY=VALUE", action="append", default=[], dest="overrides",
                        help=_("override one value, e.g. --set devices.scanner=serial (repeatable)"))


def config_from_args(args: argparse.Namespace) -> Config:
    """The configuration the options name."""
    return load_config(args.config, args.overrides)


def board_language(config: Config, args: argparse.Namespace | None = None) -> i18n.Language:
    """The language the board speaks (its OLED, terminal and voice): --lang when given, else [game] language."""
    given = getattr(args, "lang", None)
    return i18n.choose(given if given is not None else config.game.language)


def _unknown(key: str, where: Origin) -> Problem:
    section, _dot, name = key.partition(".")
    if section not in SECTIONS:
        return Problem(Bad.UNKNOWN_TABLE, where, key, {"section": section, "tables": SECTIONS})
    known = [f.name for f in fields(_SECTION_CLASSES[section])]
    return Problem(Bad.UNKNOWN_KEY, where, key, {"name": name, "section": section, "known": known})


def _build(merged: dict[str, _Value], errors: list[Problem]) -> Config:
    sections: dict[str, Any] = {}  # keyword arguments of Config and of each section's dataclass: checked values,
    for section, cls in _SECTION_CLASSES.items():  # each of its own option's type (the table says which)
        values: dict[str, Any] = {}
        for option in fields(cls):
            dotted = f"{section}.{option.name}"
            entry = merged[dotted]
            try:
                values[option.name] = option.metadata["check"](entry.value)
            except Invalid as error:
                errors.append(Problem(error.kind, entry.where, dotted, error.facts))
        if len(values) == len(fields(cls)):
            sections[section] = cls(**values)
    if errors:
        raise ConfigError(errors)
    config = Config(**sections, origins={key: value.where for key, value in merged.items()})
    problems = _cross_checks(config, merged)
    if problems:
        raise ConfigError([Problem(kind, merged[key].where, key, facts) for key, kind, facts in problems])
    if config.board.layout == AUTO:
        board = replace(config.board, layout=builtin_for(config.game.sides, config.game.target))
        config = replace(config, board=board, auto_layout=True)
    return config


Crossed = tuple[str, Bad, dict[str, Any]]  # a cross check's problem: the dotted key, its kind and facts


def _cross_checks(config: Config, merged: dict[str, _Value]) -> list[Crossed]:
    """Values that are fine alone but not together: (dotted key, what is wrong, its facts)."""
    problems: list[Crossed] = []
    game = config.game
    if game.dealer and game.dealer not in game.players:
        problems.append(("game.dealer", Bad.DEALER, {"dealer": game.dealer, "players": game.players}))
    wanted = VARIANT[game.variant].players
    if len(game.players) != wanted:
        problems.append(("game.players", Bad.PLAYER_COUNT, {"count": len(game.players), "variant": game.variant,
                                                            "wanted": wanted}))
    if game.variant == "five-card" and game.target != VARIANT["five-card"].target:
        problems.append(("game.target", Bad.FIVE_CARD_TARGET, {"target": VARIANT["five-card"].target}))
    sides = game.sides
    if len(config.board.colours) < sides:
        problems.append(("board.colours", Bad.FEW_COLOURS, {"sides": sides}))
    try:
        layout = None if config.board.layout == AUTO else load_layout(config.board.layout)
    except (LayoutError, OSError) as error:
        problems.append(("board.layout", Bad.LAYOUT_UNUSABLE, {"error": str(error)}))
    else:
        problem = None if layout is None else misfit(layout, sides, game.target)
        if problem is not None:
            problems.append(("board.layout", Bad.LAYOUT_MISFIT, {"players": game.players, "target": game.target,
                                                                 "problem": problem}))
    claims = [("keypad.rows", config.keypad.rows), ("keypad.columns", config.keypad.columns)]
    if config.devices.buttons == "gpio":
        claims += [(f"buttons.{b}", (getattr(config.buttons, b),)) for b in ("go", "undo", "ok")]
    if config.devices.keypad != "gpio":
        claims = claims[2:]
    i2c = dict.fromkeys((2, 3), "i2c")
    problems += _pin_clashes(claims, merged, "gpio", {},
                             i2c if config.devices.display in ("ssd1306", "sh1106") else {})
    if config.devices.keypad == "pico":
        problems += _pico_keypad_checks(config, merged)
    devices = config.devices
    if devices.scanner == "serial" and devices.strip == "pico" and config.scanner.port == config.strip.port:
        problems.append(("scanner.port", Bad.SAME_PORT, {"port": config.scanner.port,
                                                         "other_where": merged["strip.port"].where}))
    voice = config.voice
    if voice.enabled and voice.engine == "piper" and not voice.voice.endswith(".onnx"):
        problems.append(("voice.voice", Bad.PIPER_VOICE, {"voice": voice.voice}))
    camera = config.camera
    if camera.driver == "sim" and not camera.images:
        problems.append(("camera.images", Bad.IMAGES_NEEDED, {}))
    elif camera.images and not Path(camera.images).is_dir():
        problems.append(("camera.images", Bad.IMAGES_NOT_FOLDER, {"images": camera.images}))
    if camera.deck:
        problems += [("camera.deck", kind, facts) for kind, facts in _deck_problems(Path(camera.deck))]
    club = config.club
    if club.broker:
        problems += [(f"club.{key}", Bad.CLUB_NEEDED, {}) for key in ("club", "board") if not getattr(club, key)]
        if not club.broker.startswith(("mqtt://", "mqtts://")):
            problems.append(("club.broker", Bad.BROKER_URL, {"broker": club.broker}))
        else:
            try:
                broker_address(club.broker)
            except Invalid as error:
                problems.append(("club.broker", error.kind, error.facts))
    return problems


def _deck_problems(deck: Path) -> list[tuple[Bad, dict[str, Any]]]:
    """What is wrong with a taught deck's folder (it need not exist yet: /scan's teaching makes it)."""
    if not deck.is_absolute():
        return [(Bad.DECK_PATH, {"deck": str(deck)})]
    if deck.exists() and not deck.is_dir():
        return [(Bad.DECK_FILE, {"deck": str(deck)})]
    if not deck.parent.is_dir():
        return [(Bad.DECK_PARENT, {"deck": str(deck), "parent": str(deck.parent)})]
    return []


def _pico_keypad_checks(config: Config, merged: dict[str, _Value]) -> list[Crossed]:
    """A keypad on the Pico talks over the strip's link, on Pico pins the strip's data pin does not use."""
    problems: list[Crossed] = []
    if config.devices.strip not in ("pico", "pico-sim"):
        problems.append(("devices.keypad", Bad.PICO_KEYPAD, {"strip": config.devices.strip,
                                                             "other_where": merged["devices.strip"].where}))
    claims = [("keypad.pico_rows", config.keypad.pico_rows), ("keypad.pico_columns", config.keypad.pico_columns)]
    return problems + _pin_clashes(claims, merged, "pico", {config.strip.pin: "strip.pin"})


def _pin_clashes(claims: Sequence[tuple[str, tuple[int, ...]]], merged: dict[str, _Value], on: str,
                 taken: dict[int, str], reserved: dict[int, str] | None = None) -> list[Crossed]:
    """(key, kind, facts) for each pin claimed (`on` "gpio" or "pico") that is `reserved` (pin: what holds it) or
    `taken` (pin: the key using it; filled in as the claims go)."""
    problems: list[Crossed] = []
    for key, numbers in claims:
        for pin in numbers:
            if reserved and pin in reserved:
                problems.append((key, Bad.PIN_RESERVED, {"pin": pin, "on": on, "reserved": reserved[pin]}))
            elif pin in taken:
                other = taken[pin]
                problems.append((key, Bad.PIN_TAKEN, {"pin": pin, "on": on, "other": other,
                                                      "other_where": merged[other].where}))
            else:
                taken[pin] = key
    return problems
