"""`crib club`: the club scoreboard over an MQTT broker, and `crib club pair` to draw the next round."""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

from companion.commands import CommandError
from companion.i18n import _, current, ngettext

if TYPE_CHECKING:
    from companion.club.night import Night
    from companion.club.pairing import Seat
    from companion.club.payloads import MatchJSON
    from companion.config import ClubConfig


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "club", help=_("the club scoreboard: every board's game live, the night's standings, a tournament"),
        description=_("Follow a club's boards through an MQTT broker and serve a scoreboard page with every table "
        "live and the night's standings, and a director's page (docs/club.md). `crib club credentials` makes "
        "the club's passwords, keys and broker files. A tournament: `crib club round` seats a round, "
        "`crib club enter` takes a game played without a board, `crib club close` ends a round's cards, "
        "`crib club playoffs` draws and prints the bracket, `crib club scorecards` and `crib club export` "
        "print the night."),
    )
    _add_broker_arguments(parser)
    _add_scoring_arguments(parser)
    parser.add_argument("--credentials", type=Path, help=_("the folder `crib club credentials` wrote: the "
                        "scoreboard's broker password, the director's token and the club's signing secret"))
    parser.add_argument("--director-token-file", type=Path, help=_("a file holding the director's token (default: "
                        "director.token in --credentials)"))
    parser.add_argument("--signed", action="store_true", help=_("take only messages signed with each board's key "
                        "(the club's secret from --credentials): for a broker that cannot keep boards apart"))
    parser.add_argument("--listen", default="127.0.0.1:8090", metavar="HOST:PORT",
                        help=_("where the page is served (default 127.0.0.1:8090; 0.0.0.0:8090 for a club's network)"))
    parser.set_defaults(func=run_scoreboard)
    commands = parser.add_subparsers(
        dest="club_command", metavar="credentials|round|pair|enter|close|playoffs|scorecards|export")

    made = commands.add_parser("credentials", help=_("make the club's passwords, keys and Mosquitto's files"),
                               description=_("Make a broker password for each board and for the scoreboard, the "
                               "director's token and the club's signing secret (each board's key derived from "
                               "it), and write Mosquitto's password file, ACL and settings to install. Run again "
                               "with more boards: what exists is kept."))
    made.add_argument("--club", required=True, help=_("the club's id"))
    made.add_argument("--boards", required=True, help=_("the boards, comma-separated (their broker user names)"))
    made.add_argument("--out", type=Path, required=True, help=_("the folder to write (kept private)"))
    made.add_argument("--install", type=Path, default=Path("/etc/mosquitto"),
                      help=_("where the broker's files will be installed (default /etc/mosquitto)"))
    made.add_argument("--port", type=int, default=1883, help=_("the broker's port (default 1883)"))
    made.set_defaults(func=run_credentials)

    seat = commands.add_parser("round", help=_("draw a round and seat it: which table plays whom"),
                               description=_("Draw round N (the next by default) by the ACC movement (one half of "
                               "the field stays, the other moves --move tables a round) or a round-robin, record "
                               "it, and print it. The scoreboard shows it and tells each board its players."))
    _add_night_arguments(seat)
    seat.add_argument("--players", help=_("the field, comma-separated, in a fixed order (needed for the first round; "
                      "the night keeps it)"))
    seat.add_argument("--boards", help=_("the boards, comma-separated: table 1 first (kept like --players)"))
    seat.add_argument("--movement", choices=["acc", "round-robin"], help=_("how players meet (default acc; kept)"))
    seat.add_argument("--move", type=int, help=_("acc: tables the moving side moves each round (default 1; kept)"))
    seat.add_argument("--round", type=int, help=_("the round to draw (default: the next); drawn again, it replaces"))
    seat.add_argument("--best-of", type=int, choices=[1, 3, 5, 7], help=_("playoff matches: games a match "
                      "(default [club] best_of: 3; kept with the night)"))
    _add_scoring_arguments(seat)
    seat.set_defaults(func=run_round)

    pairs = commands.add_parser("pair", help=_("draw a casual round: a round-robin or a ladder of tonight"),
                                description=_("Draw a round of a round-robin (--round N) or of a ladder from the "
                                "night's standings (--ladder), print which table plays whom, and show it on the "
                                "scoreboard."))
    pairs.add_argument("--players", required=True, help=_("the players, comma-separated, in a fixed order"))
    pairs.add_argument("--boards", required=True, help=_("the boards (tables), comma-separated"))
    how = pairs.add_mutually_exclusive_group(required=True)
    how.add_argument("--round", type=int, help=_("round N of a round-robin (everyone meets everyone once)"))
    how.add_argument("--ladder", action="store_true", help=_("neighbours in tonight's standings play each other"))
    _add_night_arguments(pairs)
    pairs.set_defaults(func=run_pair)

    enter = commands.add_parser("enter", help=_("a game played without a board, from one player's card"),
                                description=_("Enter one player's card of a game played without a board, through "
                                "the scoreboard (the director's token). The game counts once both players have "
                                "entered it and the cards agree; cards that differ exit 1 and wait for the "
                                "director; a card the night cannot take (not seated, not in the field, a closed "
                                "round) exits 2 saying why."))
    enter.add_argument("--scoreboard", default="http://127.0.0.1:8090",
                       help=_("the scoreboard's address (default http://127.0.0.1:8090)"))
    enter.add_argument("--token-file", type=Path, help=_("a file holding the director's token (or "
                       "$CRIB_CLUB_TOKEN)"))
    enter.add_argument("--round", type=int, required=True, help=_("the round the game was played in"))
    enter.add_argument("--player", required=True, help=_("whose card this is"))
    enter.add_argument("--opponent", required=True, help=_("who they played"))
    enter.add_argument("--score", type=int, required=True, help=_("the player's score (121 for the winner)"))
    enter.add_argument("--against", type=int, required=True, help=_("the opponent's score"))
    enter.set_defaults(func=run_enter)

    ending = commands.add_parser("close", help=_("take no more cards for a round"),
                                 description=_("Close round N: cards entered for it afterwards are refused."))
    _add_night_arguments(ending)
    ending.add_argument("--round", type=int, required=True, help=_("the round to close"))
    ending.set_defaults(func=run_close)

    playoffs = commands.add_parser("playoffs", help=_("draw the playoffs from the standings, and print the bracket"),
                                   description=_("The first time: seed the top quarter of the standings (rounded up) "
                                   "into single elimination, byes to the top seeds, and end the qualifying. Then "
                                   "(and every time after): print the bracket as the boards' matches fill it."))
    _add_night_arguments(playoffs)
    playoffs.add_argument("--best-of", type=int, choices=[1, 3, 5, 7], help=_("games a match (default [club] "
                          "best_of: 3)"))
    _add_scoring_arguments(playoffs)
    playoffs.set_defaults(func=run_playoffs)

    cards = commands.add_parser("scorecards", help=_("a printable PDF scorecard for each player (the print extra)"))
    _add_night_arguments(cards)
    cards.add_argument("--out", type=Path, required=True, help=_("the PDF to write"))
    cards.add_argument("--player", action="append", help=_("only this player (repeatable; default everyone)"))
    _add_scoring_arguments(cards)
    cards.set_defaults(func=run_scorecards)

    export = commands.add_parser("export", help=_("the standings and every game as CSV"))
    _add_night_arguments(export)
    export.add_argument("--standings", type=Path, help=_("write the standings here"))
    export.add_argument("--games", type=Path, help=_("write every game here"))
    _add_scoring_arguments(export)
    export.set_defaults(func=run_export)


