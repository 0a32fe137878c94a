"""Complete sample games: every point is written down with its reason and checked against the engine.

The deals repeat one layout of cards so each can be counted by hand once (starter 5S):
  leader   5C 5D 5H JS   show 29: eight fifteens 16, four fives 12, nobs (JS, starter a spade) 1
  second   4C 4D 6C 6H   show 24: four runs 4-5-6 12, two pairs 4, four fifteens 4-5-6 8
  third    7C 7D 8C 8H   show 12: four fifteens 7-8 8, two pairs 4
  dealer4  KC KD QC QH   show 12: four fifteens K-5 Q-5 8, two pairs 4   (four players)
  crib     AH 3D 8C 8H   show 2 (two players): a pair; with 9C 9H for 8C 8H: 6 (pair 2, A-5-9 twice 4)
"""

from __future__ import annotations

import pytest

from companion.cribbage.cards import parse_cards
from companion.cribbage.errors import InputError, RuleError
from companion.cribbage.facts import Place, Seen, Side
from companion.cribbage.game import CardSeen, GameState, apply, initial_state
from companion.cribbage.transcript import (
    ClaimInput,
    CribInput,
    DiscardInput,
    GameInput,
    GoInput,
    HandInput,
    Input,
    MugginsInput,
    PegInput,
    PlayInput,
    StarterInput,
    input_to_json,
    input_to_line,
    parse_input,
)
from companion.words.phrases import prompt_words
from companion.words.projection import state_json
from tests.facts import by_name, label, name, refused


def play(text: str) -> list[Input]:
    """'JS 4C go 5C' -> plays and go's."""
    return [GoInput() if word == "go" else PlayInput(parse_cards(word)[0]) for word in text.split()]


def run(inputs: list[Input]) -> GameState:
    state = initial_state()
    for inp in inputs:
        state = apply(state, inp)
    return state


def events(state: GameState) -> list[tuple[int, str, str, int]]:
    return [(e.deal, label(e), e.player or e.side, e.points) for e in state.events]


# Two players: pone leads JS, dealer 4C 14, pone 5C 19, dealer 6C 25 (run 4-5-6: 3), pone 5D 30, dealer go,
# pone go (the go point: pone 1), dealer leads 4D, pone 5H 9, dealer 6H 15 (fifteen 2 and run 4-5-6 3: 5),
# last card dealer 1.
TWO_PLAY = "JS 4C 5C 6C 5D go go 4D 5H 6H"


def two_player_deal(crib: bool = True) -> list[Input]:
    return [StarterInput(parse_cards("5S")[0]), *play(TWO_PLAY),
            *([CribInput(parse_cards("AH 3D 8C 8H"))] if crib else [])]


def two_player_events(deal: int, dealer: str, pone: str) -> list[tuple[int, str, str, int]]:
    return [
        (deal, "pegging", dealer, 3),  # 6C: run 4-5-6
        (deal, "go", pone, 1),  # both said go at 30: pone played last
        (deal, "pegging", dealer, 5),  # 6H: fifteen 2, run 4-5-6 3
        (deal, "last card", dealer, 1),
        (deal, f"{pone}'s hand", pone, 29),
        (deal, f"{dealer}'s hand", dealer, 24),
        (deal, f"{dealer}'s crib", dealer, 2),
    ]


def test_two_players_to_121():
    deals = [i for _ in range(4) for i in two_player_deal()][:-1]  # the game ends before the last crib
    state = run([GameInput(("Ann", "Bob"), dealer="Ann", target=121), *deals])
    # each deal: dealer 3+5+1 pegging, 24 hand, 2 crib = 35; pone 1 go, 29 hand = 30
    # deal 1 Ann deals: Ann 35, Bob 30; deal 2: Ann 65, Bob 65; deal 3: Ann 100, Bob 95;
    # deal 4 Bob deals: Bob 98, Ann 101, Bob 103, Bob 104, then Ann counts first as pone: 101 + 29 = 130 -> 121
    expected = (two_player_events(1, "Ann", "Bob") + two_player_events(2, "Bob", "Ann")
                + two_player_events(3, "Ann", "Bob") + two_player_events(4, "Bob", "Ann")[:5])
    assert events(state) == [*expected[:-1], (4, "Ann's hand", "Ann", 20)]  # capped: 101 + 20 = 121
    assert by_name(state.scores) == {"Ann": 121, "Bob": 104}
    assert name(state.winner) == "Ann" and state.skunk is None and state.phase == "game over"
    assert prompt_words(state.awaited()) == "Ann wins 121 to 104"
    with refused(RuleError, "the game is over"):
        apply(state, CribInput(parse_cards("AH 3D 8C 8H")))


