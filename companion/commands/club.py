"""`crib club`: the club scoreboard over an MQTT broker, and `crib club pair` to draw the next round."""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
from pathlib import Path
from typing import Any

from companion.commands import CommandError
from companion.i18n import _


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "club", help=_("the club scoreboard: every board's game live, the night's standings"),
        description=_("Follow a club's boards through an MQTT broker and serve a scoreboard page with every table "
        "live and the night's standings (docs/club.md). `crib club pair` draws the next round."),
    )
    _add_broker_arguments(parser)
    parser.add_argument("--listen", default="127.0.0.1:8090", metavar="HOST:PORT",
                        help=_("where the page is served (default 127.0.0.1:8090; 0.0.0.0:8090 for a club's network)"))
    parser.set_defaults(func=run_scoreboard)
    pairs = parser.add_subparsers(dest="club_command", metavar="pair")
    pair = pairs.add_parser("pair", help=_("draw the next round: which table plays whom"),
                            description=_("Draw a round of a round-robin (--round N) or of a ladder from the night's "
                            "standings (--ladder), print which table plays whom, and show it on the scoreboard."))
    pair.add_argument("--players", required=True, help=_("the players, comma-separated, in a fixed order"))
    pair.add_argument("--boards", required=True, help=_("the boards (tables), comma-separated"))
    how = pair.add_mutually_exclusive_group(required=True)
    how.add_argument("--round", type=int, help=_("round N of a round-robin (everyone meets everyone once)"))
    how.add_argument("--ladder", action="store_true", help=_("neighbours in tonight's standings play each other"))
    pair.add_argument("--club", required=True, help=_("the club's id"))
    pair.add_argument("--night-dir", type=Path, help=_("where the night is kept (default: the scoreboard's)"))
    pair.set_defaults(func=run_pair)


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


def night_dir(args: argparse.Namespace) -> Path:
    base = Path(os.environ.get("XDG_STATE_HOME", Path.home() / ".local" / "state"))
    chosen: Path | None = args.night_dir
    return chosen or base / "cribbage-companion" / "club" / args.club


def run_scoreboard(args: argparse.Namespace) -> int:
    from companion.club import protocol
    from companion.club.night import Night
    from companion.club.publisher import Broker
    from companion.club.scoreboard import serve

    if not args.broker or not args.club:
        raise CommandError("say which broker and club to follow, like "
                           "`crib club --broker mqtt://127.0.0.1:1883 --club thursday`")
    try:
        protocol.check_name(args.club, "club")
        password = (args.password_file.read_text(encoding="utf-8").strip() if args.password_file
                    else os.environ.get("CRIB_CLUB_PASSWORD", ""))
        broker = Broker.from_url(args.broker, username=args.username, password=password, ca_file=args.ca_file,
                                 cert_file=args.cert_file, key_file=args.key_file)
    except (ValueError, OSError) as error:
        raise CommandError(str(error)) from None
    host, _colon, port = args.listen.rpartition(":")
    if not host or not port.isdigit():
        raise CommandError(f"--listen {args.listen!r}: give HOST:PORT, like 127.0.0.1:8090")
    folder = night_dir(args)
    folder.mkdir(parents=True, exist_ok=True)
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    night = Night(folder / "night.sqlite")
    print(f"Scoreboard of {args.club}: http://{host}:{port}/ (following {args.broker}; Ctrl-C stops)", flush=True)
    try:
        asyncio.run(serve(broker, args.club, night, host=host, port=int(port)))
    except KeyboardInterrupt:
        pass
    finally:
        night.close()
    return 0


def run_pair(args: argparse.Namespace) -> int:
    from companion.club import pairing, protocol
    from companion.club.night import Night

    players = [p.strip() for p in args.players.split(",") if p.strip()]
    boards = [b.strip() for b in args.boards.split(",") if b.strip()]
    try:
        protocol.check_name(args.club, "club")
        folder = night_dir(args)
        folder.mkdir(parents=True, exist_ok=True)
        night = Night(folder / "night.sqlite")
        try:
            if args.ladder:
                ranked = [s.player for s in night.standings() if s.player in players]
                ranked += [p for p in players if p not in ranked]
                pairs, number = pairing.ladder(ranked), (night.pairings() or {"round": 0})["round"] + 1
            else:
                pairs, number = pairing.round_robin(players, args.round), args.round
            tables = pairing.at_tables(pairs, boards)
            night.set_round(number, tables)
        finally:
            night.close()
    except ValueError as error:
        raise CommandError(str(error)) from None
    print(f"Round {number}:")
    for board, first, second in tables:
        print(f"  table {board}: {first} v {second}")
    for first, second in pairs:
        if pairing.BYE in (first, second):
            print(f"  {first if second == pairing.BYE else second} has a bye")
    return 0