def _add_night_arguments(parser: argparse.ArgumentParser) -> None:
    """The night a tournament command works on: the club's, where the scoreboard keeps it."""
    parser.add_argument("--club", required=True, help=_("the club's id"))
    parser.add_argument("--night-dir", type=Path, help=_("where the night is kept (default: the scoreboard's)"))


def _add_scoring_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--scoring", choices=["match", "acc"], help=_("rank by match points or by ACC game points "
                        "(default [club] scoring: match)"))
    parser.add_argument("--skunks-before-spread", action="store_true", default=None,
                        help=_("acc: equal points and wins are ranked by skunks before spread ([club] "
                        "skunks_before_spread)"))
    parser.add_argument("--config", type=Path, help=_("a configuration file to read [club] from"))


def _add_broker_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--broker", help=_("the broker: mqtt://HOST:PORT, or mqtts://HOST:PORT for TLS"))
    parser.add_argument("--club", help=_("the club's id: the boards publish under cribbage/CLUB/"))
    parser.add_argument("--username", default=os.environ.get("CRIB_CLUB_USERNAME", ""),
                        help=_("the broker's user name for the scoreboard (or $CRIB_CLUB_USERNAME)"))
    parser.add_argument("--password-file", type=Path, help=_("a file holding the broker password "
                        "(or $CRIB_CLUB_PASSWORD)"))
    parser.add_argument("--ca-file", default="", help=_("CA certificate to check the broker's TLS certificate"))
    parser.add_argument("--cert-file", default="", help=_("client certificate, where the broker asks for one"))
    parser.add_argument("--key-file", default="", help=_("the client certificate's key"))
    parser.add_argument("--night-dir", type=Path, help=_("where the night is kept (default: "
                        "~/.local/state/cribbage-companion/club/CLUB)"))


