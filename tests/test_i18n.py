"""The board in English and German: a complete, fresh catalog; the language chosen by --lang, [game] language or
the system's locale; the German words fit the OLED and the terminal."""

from __future__ import annotations

import functools
import gettext
import io
import itertools
import json
import shutil
import string
import subprocess
from collections.abc import Iterator

import pytest

from companion import catalog, cli, i18n
from companion.config import ConfigError, load_config
from companion.cribbage.cards import Card, Suit
from companion.cribbage.game import GameState, initial_state
from companion.cribbage.scoring import (
    DOUBLE_PAIR_ROYAL,
    FIFTEEN,
    GO,
    HIS_HEELS,
    LAST_CARD,
    PAIR,
    PAIR_ROYAL,
    RUN,
    THIRTY_ONE,
    Score,
    score_show,
)
from companion.i18n import _
from companion.view.screen import COLUMNS, SIZE, _font, _wrap
from companion.words import count
from companion.words.count import said
from companion.words.phrases import prompt_words


def fields(message: str) -> set[str]:
    return {f"{name}!{conversion}:{spec}" for _text, name, spec, conversion in string.Formatter().parse(message)
            if name is not None}


def test_every_message_of_the_package_is_in_the_german_catalog_and_translated():
    extracted = {message.id for message in catalog.extract() if message.id}
    german = catalog.read("de")
    shipped = {message.id for message in german if message.id}
    assert extracted - shipped == set(), "new messages: run `python3 dev.py i18n` and translate them"
    assert shipped - extracted == set(), "stale messages: run `python3 dev.py i18n`"
    untranslated = [m.id for m in german if m.id and not (all(m.string) if isinstance(m.string, tuple) else m.string)]
    assert untranslated == []
    assert not [m.id for m in german if m.id and m.fuzzy]


def test_each_translation_keeps_the_placeholders_of_its_message():
    for message in catalog.read("de"):
        if message.id:
            ids = message.id if isinstance(message.id, tuple) else (message.id,)
            strings = message.string if isinstance(message.string, tuple) else (message.string,)
            for english, german in zip(ids, strings, strict=False):
                assert fields(english) == fields(german), (english, german)


def test_each_translation_keeps_the_percent_formats_of_its_message():
    # Babel's checks: a message it flags python-format ("100% scale" reads as "% s") keeps its formats in German
    assert [(message.lineno, errors) for message, errors in catalog.read("de").check()] == []


@pytest.mark.skipif(shutil.which("msgfmt") is None, reason="dev.py's test step installs gettext (msgfmt)")
def test_gnu_msgfmt_finds_no_error_in_the_german_catalog():
    # the check translators and distributions run: every format flag, the header, the plural forms
    checked = subprocess.run(["msgfmt", "--check", "--output-file=/dev/null", str(catalog.po_path("de"))],
                             capture_output=True, text=True, timeout=120, check=False)
    assert checked.returncode == 0 and "error" not in checked.stderr, checked.stderr


def test_the_shipped_mo_is_compiled_from_the_po():
    def messages(mo: bytes) -> dict[object, object]:  # all but the header, which names the Babel that compiled it
        return {k: v for k, v in gettext.GNUTranslations(io.BytesIO(mo))._catalog.items() if k != ""}  # type: ignore

    shipped = catalog.po_path("de").with_suffix(".mo").read_bytes()
    assert messages(shipped) == messages(catalog.compiled(catalog.read("de")))


def test_crib_score_says_the_29_in_german(capsys):
    assert cli.main(["score", "5H", "5D", "5C", "JS", "5S", "--lang", "de"]) == 0
    assert capsys.readouterr().out == (
        "gesamt 29: fünfzehn zwei, fünfzehn vier, fünfzehn sechs, fünfzehn acht, fünfzehn zehn, fünfzehn zwölf, "
        "fünfzehn vierzehn, fünfzehn sechzehn, ein Vierling macht achtundzwanzig, und der Nobs macht "
        "neunundzwanzig\n")


def test_json_output_stays_in_english_keys_and_words(capsys):
    assert cli.main(["score", "5H", "5D", "5C", "JS", "5S", "--lang", "de", "--json"]) == 0
    out = capsys.readouterr().out
    assert '"kind": "double pair royal"' in out and "and his nobs is twenty-nine" in out and "Vierling" not in out