def test_after_a_go_the_player_after_the_last_to_play_leads():
    state = run([GameInput(("Ann", "Bob"), dealer="Ann"), StarterInput(parse_cards("5S")[0]),
                 *play("JS 4C 5C 6C 5D go go")])
    assert prompt_words(state.awaited()) == "Ann to play, count 0"  # Bob played 5D last and took the go: Ann leads


def test_two_players_to_61_with_hands_and_discards_entered():
    deal_inputs: list[Input] = []
    for dealer, pone in (("Ann", "Bob"), ("Bob", "Ann")):
        deal_inputs += [
            HandInput(pone, parse_cards("5C 5D 5H JS AH 3D")), DiscardInput(pone, parse_cards("AH 3D")),
            HandInput(dealer, parse_cards("4C 4D 6C 6H 8C 8H")), DiscardInput(dealer, parse_cards("8C 8H")),
            *two_player_deal(crib=False),  # the crib is known from the discards
        ]
    state = run([GameInput(("Ann", "Bob"), dealer="Ann", target=61), *deal_inputs])
    # deal 1: Ann 35, Bob 30; deal 2 Bob deals: Bob 33, Ann 36, Bob 38, Bob 39, Ann 36 + 29 = 65 -> 61
    assert events(state)[7:] == [(2, "pegging", "Bob", 3), (2, "go", "Ann", 1), (2, "pegging", "Bob", 5),
                                 (2, "last card", "Bob", 1), (2, "Ann's hand", "Ann", 25)]
    assert by_name(state.scores) == {"Ann": 61, "Bob": 39}
    assert state.skunk is None  # 39 passed the 61-point game's skunk line (31)


def test_a_go_is_refused_when_the_hand_shows_a_playable_card():
    state = run([GameInput(("Ann", "Bob"), dealer="Ann"), HandInput("Bob", parse_cards("5C 5D 5H JS AH 3D")),
                 DiscardInput("Bob", parse_cards("AH 3D")), StarterInput(parse_cards("5S")[0]), *play("JS 4C")])
    with refused(RuleError, r"No go at 14: Bob holds 5C 5D 5H, which fit\. Play a card\."):
        apply(state, GoInput())
    with refused(RuleError, r"A♥ is in the crib \(laid away by Bob\): play a card from Bob's hand"):
        apply(state, PlayInput(parse_cards("AH")[0]))


def test_muggins_claims_and_calls():
    state = run([GameInput(("Ann", "Bob"), dealer="Ann", target=61, muggins=True), StarterInput(parse_cards("5S")[0]),
                 *play(TWO_PLAY)])
    assert state.phase == "claim" and prompt_words(state.awaited()) == "Bob: claim the points of Bob's hand"
    for impossible in (19, 30, -1):
        with pytest.raises(RuleError):
            apply(state, ClaimInput(impossible))
    with refused(RuleError, "muggins is called right after a claim that was too low"):
        apply(state, MugginsInput())
    state = run([*state.inputs,
                 ClaimInput(28),  # Bob's 29 claimed as 28: Bob pegs 28
                 MugginsInput(),  # Ann takes the missed point
                 ClaimInput(24),  # Ann's hand, right
                 CribInput(parse_cards("AH 3D 8C 8H")),
                 ClaimInput(4),  # the crib is 2: only 2 pegged
                 StarterInput(parse_cards("5S")[0]), *play(TWO_PLAY),  # deal 2, Bob deals
                 ClaimInput(29)])  # Ann, pone: 37 + 29 = 66 -> 61
    assert events(state) == [
        (1, "pegging", "Ann", 3), (1, "go", "Bob", 1), (1, "pegging", "Ann", 5), (1, "last card", "Ann", 1),
        (1, "Bob's hand", "Bob", 28), (1, "muggins", "Ann", 1), (1, "Ann's hand", "Ann", 24),
        (1, "Ann's crib", "Ann", 2),
        (2, "pegging", "Bob", 3), (2, "go", "Ann", 1), (2, "pegging", "Bob", 5), (2, "last card", "Bob", 1),
        (2, "Ann's hand", "Ann", 24),  # capped: Ann had 37
    ]
    assert by_name(state.scores) == {"Ann": 61, "Bob": 38}