def _club(args: argparse.Namespace) -> ClubConfig:
    from companion.config import ConfigError, load_config

    try:
        return load_config(getattr(args, "config", None)).club
    except ConfigError as error:
        raise CommandError(str(error)) from None


def _night(args: argparse.Namespace, *, fix: bool = False) -> Night:
    """The night, its rules checked against the options given (a night keeps the rules it began with; an
    option naming others is refused). `fix`: a command that decides the night (the scoreboard, a round, the
    playoffs) keeps the options' rules, or else [club]'s, when the night has none yet; the others only read."""
    from companion.club import protocol
    from companion.club.night import Night
    from companion.club.refused import Refused
    from companion.club.tournament import Scoring

    try:
        protocol.check_name(args.club, "club")
    except ValueError as error:
        raise _said(error) from None
    folder = night_dir(args)
    folder.mkdir(parents=True, exist_ok=True)
    night = Night(folder / "night.sqlite")
    club = _club(args)
    name, skunks = getattr(args, "scoring", None), getattr(args, "skunks_before_spread", None)
    kept_skunks = night.setting("skunks_before_spread")
    given = None if name is None and skunks is None else Scoring(
        name or night.setting("scoring") or club.scoring,
        skunks if skunks is not None else club.skunks_before_spread if kept_skunks is None else kept_skunks)
    night.default_scoring = given or Scoring(club.scoring, club.skunks_before_spread)
    try:
        if fix:
            night.keep_rules(scoring=night.default_scoring if night.setting("scoring") is None else given,
                             best_of=getattr(args, "best_of", None) or night.setting("best_of") or club.best_of)
        else:
            night.check_rules(scoring=given, best_of=getattr(args, "best_of", None))
    except Refused as refused:
        night.close()
        raise _said(refused) from None
    return night


def night_dir(args: argparse.Namespace) -> Path:
    base = Path(os.environ.get("XDG_STATE_HOME", Path.home() / ".local" / "state"))
    chosen: Path | None = args.night_dir
    return chosen or base / "cribbage-companion" / "club" / args.club