def test_errors_come_in_the_chosen_language(capsys):
    assert cli.main(["score", "5H", "5D", "5X", "JS", "5S", "--lang", "de"]) == 2
    assert capsys.readouterr().err.startswith("crib score: '5X' hat keine bekannte Farbe: tippe einen Rang A 2-9")


@pytest.mark.parametrize(("argv", "said"), [
    (["score", "5H", "--batch", "x"], "crib score: gib Karten oder --batch DATEI an, nicht beides"),
    (["score", "5H", "5D", "5C", "JS"], "crib score: gib vier Handkarten und dann die Startkarte an"),
    (["print-deck", "--sheet", "nope", "x.pdf"], "crib print-deck: kein Etikettenbogen namens 'nope': wähle einen"),
    (["print-deck", "--grid", "5y13", "--label", "38x21", "x.pdf"],
     "crib print-deck: --grid '5y13' ist nicht verständlich: gib SPALTENxZEILEN, zum Beispiel 5x13 an"),
    (["print-deck", "--cards", "--sheet", "L7651", "x.pdf"], "crib print-deck: --cards druckt ganze Kartenseiten"),
    (["print-deck", "--paper", "letter", "--sheet", "L7651", "x.pdf"],
     "crib print-deck: der Bogen L7651 ist A4, nicht US Letter: lass --paper weg"),
    (["print-deck", "nowhere/x.pdf"], "crib print-deck: kann nowhere/x.pdf nicht schreiben: den Ordner nowhere gibt"),
    (["selfplay", "--games", "0"], "crib selfplay: --games, --jobs und --deals nehmen eine Zahl von mindestens 1"),
    (["scan-test", "--count", "0"], "crib scan-test: --count 0: gib mindestens 1 an"),
    (["replay", "gone.jsonl"], "crib replay: kann gone.jsonl nicht lesen: No such file or directory; gib eine "
                               "lesbare Datei oder '-' an\n"),
    (["replay", "latin1.jsonl"], "crib replay: latin1.jsonl: Zeile 2 ist kein UTF-8-Text (Byte 0xe4 in Spalte 3): "
                                 "speichere sie als UTF-8 oder tippe diese Zeile neu\n")])
def test_the_commands_refusals_come_in_the_chosen_language(capsys, monkeypatch, tmp_path, argv, said):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "latin1.jsonl").write_bytes(b'{"type":"game","players":["Ann","Bob"]}\n{"\xe4"}\n')
    assert cli.main([*argv, "--lang", "de"]) == 2
    assert capsys.readouterr().err.startswith(said)


def test_a_batchs_bad_lines_are_named_in_the_chosen_language(capsys, monkeypatch):
    monkeypatch.setattr("sys.stdin", io.StringIO("5H 5D 5C JS 5S\n5H 5D\n"))
    assert cli.main(["score", "--batch", "-", "--lang", "de"]) == 2
    captured = capsys.readouterr()
    assert captured.out == "29\n-\n"
    assert captured.err == ("crib score: Zeile 2: gib fünf verschiedene Karten an, vier auf der Hand und dann die "
                            "Startkarte, wie 5H 5D 5C JS 5S (erhalten: '5H 5D')\n"
                            "crib score: 1 von 2 Zeilen nicht gezählt: ihre Summen sind '-'; berichtige sie und starte "
                            "noch einmal\n")


def test_card_names_and_suit_letters_are_typed_the_same_in_both_languages(capsys):
    for language in ("en", "de"):
        assert cli.main(["score", "5h", "5♦", "5C", "jS", "5S", "--lang", language]) == 0
    assert [line.split(":")[0] for line in capsys.readouterr().out.splitlines()] == ["total 29", "gesamt 29"]


@pytest.mark.parametrize(("environ", "language"), [
    ({"LANG": "de_DE.UTF-8"}, "de"), ({"LANG": "de_AT.UTF-8"}, "de"), ({"LC_ALL": "de_CH"}, "de"),
    ({"LANGUAGE": "de:en", "LANG": "en_GB.UTF-8"}, "de"), ({"LANG": "fr_FR.UTF-8"}, "en"), ({"LANG": "C.UTF-8"}, "en"),
    ({}, "en"), ({"LANGUAGE": "fr:de"}, "en"), ({"LC_ALL": "en_US.UTF-8", "LANG": "de_DE.UTF-8"}, "en"),
])
def test_the_system_locale_picks_the_language_where_the_board_speaks_it(environ, language):
    assert i18n.system_language(environ) == language