def three_player_deal() -> list[Input]:
    # L leads JS 10, M 4C 14, D 7C 21, L 5C 26, M 4D 30; D, L and M say go: M played last, go 1.
    # D leads 7D, L 5D 12, M 6C 18 (run 7-5-6: 3), D 8C 26 (run 7-5-6-8: 4), L 5H 31 (2),
    # M 6H 6, D 8H 14, last card D 1.
    return [StarterInput(parse_cards("5S")[0]), *play("JS 4C 7C 5C 4D go go go 7D 5D 6C 8C 5H 6H 8H"),
            CribInput(parse_cards("AH 3D 9C 9H"))]


def test_three_players_to_61_won_in_the_play():
    state = run([GameInput(("Ann", "Bob", "Cat"), dealer="Ann", target=61), *(three_player_deal() * 3)[:-4]])

    def deal(n: int, lead: str, mid: str, dealer: str) -> list[tuple[int, str, str, int]]:
        return [(n, "go", mid, 1), (n, "pegging", mid, 3), (n, "pegging", dealer, 4), (n, "pegging", lead, 2),
                (n, "last card", dealer, 1), (n, f"{lead}'s hand", lead, 29), (n, f"{mid}'s hand", mid, 24),
                (n, f"{dealer}'s hand", dealer, 12), (n, f"{dealer}'s crib", dealer, 6)]

    # deal 1: Bob 31, Cat 28, Ann 23; deal 2 (Bob deals): Cat 59, Ann 51, Bob 54;
    # deal 3 (Cat deals): Bob 55 (go), 58 (run of three), Cat 59 + 4 (run of four) = 63 -> 61 in the play
    assert events(state) == [*deal(1, "Bob", "Cat", "Ann"), *deal(2, "Cat", "Ann", "Bob"),
                             (3, "go", "Bob", 1), (3, "pegging", "Bob", 3), (3, "pegging", "Cat", 2)]
    assert by_name(state.scores) == {"Ann": 51, "Bob": 58, "Cat": 61}
    assert prompt_words(state.awaited()) == "Cat wins 61 to 58 and 51"


def four_player_deal() -> list[Input]:
    # order L, 2nd, 3rd, D. JS 4C 7C KC = 31 (D 2); 5C 4D 7D QC 5D = 31 (L 2); 6C 8C KD 5H 29, then 2nd,
    # 3rd and D say go and L has no cards: go to L 1; 6H 8H QH 24, last card D 1.
    return [StarterInput(parse_cards("5S")[0]), *play("JS 4C 7C KC 5C 4D 7D QC 5D 6C 8C KD 5H go go go 6H 8H QH"),
            CribInput(parse_cards("AH 3D 9C 9H"))]


def test_four_players_in_partnerships():
    state = run([GameInput(("Ann", "Bob", "Cat", "Dan"), dealer="Ann"), *(four_player_deal() * 3)[:-1]])
    assert state.sides == (Side(("Ann", "Cat")), Side(("Bob", "Dan")))

    def deal(n: int, lead: str, second: str, third: str, dealer: str) -> list[tuple[int, str, str, int]]:
        return [(n, "pegging", dealer, 2), (n, "pegging", lead, 2), (n, "go", lead, 1), (n, "last card", dealer, 1),
                (n, f"{lead}'s hand", lead, 29), (n, f"{second}'s hand", second, 24),
                (n, f"{third}'s hand", third, 12), (n, f"{dealer}'s hand", dealer, 12),
                (n, f"{dealer}'s crib", dealer, 6)]

    # deal 1 (Ann deals): Ann & Cat 2 + 1 + 24 + 12 + 6 = 45, Bob & Dan 2 + 1 + 29 + 12 = 44
    # deal 2 (Bob deals): Ann & Cat 2 + 1 + 29 + 12 = 44 -> 89, Bob & Dan 2 + 1 + 24 + 12 + 6 = 45 -> 89
    # deal 3 (Cat deals): Cat's 31 91, Dan's 31 91, Dan's go 92, Cat's last card 92, Dan's hand 29: 121
    assert events(state) == [*deal(1, "Bob", "Cat", "Dan", "Ann"), *deal(2, "Cat", "Dan", "Ann", "Bob"),
                             *deal(3, "Dan", "Ann", "Bob", "Cat")[:5]]
    assert by_name(state.scores) == {"Ann & Cat": 92, "Bob & Dan": 121}
    assert prompt_words(state.awaited()) == "Bob & Dan win 121 to 92"
    assert {e.side for e in state.events if e.player in ("Ann", "Cat")} == {Side(("Ann", "Cat"))}