def run_scoreboard(args: argparse.Namespace) -> int:
    from companion.club import protocol
    from companion.club.publisher import Broker
    from companion.club.scoreboard import serve
    from companion.config import broker_address, given, listen_address

    if not args.broker or not args.club:
        raise CommandError(_("say which broker and club to follow, like "
                             "`crib club --broker mqtt://127.0.0.1:1883 --club thursday`"))
    given("--broker", broker_address, args.broker)
    host, _colon, port = given("--listen", listen_address, args.listen).rpartition(":")  # "[::1]" as printed
    made: Path | None = args.credentials
    try:
        protocol.check_name(args.club, "club")
        password_file = args.password_file or (made / "scoreboard.password" if made else None)
        password = (password_file.read_text(encoding="utf-8").strip() if password_file
                    else os.environ.get("CRIB_CLUB_PASSWORD", ""))
        token_file = args.director_token_file or (made / "director.token" if made else None)
        director = token_file.read_text(encoding="utf-8").strip() if token_file else ""
        if args.signed and not made:
            raise CommandError(_("--signed needs --credentials: the folder holding the club's secret (club.secret)"))
        secret = bytes.fromhex((made / "club.secret").read_text(encoding="utf-8").strip()) if args.signed and made \
            else None
        broker = Broker.from_url(args.broker, username=args.username or ("scoreboard" if made else ""),
                                 password=password, ca_file=args.ca_file, cert_file=args.cert_file,
                                 key_file=args.key_file)
    except (ValueError, OSError) as error:
        raise _said(error) from None
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    night = _night(args, fix=True)
    print(_("Scoreboard of {club}: http://{host}:{port}/ (following {broker}; the director's page "
            "http://{host}:{port}/director; Ctrl-C stops)").format(club=args.club, host=host, port=port,
                                                                    broker=args.broker), flush=True)
    if not director:
        print(_("The director's page is read only: no director token (--director-token-file, or --credentials)"),
              flush=True)
    try:
        asyncio.run(serve(broker, args.club, night, host=host.strip("[]"), port=int(port), director=director,
                          secret=secret))
    except KeyboardInterrupt:
        pass
    finally:
        night.close()
    return 0


def run_credentials(args: argparse.Namespace) -> int:
    from companion.club.credentials import make_credentials

    boards = _names(args.boards)
    if not boards:
        raise CommandError(_("name the boards, like --boards t1,t2,t3"))
    try:
        passwords = make_credentials(args.out, args.club, boards, install=args.install, port=args.port)
    except (ValueError, OSError) as error:
        raise _said(error) from None
    out = args.out
    print(_("Credentials of {club} in {folder} (keep the folder private):").format(club=args.club, folder=out))
    print(_("  broker: install {files}/cribbage.passwords and cribbage.acl in {install}/, cribbage.conf in "
            "{install}/conf.d/, then restart mosquitto").format(files=out / "mosquitto", install=args.install))
    print(_("  scoreboard: crib club --credentials {folder} --club {club} --broker mqtt://HOST:{port}").format(
        folder=out, club=args.club, port=args.port))
    print(_("  director: {token} (the director's page and `crib club enter --token-file`)").format(
        token=out / "director.token"))
    for board in boards:
        print(_("  board {board}: user {board}, password_file {password}, signing_key_file {key}").format(
            board=board, password=out / "boards" / board / "password", key=out / "boards" / board / "signing.key"))
    print(_("{count} broker users: {users}").format(count=len(passwords), users=", ".join(passwords)))
    return 0


def _names(text: str | None) -> list[str]:
    return [p.strip() for p in (text or "").split(",") if p.strip()]


def run_pair(args: argparse.Namespace) -> int:
    from companion.club import pairing

    players, boards = _names(args.players), _names(args.boards)
    night = _night(args)
    try:
        if args.ladder:
            ranked = [s.player for s in night.standings() if s.player in players]
            ranked += [p for p in players if p not in ranked]
            pairs, number = pairing.ladder(ranked), night.latest_round() + 1
        else:
            pairs, number = pairing.round_robin(players, args.round), args.round
        seats, byes = pairing.seat(pairs, boards)
        night.set_round(number, seats, byes)
    except ValueError as error:
        raise _said(error) from None
    finally:
        night.close()
    _print_round(number, seats, byes)
    return 0