def test_auto_and_a_german_system_speak_german(monkeypatch):
    monkeypatch.setenv("LANG", "de_DE.UTF-8")
    assert i18n.choose("auto").code == "de"
    assert prompt_words(initial_state().awaited(), i18n.choose("auto")) == "Neues Spiel beginnen"


def test_an_unknown_language_is_a_clear_error_that_changes_nothing(capsys):
    with pytest.raises(ValueError, match=r"no language 'xx': choose one of en, de \(or auto\)"):
        i18n.language("xx")
    assert i18n.current() is i18n.language("en") is i18n.ENGLISH
    with pytest.raises(SystemExit):
        cli.main(["score", "5H", "5D", "5C", "JS", "5S", "--lang", "xx"])
    assert "argument --lang: invalid choice: 'xx' (choose from 'en', 'de', 'auto')" in capsys.readouterr().err


def test_the_configured_language_is_checked_and_used(tmp_path):
    with pytest.raises(ConfigError, match=r'game\.language must be one of "auto", "en", "de"'):
        load_config(None, ["game.language='xx'"])
    assert load_config(None, []).game.language == "auto"
    assert load_config(None, ["game.language='de'"]).game.language == "de"


def test_crib_sim_speaks_the_configured_language_and_lang_overrides_it(tmp_path, capsys):
    script = tmp_path / "script.txt"
    script.write_text("5C\nwhat\n")
    common = ["sim", "--state-dir", str(tmp_path / "state"), "--new", "--dealer", "Ann", "--script", str(script),
              "--quiet"]
    assert cli.main([*common, "--set", "game.language='de'"]) == 0
    assert "abgelehnt 'what': 'what' ist keine Karte und kein Befehl" in capsys.readouterr().out
    assert cli.main([*common, "--set", "game.language='de'", "--lang", "en"]) == 0
    assert "rejected 'what': 'what' is not a card or a command" in capsys.readouterr().out


# --- layout: the longest words of each catalog on the 128 px OLED (21 columns of the font) and the terminal ----

def prompts() -> list[str]:
    """Every prompt the OLED shows in its two bottom lines, in the chosen language, with four-letter names,
    two-digit counts and three players where that is the longest: the engine's and the table's."""
    three = _("{some} and {last}").format(some="Anna, Bert", last="Cato")
    cut = _("{again}Cut for deal: {waiting} to cut").format(again="", waiting=three)
    recut = _("{again}Cut for deal: {waiting} to cut").format(again=_("Equal cards: cut again. "), waiting="Cato")
    claims = [_("{player}: claim the points of {label}").format(player="Cato", label=_(label).format(player="Cato"))
              for label in ("{player}'s hand", "{player}'s crib")]
    won = i18n.ngettext("{winner} wins {target} to {others}", "{winner} win {target} to {others}", 2)
    match = i18n.ngettext("{winner} wins the match {won} to {others}", "{winner} win the match {won} to {others}", 2)
    game = won.format(winner="Anna & Cato", target=121, others=90)
    return [
        _("Start a new game"), cut, recut, _("{dealer} deals. Enter the starter").format(dealer="Cato"),
        _("{turn} to play, count {count}").format(turn="Cato", count=31),
        _("Enter {dealer}'s crib").format(dealer="Cato"), *claims, game,
        _("{won}: a double skunk").format(won=game),
        match.format(winner="Anna & Cato", won=7, others=5),
        _("Enter {hand_for}'s six cards (ok: skip)").format(hand_for="Cato"),
        _("{turn} says go? count {count}").format(turn="Cato", count=31),
        *(_("{prompt}: enter claim N").format(prompt=claim) for claim in claims),
        *(_("{prompt} (ok: no cut, {first} deals)").format(prompt=p, first="Anna") for p in (cut, recut)),
        _("Coach: {player} {page}/{pages}").format(player="Cato", page=3, pages=3),
    ]


def lines_on_the_oled(text: str) -> int:
    wrapped = _wrap(text)
    assert all(_font().getlength(line) <= SIZE[0] for line in wrapped)
    return len(wrapped)