def test_five_card_cribbage_to_61():
    # pone holds 5C 5D JS: show 15 (5-J three times 6, 5-5-5 2, pair royal 6, nobs 1);
    # dealer 4C 6C 6H: show 12 (two runs 4-5-6 6, pair 2, 4-5-6 twice 4); crib AH 3D 8C 8H: 2 (discards)
    # play: JS 10, 4C 14, 5C 19, 6C 25 (run 3 to the dealer), 5D 30, dealer go, pone has no cards: go to pone 1,
    # dealer 6H, last card 1
    def deal(dealer: str, pone: str) -> list[Input]:
        return [DiscardInput(pone, parse_cards("AH 3D")), DiscardInput(dealer, parse_cards("8C 8H")),
                StarterInput(parse_cards("5S")[0]), *play("JS 4C 5C 6C 5D go 6H")]

    state = run([GameInput(("Ann", "Bob"), dealer="Ann", variant="five-card"), *deal("Ann", "Bob"),
                 *deal("Bob", "Ann"), *deal("Ann", "Bob"), *deal("Bob", "Ann")])
    assert state.target == 61

    def points(n: int, dealer: str, pone: str) -> list[tuple[int, str, str, int]]:
        return [(n, "pegging", dealer, 3), (n, "go", pone, 1), (n, "last card", dealer, 1),
                (n, f"{pone}'s hand", pone, 15), (n, f"{dealer}'s hand", dealer, 12),
                (n, f"{dealer}'s crib", dealer, 2)]

    # Bob 3 for last; deal 1: Bob 19, Ann 18; deal 2: Ann 34, Bob 37; deal 3: Bob 53, Ann 52;
    # deal 4: Bob 56, Ann 53, Bob 57, Ann 53 + 15 = 68 -> 61
    assert events(state) == [(1, "three for last", "Bob", 3), *points(1, "Ann", "Bob"), *points(2, "Bob", "Ann"),
                             *points(3, "Ann", "Bob"), *points(4, "Bob", "Ann")[:3], (4, "Ann's hand", "Ann", 8)]
    assert by_name(state.scores) == {"Ann": 61, "Bob": 57}


def test_his_heels_wins_the_game_at_once():
    state = run([GameInput(("Ann", "Bob"), dealer="Ann"), PegInput("Ann", 119), PegInput("Bob", 60),
                 StarterInput(parse_cards("JD")[0])])
    assert name(state.winner) == "Ann" and state.phase == "game over"
    assert by_name(state.scores) == {"Ann": 121, "Bob": 60}
    assert label(state.events[-1]) == "his heels" and state.events[-1].points == 2
    assert state.skunk == "double skunk"  # 60 is below 61
    with pytest.raises(RuleError):
        apply(state, PlayInput(parse_cards("4H")[0]))


@pytest.mark.parametrize(("target", "loser", "skunk"), [
    (121, 60, "double skunk"), (121, 61, "skunk"), (121, 90, "skunk"), (121, 91, None),
    (61, 15, "double skunk"), (61, 16, "skunk"), (61, 30, "skunk"), (61, 31, None),
])
def test_skunk_lines_in_both_directions(target, loser, skunk):
    state = run([GameInput(("Ann", "Bob"), dealer="Ann", target=target, match=7), PegInput("Bob", loser),
                 PegInput("Ann", target)])
    assert state.skunk == skunk
    assert by_name(state.match_points) == {"Ann": {None: 1, "skunk": 2, "double skunk": 4}[skunk], "Bob": 0}


