"""`crib club round`, `enter`, `playoffs`, `scorecards` and `export`: what the director types and reads."""

from __future__ import annotations

from companion.cli import main
from companion.club.night import Night


def crib(tmp_path, *args):
    return main(["club", *args, "--club", "weekend", "--night-dir", str(tmp_path / "night")])


def test_a_round_without_a_field_says_how_to_name_one_and_draws_nothing(tmp_path, capsys):
    assert crib(tmp_path, "round") == 2
    assert "name the field and the boards for the first round" in capsys.readouterr().err
    assert crib(tmp_path, "round", "--players", "Ann,Bob,Cat", "--boards", "t1,t 2") == 2
    assert "'t 2' is not a usable id" in capsys.readouterr().err
    assert crib(tmp_path, "round", "--players", "Ann,Bob,Cat", "--boards", "t1,t2") == 0
    out = capsys.readouterr().out
    assert "Round 1:\n  Table 1 (t1): Ann against " in out and "has a bye (2 game points, no spread)" in out


def test_export_and_playoffs_without_flags_use_the_nights_scoring(tmp_path, capsys):
    crib(tmp_path, "round", "--players", "Ann,Bob,Cat,Dan", "--boards", "t1,t2", "--scoring", "acc", "--best-of", "3")
    capsys.readouterr()
    night = Night(tmp_path / "night" / "night.sqlite")  # the cards, as the scoreboard takes them
    for card in [("Ann", "Cat", 121, 60), ("Cat", "Ann", 60, 121), ("Bob", "Dan", 121, 100), ("Dan", "Bob", 100, 121)]:
        night.enter(1, *card)
    night.close()
    assert crib(tmp_path, "export", "--standings", str(tmp_path / "s.csv")) == 0  # no --scoring: the night's
    assert (tmp_path / "s.csv").read_text().splitlines()[1] == "1,Ann,3,1,1,61,1,0,0,4"  # 3 ACC points, not 4 MP
    assert crib(tmp_path, "export", "--scoring", "match", "--standings", str(tmp_path / "m.csv")) == 2
    assert "this night keeps scoring acc" in capsys.readouterr().err
    assert crib(tmp_path, "playoffs") == 0
    out = capsys.readouterr().out
    assert out.startswith("Playoffs, best of 3 (seeded by ACC game points):\n  seed 1: Ann\n  seed 2: Bob\n")
    assert crib(tmp_path, "scorecards", "--player", "Zed", "--out", str(tmp_path / "c.pdf")) == 2
    assert "no player Zed tonight" in capsys.readouterr().err
    assert crib(tmp_path, "scorecards", "--out", str(tmp_path / "c.pdf")) == 0
    assert (tmp_path / "c.pdf").read_bytes().startswith(b"%PDF") and "4 scorecards" in capsys.readouterr().out
    assert crib(tmp_path, "round") == 2
    assert "the playoffs are drawn" in capsys.readouterr().err


def test_the_credentials_are_files_to_install_and_stay_when_made_again(tmp_path, capsys):
    out = tmp_path / "made"
    assert main(["club", "credentials", "--club", "weekend", "--boards", "t1,t2", "--out", str(out)]) == 0
    passwords = (out / "mosquitto" / "cribbage.passwords").read_text().splitlines()
    assert [line.split(":")[0] for line in passwords] == ["scoreboard", "t1", "t2"]
    assert all(line.split(":", 1)[1].startswith("$7$101$") for line in passwords)
    assert "pattern write cribbage/weekend/boards/%u/#" in (out / "mosquitto" / "cribbage.acl").read_text()
    assert oct((out / "director.token").stat().st_mode & 0o777) == "0o600"
    kept = (out / "boards" / "t1" / "password").read_text()
    assert main(["club", "credentials", "--club", "weekend", "--boards", "t1,t2,t3", "--out", str(out)]) == 0
    assert (out / "boards" / "t1" / "password").read_text() == kept and (out / "boards" / "t3").is_dir()
    assert main(["club", "credentials", "--club", "weekend", "--boards", "scoreboard", "--out", str(out)]) == 2
    assert "that name is the scoreboard's" in capsys.readouterr().err


def test_the_directors_commands_say_the_clubs_refusals_in_the_readers_language(tmp_path, capsys):
    out = str(tmp_path / "made")
    for lang, said in (("de", "Brett 'scoreboard': dieser Name gehört der Anzeigetafel oder Home Assistant"),
                       ("en", "board 'scoreboard': that name is the scoreboard's or Home Assistant's")):
        assert main(["--lang", lang, "club", "credentials", "--club", "c", "--boards", "t1,scoreboard",
                     "--out", out]) == 2
        assert said in capsys.readouterr().err
    assert main(["--lang", "de", "club", "round", "--club", "weekend", "--night-dir", str(tmp_path / "night"),
                 "--players", "Ann,Bob,Cat,Dan", "--boards", "t1,t2", "--round", "3", "--move", "1"]) == 2
    assert "treffen sich nach 2 Runden wieder: eine Runde von 1 bis 2 wählen" in capsys.readouterr().err
    assert crib(tmp_path, "close", "--round", "4") == 2
    assert "there is no round 4: the rounds drawn are none" in capsys.readouterr().err


def test_the_scoreboard_says_where_it_is_and_when_the_directors_page_is_read_only(tmp_path, capsys, monkeypatch):
    from companion.club import scoreboard

    served = []

    async def serve(broker, club, night, *, host, port, director, secret):  # the pages, until Ctrl-C
        served.append((broker.host, club, host, port, director))

    monkeypatch.setattr(scoreboard, "serve", serve)
    token = tmp_path / "director.token"
    token.write_text("t0ken\n")
    follow = ["--broker", "mqtt://b:1883", "--listen", "127.0.0.1:8090"]
    where = ("Scoreboard of weekend: http://127.0.0.1:8090/ (following mqtt://b:1883; the director's page "
             "http://127.0.0.1:8090/director; Ctrl-C stops)")
    assert crib(tmp_path, *follow, "--director-token-file", str(token)) == 0
    assert capsys.readouterr().out == f"{where}\n"
    assert crib(tmp_path, *follow) == 0
    assert capsys.readouterr().out == (f"{where}\nThe director's page is read only: no director token "
                                       "(--director-token-file, or --credentials)\n")
    assert main(["--lang", "de", "club", *follow, "--club", "weekend", "--night-dir", str(tmp_path / "night")]) == 0
    german = capsys.readouterr().out.splitlines()
    assert len(german) == 2 and german[0].startswith("Anzeigetafel") and "Turnierleitung" in german[1]
    assert served == [("b", "weekend", "127.0.0.1", 8090, "t0ken"), *[("b", "weekend", "127.0.0.1", 8090, "")] * 2]
    ipv6 = ["--broker", "mqtt://b:1883", "--listen", "[::1]:8090"]
    assert crib(tmp_path, *ipv6) == 0
    assert "http://[::1]:8090/" in capsys.readouterr().out
    assert served[-1] == ("b", "weekend", "::1", 8090, "")  # the host as a socket takes it