def test_every_german_prompt_fits_the_two_prompt_lines_where_the_english_one_does(speak):
    english = [lines_on_the_oled(text) for text in prompts()]
    speak("de")
    german = [lines_on_the_oled(text) for text in prompts()]
    assert [(text, lines) for text, lines, most in zip(prompts(), german, english, strict=True)
            if lines > max(2, most)] == []
    assert sum(lines > 2 for lines in german) <= sum(lines > 2 for lines in english)


def fits_the_oled(text: str, lines: int) -> bool:
    wrapped = _wrap(text)
    return len(wrapped) <= lines and all(_font().getlength(line) <= SIZE[0] for line in wrapped)


SUITS = list(Suit)


def every_kind_of_show() -> Iterator[tuple[list[Card], bool]]:
    """A hand and starter for every multiset of five ranks (suits spread, so a jack may hold nobs), and the
    flushes of five different ranks, in hand and in the crib: every count phrase the show can say."""
    for ranks in itertools.combinations_with_replacement(range(1, 14), 5):
        if max(ranks.count(rank) for rank in ranks) > 4:
            continue
        seen: dict[int, int] = {}
        cards = []
        for rank in ranks:
            seen[rank] = seen.get(rank, -1) + 1
            cards.append(Card(rank, SUITS[seen[rank]]))
        yield cards, False
        jack = next((card for card in cards[:4] if card.rank == 11), None)
        nobs = None if jack is None else Card(cards[4].rank, jack.suit)
        if nobs is not None and nobs not in cards:
            yield [*cards[:4], nobs], False
        if len(set(ranks)) == 5:
            yield [Card(rank, Suit.HEARTS) for rank in ranks], True


@functools.cache
def every_count_of_a_show() -> tuple[Score, ...]:
    """A show for each way a count is said (its phrases: what `said` words), of all of `every_kind_of_show`'s."""
    shows = (score_show(cards[:4], cards[4], crib=crib) for cards, crib in every_kind_of_show())
    return tuple({show.phrases(): show for show in shows}.values())


@pytest.mark.parametrize("language", list(i18n.LANGUAGES))
def test_every_phrase_of_the_show_fits_two_lines_so_a_page_never_splits_it(speak, language):
    speak(language)
    phrases = {phrase for show in every_count_of_a_show() for phrase in said(show)}
    assert len(phrases) > 100
    assert [phrase for phrase in phrases if not fits_the_oled(phrase, 2)] == []


@pytest.mark.parametrize("language", list(i18n.LANGUAGES))
def test_every_phrase_of_the_play_fits_two_lines_after_the_players_name(speak, language):
    """In the play the first phrase follows the name ("Cato: fifteen two"); one card pegs at most 14 (a double
    pair royal on fifteen), a run at most seven."""
    speak(language)
    book = count.book(i18n.current())
    said = []
    for kind in (FIFTEEN, THIRTY_ONE, PAIR, PAIR_ROYAL, DOUBLE_PAIR_ROYAL, RUN, GO, LAST_CARD, HIS_HEELS):
        for running, size in itertools.product(range(1, 15), range(3, 8)):
            phrase = book.templates[kind].format(running=book.number(running), size=book.number(size),
                                                 points=book.number(running))
            said += [f"Cato: {phrase}", book.last.format(phrase=phrase)]
    assert [phrase for phrase in said if not fits_the_oled(phrase, 2)] == []


@pytest.mark.parametrize("language", list(i18n.LANGUAGES))
def test_the_count_and_the_starter_share_one_line(speak, language):
    speak(language)
    line = f"{_('Count {count}').format(count=31)} {_('Starter {card}').format(card='10♦')}"
    assert len(line) <= COLUMNS and _font().getlength(line) <= SIZE[0]


def test_no_german_word_is_longer_than_a_line_of_the_oled():
    """A word the OLED cannot wrap would be broken in two; words of configuration syntax excepted."""
    words = {word.strip(".,;:()!?'") for message in catalog.read("de") if message.id
             for text in (message.string if isinstance(message.string, tuple) else (message.string,))
             for word in text.split() if not set(word) & set('{}[]="/_')}
    assert max(words, key=len) and max(len(word) for word in words) <= COLUMNS