def test_a_match_the_loser_deals_the_next_game():
    game = GameInput(("Ann", "Bob"), target=121, match=3)
    state = run([GameInput(("Ann", "Bob"), dealer="Ann", target=121, match=3), PegInput("Bob", 100),
                 PegInput("Ann", 121)])  # Ann wins, no skunk: 1 match point
    assert state.phase == "game over" and by_name(state.match_points) == {"Ann": 1, "Bob": 0}
    with refused(RuleError, "the loser of the last game deals first"):
        apply(state, GameInput(("Ann", "Bob"), dealer="Ann", target=121, match=3))
    state = run([*state.inputs, game])
    assert state.dealer == "Bob" and state.game_number == 2 and by_name(state.scores) == {"Ann": 0, "Bob": 0}
    state = run([*state.inputs, PegInput("Bob", 121)])  # Ann on 0: double skunk, 4 match points
    assert state.phase == "match over" and name(state.match_winner) == "Bob"
    assert prompt_words(state.awaited()) == "Bob wins the match 4 to 1"


def test_cut_for_deal_lower_card_deals_and_ties_cut_again():
    state = run([parse_input('{"type":"game","players":["Ann","Bob"]}'),
                 parse_input('{"type":"cut","player":"Ann","card":"4H"}')])
    assert state.phase == "cut" and prompt_words(state.awaited()) == "Cut for deal: Bob to cut"
    tied = apply(state, parse_input('{"type":"cut","player":"Bob","card":"4S"}'))
    assert tied.phase == "cut"
    assert prompt_words(tied.awaited()) == "Equal cards: cut again. Cut for deal: Ann and Bob to cut"
    state = apply(state, parse_input('{"type":"cut","player":"Bob","card":"AS"}'))
    assert state.dealer == "Bob" and prompt_words(state.awaited()) == "Bob deals. Enter the starter"


def test_illegal_inputs_are_refused_and_change_nothing():
    state = run([GameInput(("Ann", "Bob"), dealer="Ann"), StarterInput(parse_cards("5S")[0]), *play("KH KD 5C")])
    refusals = {
        "the count is 25: 9H would make 34; play a lower card or say go": PlayInput(parse_cards("9H")[0]),
        "K♦ was played by Ann: play a card from Ann's hand": PlayInput(parse_cards("KD")[0]),
        "5♠ is the starter": PlayInput(parse_cards("5S")[0]),
        "it is Ann's turn to play, not Bob's": PlayInput(parse_cards("2H")[0], player="Bob"),
        "the crib is counted after the hands": CribInput(parse_cards("AH 2H 3H 4H")),
        "the starter is already turned": StarterInput(parse_cards("2C")[0]),
        "a game is in progress": GameInput(("Ann", "Bob")),
        "no count to claim now|without muggins": ClaimInput(7),
    }
    for message, inp in refusals.items():
        with refused(RuleError, message):
            apply(state, inp)
    with pytest.raises(CardSeen) as seen:  # where the card is, as a fact too
        apply(state, PlayInput(parse_cards("KH")[0]))
    assert seen.value.seen == Seen(parse_cards("KH")[0], Place.PLAYED, "Bob")
    # Bob KH, Ann KD (pair), Bob 5C 25, Ann 2H 27, go, go; Bob AH, Ann 2D, Bob 3D: Bob's fourth and last card
    state = run([*state.inputs, *play("2H go go AH 2D 3D")])
    with refused(RuleError, "Bob has played all four cards: Ann to play"):
        apply(state, PlayInput(parse_cards("7H")[0], player="Bob"))
    state = apply(state, PlayInput(parse_cards("4C")[0]))
    assert state.phase == "crib"
    with refused(RuleError, "KH was played by Bob this deal"):
        apply(state, CribInput(parse_cards("KH 7C 8C 9C")))
    with refused(RuleError, "5S is the starter"):
        apply(state, CribInput(parse_cards("5S 7C 8C 9C")))