def run_round(args: argparse.Namespace) -> int:
    from companion.club import pairing, protocol

    night = _night(args, fix=True)
    try:
        players = _names(args.players) or night.field()
        boards = _names(args.boards) or night.setting("boards") or []
        movement = args.movement or night.setting("movement") or "acc"
        move = args.move or night.setting("move") or 1
        if not players or not boards:
            raise CommandError(_("name the field and the boards for the first round, like `crib club round --club "
                                 "thursday --players Ann,Bob,Cat,Dan --boards t1,t2`"))
        for board in boards:
            protocol.check_name(board, "board")
        if night.playoffs_drawn() is not None:
            raise CommandError(_("the playoffs are drawn: the qualifying rounds are over"))
        number = args.round or night.latest_round() + 1
        pairs = (pairing.acc_movement(players, number, move) if movement == "acc"
                 else pairing.round_robin(players, number))
        seats, byes = pairing.seat(pairs, boards)
        night.keep_rules(movement=movement, move=move)
        night.set_round(number, seats, byes)
        for key, value in (("players", players), ("boards", boards)):
            night.set_setting(key, value)
    except ValueError as error:
        raise _said(error) from None
    finally:
        night.close()
    _print_round(number, seats, byes)
    return 0


def _print_round(number: int, seats: list[Seat], byes: list[str]) -> None:
    print(_("Round {round}:").format(round=number))
    for seat in seats:
        print("  " + _("Table {table} ({board}): {first} against {second}").format(
            table=seat.table, board=seat.board, first=seat.players[0], second=seat.players[1]))
    for player in byes:
        print("  " + _("{player} has a bye (2 game points, no spread)").format(player=player))


def _said(error: Exception) -> CommandError:
    """An error as the command says it: the club's refusal from its code and facts, in the reader's language;
    another error's own words."""
    from companion.club.refused import Refused
    from companion.words.club import refusal_words

    if isinstance(error, Refused):
        return CommandError(refusal_words(error.why, error.facts, current()))
    return CommandError(str(error))


def run_enter(args: argparse.Namespace) -> int:
    """Post the card to the scoreboard: 0 when taken (it counts, or waits for the opponent's card or the
    director), 1 when the cards differ, 2 when the night refuses it (the reason said)."""
    import json
    import urllib.error
    import urllib.request

    try:
        token = (args.token_file.read_text(encoding="utf-8").strip() if args.token_file
                 else os.environ.get("CRIB_CLUB_TOKEN", ""))
    except OSError as error:
        raise CommandError(_("--token-file: {problem}: {path}").format(problem=error.strerror,
                                                                       path=args.token_file)) from None
    card = {"round": args.round, "player": args.player.strip(), "opponent": args.opponent.strip(),
            "score": args.score, "against": args.against}
    request = urllib.request.Request(f"{args.scoreboard.rstrip('/')}/api/enter", data=json.dumps(card).encode(),
                                     headers={"Content-Type": "application/json", "Authorization": f"Bearer {token}",
                                              "Accept-Language": current().code},  # its words in the reader's
                                     method="POST")
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            answer = json.loads(response.read())
    except urllib.error.HTTPError as error:
        try:
            reason = json.loads(error.read()).get("message", error.reason)
        except (ValueError, AttributeError):
            reason = error.reason
        raise CommandError(_("the card is refused: {reason}").format(reason=reason)) from None
    except (urllib.error.URLError, OSError) as error:
        raise CommandError(_("cannot reach the scoreboard at {url} ({problem}): is `crib club` running there? "
                             "(--scoreboard URL)").format(url=args.scoreboard,
                                                          problem=getattr(error, "reason", error))) from None
    print(answer.get("message", ""))
    return 1 if answer.get("status") == "disagreement" else 0