def test_german_state_prompts_of_a_whole_game_fit(speak, tmp_path):
    """Every prompt of a played game, as the table shows it, fits the two prompt lines in German."""
    from companion.cribbage.game import replay
    from tests.sample_deal import DEAL, deal

    speak("de")
    seen: list[GameState] = [initial_state()]
    seen += [replay(deal(upto)) for upto in DEAL[1:-4]] + [replay(deal("nothing"))]
    assert [p for p in (prompt_words(s.awaited()) for s in seen) if not fits_the_oled(p, 2)] == []


def test_crib_replay_tells_the_deal_in_german(tmp_path, capsys):
    import json

    from companion.cribbage.transcript import input_to_json
    from tests.sample_deal import deal

    transcript = tmp_path / "game.jsonl"
    transcript.write_text("".join(json.dumps(input_to_json(i)) + "\n" for i in deal("nothing")))
    assert cli.main(["replay", str(transcript), "--lang", "de"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "Runde 1: Ann gibt, Startkarte 5C"
    assert "  Hand Bob: Bob +20 (fünfzehn zwei, fünfzehn vier, fünfzehn sechs, fünfzehn acht, fünfzehn zehn, " \
           "fünfzehn zwölf, fünfzehn vierzehn, und ein Drilling macht zwanzig)" in out
    assert out[-2:] == ["Stand: Ann 17, Bob 21", "Bob gibt. Startkarte eingeben"]
    assert cli.main(["replay", str(transcript), "--lang", "de", "--json"]) == 0
    events = json.loads(capsys.readouterr().out)["events"]  # the kind for programs, the name for people
    assert [(e["kind"], e["player"], e["name"]) for e in events if e["player"] == "Bob" and e["kind"] == "hand"] == [
        ("hand", "Bob", "Hand Bob")]


@pytest.mark.parametrize("language", list(i18n.LANGUAGES))
def test_crib_sims_help_line_fits_the_80_columns(speak, language):
    from companion.table import HELP, NEW_GAME

    speak(language)
    assert len(_(HELP).format(new_game=NEW_GAME)) <= 80


def test_the_web_page_speaks_the_chosen_language_and_hands_its_scripts_the_catalog():
    from importlib import resources

    from companion import i18n

    page = resources.files("companion.web.templates").joinpath("board.html").read_text(encoding="utf-8")
    assert i18n.translate_html(page) == page  # English: the template as it is
    german = i18n.translate_html(page, i18n.language("de"))
    assert '<html lang="de">' in german
    assert ">Deine Hand" in german and ">Your hand" not in german
    assert german.count("<") == page.count("<") + 2  # the same elements, and the words' <script>
    words = json.loads(german.split("window.WORDS = ", 1)[1].split(";</script>", 1)[0])
    assert words["No card fits under 31: say go"] == "Keine Karte passt unter 31: Go sagen"


# --- help: every command's --help in the chosen language ---------------------------------------------------------

def help_texts(name: str) -> list[str]:
    """The description, epilog and option helps of `crib NAME --help`, as written (English)."""
    parser = cli.build_parser(name)
    command = parser._subparsers._group_actions[0].choices[name]  # type: ignore[union-attr]
    texts = [command.description, command.epilog, *(action.help for action in command._actions)]
    return [text for text in texts if text and text != "==SUPPRESS=="]


@pytest.mark.parametrize("name", sorted(cli.COMMANDS))
def test_every_help_text_has_its_german_words(speak, name):
    english = help_texts(name)
    speak("de")
    german = help_texts(name)
    assert len(english) == len(german) >= 3
    assert [text for text, words in zip(english, german, strict=True) if words == text] == []  # each translated


def test_help_speaks_the_language_chosen_by_lang_or_the_configuration(capsys):
    with pytest.raises(SystemExit):
        cli.main(["--lang", "de", "--help"])
    out = capsys.readouterr().out
    assert out.startswith("Aufruf: crib") and "Befehle:" in out and "Karten zählen" in out
    with pytest.raises(SystemExit):
        cli.main(["sim", "--help", "--set", "game.language='de'"])
    out = capsys.readouterr().out
    assert out.startswith("Aufruf: crib sim") and "Optionen:" in out and "eine Beispielrunde von selbst" in out
    with pytest.raises(SystemExit):
        cli.main(["sim", "--help", "--set", "game.language='de'", "--lang", "en"])
    assert "play a sample deal by itself" in capsys.readouterr().out
    with pytest.raises(SystemExit):
        cli.main(["scores", "--lang", "de"])
    assert "ungültige Wahl: 'scores'" in capsys.readouterr().err