@pytest.mark.parametrize(("loser", "skunk", "standard", "acc"), [
    (91, None, 1, 2),  # a plain win: 1 match point, 2 game points in ACC tournaments
    (90, "skunk", 2, 3),  # the loser did not pass 90: a skunk
    (60, "double skunk", 4, 3),  # ACC does not recognise double skunks: 3, as a skunk
])
def test_match_scoring_standard_and_acc(loser, skunk, standard, acc):
    for scoring, points in (("standard", standard), ("acc", acc)):
        state = run([GameInput(("Ann", "Bob"), dealer="Ann", match=True, match_scoring=scoring),
                     PegInput("Bob", loser), PegInput("Ann", 121)])
        assert state.skunk == skunk and state.match_scoring == scoring
        assert state.match_target == 7  # "match": true is the usual first to 7
        assert by_name(state.match_points) == {"Ann": points, "Bob": 0}
        assert state_json(state)["rules"]["match_scoring"] == scoring


def test_an_acc_match_to_7():
    game = GameInput(("Ann", "Bob"), target=121, match=7, match_scoring="acc")
    state = run([GameInput(("Ann", "Bob"), dealer="Ann", target=121, match=7, match_scoring="acc"),
                 PegInput("Bob", 100), PegInput("Ann", 121)])  # game 1: Ann wins, 2
    assert by_name(state.match_points) == {"Ann": 2, "Bob": 0}
    other = apply(state, GameInput(("Ann", "Bob"), target=121, match=7))  # other scoring: a new match
    assert other.game_number == 1 and by_name(other.match_points) == {"Ann": 0, "Bob": 0}
    state = run([*state.inputs, game, PegInput("Ann", 80), PegInput("Bob", 121),  # game 2: Bob skunks Ann, 3
                 game, PegInput("Ann", 121)])  # game 3 (Ann lost, Ann deals): Ann double-skunks Bob, 3 (not 4)
    assert by_name(state.match_points) == {"Ann": 5, "Bob": 3} and state.phase == "game over"
    state = run([*state.inputs, game, PegInput("Ann", 121)])  # game 4 (Bob deals): Ann again, 3 more: 8
    assert state.phase == "match over" and name(state.match_winner) == "Ann"
    assert prompt_words(state.awaited()) == "Ann wins the match 8 to 3"


def test_match_scoring_is_parsed_checked_and_written_back():
    line = '{"type":"game","players":["Ann","Bob"],"dealer":"Ann","match":true,"match_scoring":"acc"}'
    inp = parse_input(line)
    assert inp == GameInput(("Ann", "Bob"), dealer="Ann", match=True, match_scoring="acc")
    assert input_to_line(inp) == line
    assert input_to_json(GameInput(("Ann", "Bob"), match=5)) == {"type": "game", "players": ["Ann", "Bob"],
                                                                 "match": 5}
    for bad, words in (('"match_scoring":"pro"', '"standard", "acc"'), ('"match_scoring":2', '"standard", "acc"'),
                       ('"match_scoring":[]', '"standard", "acc"'), ('"variant":{}', "two"),
                       ('"match":"7"', "a whole number, or true"), ('"match":false', "a whole number, or true")):
        with refused(InputError, words):
            parse_input('{"type":"game","players":["Ann","Bob"],' + bad + "}")
    with refused(InputError, "1 or more match points"):
        run([GameInput(("Ann", "Bob"), match=0)])


def test_null_stands_for_a_field_left_out_only_where_the_field_may_be_left_out():
    assert parse_input('{"type":"play","card":"5H","player":null}') == parse_input('{"type":"play","card":"5H"}')
    assert parse_input('{"type":"game","players":["Ann","Bob"],"dealer":null,"target":null}') == GameInput(
        ("Ann", "Bob"))
    for line in ('{"type":"cut","player":null,"card":"4H"}', '{"type":"peg","player":null,"points":2}',
                 '{"type":"hand","player":null,"cards":["5H","5D","JS","4C","9D","KH"]}'):
        with refused(InputError, "'player' must be a player's name"):
            parse_input(line)