def run_close(args: argparse.Namespace) -> int:
    from companion.club.refused import Refused

    night = _night(args)
    try:
        night.close_round(args.round)
    except Refused as refused:
        raise _said(refused) from None
    finally:
        night.close()
    print(_("Round {round} is closed: no more cards for it").format(round=args.round))
    return 0


def run_playoffs(args: argparse.Namespace) -> int:
    from companion.club.refused import Refused

    night = _night(args, fix=True)
    try:
        if night.playoffs_drawn() is None:
            night.draw_playoffs()
        bracket = night.bracket()
        scoring = night.scoring
    except Refused as refused:
        raise _said(refused) from None
    finally:
        night.close()
    assert bracket is not None
    print((_("Playoffs, best of {games} (seeded by ACC game points):") if scoring.name == "acc" else
           _("Playoffs, best of {games} (seeded by match points):")).format(games=bracket["best_of"]))
    for seed, player in enumerate(bracket["seeds"], start=1):
        print("  " + _("seed {seed}: {player}").format(seed=seed, player=player))
    tie = bracket["tie"]
    if tie:
        how = {"head-to-head": _("head-to-head"), "lot": _("by lot")}
        parted = ", ".join(f"{p} ({how[by]})" for p, by in zip(tie["order"], tie["by"], strict=True))
        print(_("Tied at the qualifying line for {places} place(s): {players}; parted by head-to-head, then by lot: "
                "{parted}").format(places=tie["places"], players=", ".join(tie["players"]), parted=parted))
    names = {len(bracket["rounds"]) - 1: _("Final"), len(bracket["rounds"]) - 2: _("Semi-finals")}
    for depth, matches in enumerate(bracket["rounds"]):
        print(f"{names.get(depth) or _('Round {round}').format(round=depth + 1)}:")
        for match in matches:
            print(f"  {_match_words(match, final=depth == len(bracket['rounds']) - 1)}")
    return 0


def _match_words(match: MatchJSON, *, final: bool = False) -> str:
    sides = [f"({seed}) {player}" if player else _("(to come)")
             for seed, player in zip(match["seeds"], match["players"], strict=True)]
    if match["players"][1] is None and match["winner"]:
        return _("{side}: a bye").format(side=sides[0])
    wins = match["wins"]
    said = _("{first} against {second}").format(first=sides[0], second=sides[1])
    if match["winner"]:
        done = _("{winner} wins the final") if final else _("{winner} goes through")
        return f"{said} ({wins[0]}-{wins[1]}, {done.format(winner=match['winner'])})"
    return f"{said} ({wins[0]}-{wins[1]})" if any(wins) else said


def run_scorecards(args: argparse.Namespace) -> int:
    from companion.commands import need_extra

    need_extra("print", "fpdf")
    from companion.club.export import scorecards_pdf

    night = _night(args)
    try:
        everyone = night.players()
        chosen = [p.strip() for p in args.player] if args.player else everyone
        unknown = [p for p in chosen if p not in everyone]
        if unknown:
            raise CommandError(_("no player {players} tonight: the players are {everyone}").format(
                players=", ".join(unknown), everyone=", ".join(everyone)))
        if not chosen:
            raise CommandError(_("nobody has played yet: there are no scorecards to print"))
        scorecards_pdf(night, chosen, args.out, title=f"Club {args.club}")
    finally:
        night.close()
    print(ngettext("{count} scorecard: {path}", "{count} scorecards: {path}", len(chosen)).format(
        count=len(chosen), path=args.out))
    return 0


def run_export(args: argparse.Namespace) -> int:
    from companion.club.export import games_csv, standings_csv

    if not args.standings and not args.games:
        raise CommandError(_("say what to write: --standings FILE, --games FILE or both"))
    night = _night(args)
    try:
        for path, text in ((args.standings, standings_csv), (args.games, games_csv)):
            if path:
                path.write_text(text(night), encoding="utf-8")
                print(_("wrote {path}").format(path=path))
    finally:
        night.close()
    return 0