def test_muggins_claims_and_what_muggins_took_are_in_the_json():
    state = run([GameInput(("Ann", "Bob"), dealer="Ann", target=121, muggins=True),
                 StarterInput(parse_cards("5S")[0]), *play(TWO_PLAY),
                 ClaimInput(28),  # Bob's 29 claimed as 28: 28 pegged
                 MugginsInput(),  # Ann takes the missed point
                 ClaimInput(24),  # Ann's hand, claimed right: nothing to take
                 CribInput(parse_cards("AH 3D 8C 8H")),
                 ClaimInput(4)])  # the crib is 2, claimed 4: only the true 2 is pegged, no muggins
    shown = state_json(state)
    show = [e for e in shown["events"] if e["kind"] in ("hand", "crib", "muggins")]
    assert [(e["kind"], e["player"], e["claimed"], e["points"], e["side"]) for e in show] == [
        ("hand", "Bob", 28, 28, 1), ("muggins", "Ann", None, 1, 0), ("hand", "Ann", 24, 24, 0),
        ("crib", "Ann", 4, 2, 0)]
    assert state.events[4].claimed == 28 and state.events[4].score.total == 29
    plain = state_json(run([GameInput(("Ann", "Bob"), dealer="Ann"), *two_player_deal()]))["events"]
    assert all(e["claimed"] is None and e["kind"] != "muggins" for e in plain)  # without muggins nothing is claimed


def test_each_deal_keeps_its_hands_and_discards():
    bob, ann = parse_cards("5C 5D 5H JS AH 3D"), parse_cards("4C 4D 6C 6H 8C 8H")
    state = run([GameInput(("Ann", "Bob"), dealer="Ann"),
                 HandInput("Bob", bob), DiscardInput("Bob", parse_cards("AH 3D")),
                 HandInput("Ann", ann), DiscardInput("Ann", parse_cards("8C 8H")), *two_player_deal(crib=False),
                 StarterInput(parse_cards("5S")[0])])  # deal 2 is under way: deal 1's hands are gone from the state
    assert state.hands == {} and state.deal_number == 2
    first, second = state.deals
    assert first.hands == {"Bob": bob, "Ann": ann}
    assert first.discards == {"Bob": parse_cards("AH 3D"), "Ann": parse_cards("8C 8H")}
    assert second.hands == {} and second.discards == {}
    deal = state_json(state)["deals"][0]
    codes = {p: [c["code"] for c in cards] for p, cards in deal["hands"].items()}
    assert codes == {"Bob": ["5C", "5D", "5H", "JS", "AH", "3D"], "Ann": ["4C", "4D", "6C", "6H", "8C", "8H"]}
    assert {p: [c["code"] for c in cards] for p, cards in deal["discards"].items()} == {"Bob": ["AH", "3D"],
                                                                                        "Ann": ["8C", "8H"]}


def test_a_discard_worked_out_after_the_play_is_checked_against_the_hand_and_the_crib():
    bob, ann = parse_cards("5C 5D 5H JS AH 3D"), parse_cards("4C 4D 6C 6H 8C 8H")
    state = run([GameInput(("Ann", "Bob"), dealer="Ann"), HandInput("Bob", bob), HandInput("Ann", ann),
                 StarterInput(parse_cards("5S")[0]), *play(TWO_PLAY)])
    assert state.phase == "crib"  # the discards were not in when the play ended: the crib is scanned
    with refused(RuleError, "J♠ was played by Bob: check the card"):
        apply(state, DiscardInput("Bob", parse_cards("JS AH")))
    with refused(RuleError, "9C is not in Ann's hand"):
        apply(state, DiscardInput("Ann", parse_cards("8C 9C")))
    state = run([*state.inputs, DiscardInput("Bob", parse_cards("AH 3D")), DiscardInput("Ann", parse_cards("8C 8H"))])
    assert state.phase == "crib" and state.deals[0].discards["Ann"] == parse_cards("8C 8H")
    with refused(RuleError, "Ann laid away 8H: the crib must hold it"):
        apply(state, CribInput(parse_cards("AH 3D 8C 8D")))
    state = apply(state, CribInput(parse_cards("AH 3D 8C 8H")))
    assert events(state)[-1] == (1, "Ann's crib", "Ann", 2)  # a pair of eights


def test_no_discard_once_the_crib_is_in():
    state = run([GameInput(("Ann", "Bob"), dealer="Ann", muggins=True), StarterInput(parse_cards("5S")[0]),
                 *play(TWO_PLAY), ClaimInput(29), ClaimInput(24), CribInput(parse_cards("AH 3D 8C 8H"))])
    assert state.phase == "claim" and prompt_words(state.awaited()) == "Ann: claim the points of Ann's crib"
    with refused(RuleError, "discards are entered before the crib is in"):
        apply(state, DiscardInput("Bob", parse_cards("AH 3D")))
