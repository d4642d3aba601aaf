"""``rummykit demo``: one seeded hand played by computer players and shown turn by turn: Gin
(random players), Basic Rummy (greedy players) and round 1 of Crazy Rummy (medium players)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Annotated, Any

import typer
from rich.console import Console

from rummykit.actions import (
    Action,
    BigGin,
    Buy,
    Discard,
    Done,
    Down,
    Draw,
    Knock,
    LayOff,
    NewMeld,
    Pass,
    Swap,
    Take,
)
from rummykit.cards import AnyCard
from rummykit.cli.cards import _card, _cards, _names, _sorted
from rummykit.cli.common import GAME_NAMES, _fail, _find_game, _out
from rummykit.cli.results import (
    CRAZY_STOCK_OUT,
    _print_crazy_hands,
    _print_gin_result,
    _print_rummy_hands,
    _print_rummy_result,
    _print_rummy_table,
)
from rummykit.games import Game, Gin
from rummykit.games.base import Phase
from rummykit.games.crazy import CrazyState
from rummykit.games.gin import GinState
from rummykit.games.rummy import RummyState
from rummykit.games.seeding import derive_seed
from rummykit.players import RandomPlayer, find_player
from rummykit.players.greedy import GreedyRummy
from rummykit.sim import check_players

DEMO_SEED = 204
"""The Gin hand ``rummykit demo`` plays unless told otherwise."""

RUMMY_DEMO_SEEDS: dict[int, int] = {2: 311, 3: 349, 4: 86, 5: 91, 6: 425}
"""Per table size, the Basic Rummy hand ``rummykit demo --game rummy`` plays unless told otherwise.

Each one ends, under both presets, with a player going out within a few turns, after at least one
meld and one lay-off."""

DEMO_NAMES = ("Ann", "Bob", "Cid", "Dee", "Eve", "Fay")
"""The players of a demo, seat 0 first."""

MAX_DEMO_ACTIONS = 5_000
"""A demo hand stops (as a safety net) after this many actions."""


# ------------------------------------------------------------------------------ demo: Gin


def _describe_gin(action: Action, seat: int, state: GinState) -> str:
    """The Gin action just applied by ``seat``, in words."""
    if isinstance(action, Pass):
        return "passes on the up-card"
    if isinstance(action, Take):
        taken = state.hands[seat][-1]  # a taken card joins the end of the hand
        return f"takes {_card(taken)} from the discard pile"
    if isinstance(action, Draw):
        return "draws from the stock"
    if isinstance(action, Discard):
        return f"discards {_card(action.card)}"
    if isinstance(action, Knock):
        return f"knocks, discarding {_card(action.card)} face down"
    if isinstance(action, BigGin):
        return "goes big gin"
    if isinstance(action, LayOff):
        return f"lays off {_card(action.card)} on meld {action.meld}"
    if isinstance(action, Done):
        return "is done laying off"
    return str(action)  # pragma: no cover


def _demo_bots(seed: int) -> list[RandomPlayer]:
    return [RandomPlayer(derive_seed(seed, 1)), RandomPlayer(derive_seed(seed, 2))]


def _gin_demo(seed: int) -> None:
    out = _out()
    players = list(DEMO_NAMES[:2])
    bots = _demo_bots(seed)
    state = Gin().new_hand(seed=seed, dealer=0)
    out.print(f"[bold]Gin Rummy[/], seed {seed}: Ann v Bob, both playing at random. Ann deals.")
    for seat in (0, 1):
        out.print(f"  {players[seat]}: {_cards(sorted(state.hands[seat]))}")
    out.print(f"  up-card {_card(state.discard_pile[-1])}, {len(state.stock)} cards in the stock\n")
    turn = 0
    phrases: list[str] = []
    while not state.is_over:
        actor = state.to_act
        assert actor is not None
        action = bots[actor].choose(state.view(actor))
        state.apply(action, actor)
        phrases.append(_describe_gin(action, actor, state))
        if state.to_act != actor:  # the turn passed (or the hand ended): one line a turn
            turn += 1
            line = f"{turn:3}. {players[actor]} " + ", ".join(phrases)
            if isinstance(action, Discard):
                line += f"   [dim]stock {len(state.stock)}[/]"
            out.print(line)
            phrases = []
    assert state.result is not None
    out.print()
    _print_gin_result(out, state.result, players)


# ---------------------------------------------------------------------------- demo: Rummy


def _describe_rummy(action: Action, seat: int, state: RummyState) -> str:
    """The Basic Rummy action just applied by ``seat``, in words."""
    if isinstance(action, Draw):
        return "draws from the stock"
    if isinstance(action, Take):
        assert state.taken is not None
        return f"takes {_card(state.taken)} from the discard pile"
    if isinstance(action, NewMeld):
        return f"melds {_cards(action.cards)}"
    if isinstance(action, LayOff):
        meld = state.table[action.meld - 1].meld
        return f"lays off {_card(action.card)} on meld {action.meld} (now {_cards(meld.cards)})"
    if isinstance(action, Discard):
        if not state.hands[seat]:
            return f"discards {_card(action.card)} face down"
        return f"discards {_card(action.card)}"
    return str(action)  # pragma: no cover


def _print_deal(
    out: Console, names: Sequence[str], hands: Sequence[Sequence[AnyCard]], state: Any
) -> None:
    """A demo's deal: each player's cards (as sorted by the caller), the up-card, the stock."""
    for name, cards in zip(names, hands, strict=True):
        out.print(f"  {name}: {_cards(cards)}")
    out.print(f"  up-card {_card(state.discard_pile[-1])}, {len(state.stock)} cards in the stock\n")


def _rummy_demo(variant: str, game: Game, players: int, seed: int) -> None:
    out = _out()
    names = list(DEMO_NAMES[:players])
    state = game.new_hand(players=players, seed=seed, dealer=0)
    assert isinstance(state, RummyState)
    bot = GreedyRummy()
    everyone = "both" if players == 2 else "all"
    out.print(
        f"[bold]Basic Rummy[/] ({variant}), seed {seed}: {_names(names, range(players))}, "
        f"{everyone} playing greedily (meld and lay off whenever possible, throw the highest "
        f"card). {names[0]} deals."
    )
    _print_deal(out, names, [_sorted(h) for h in state.hands], state)
    turn = 0
    phrases: list[str] = []
    for _ in range(MAX_DEMO_ACTIONS):
        actor = state.to_act
        if actor is None:
            break
        restocks = state.restocks
        action = bot.choose(state.view(actor))
        state.apply(action, actor)
        phrases.append(_describe_rummy(action, actor, state))
        if state.to_act != actor:  # the turn passed (or the hand ended): one line a turn
            turn += 1
            if not state.hands[actor]:
                phrases.append("[bold]and is out![/]")
            restocked = state.restocks > restocks  # the stock ran out after this discard
            line = f"{turn:3}. {names[actor]} " + ", ".join(phrases)
            if isinstance(action, Discard) and state.hands[actor]:
                line += f"   [dim]stock {0 if restocked else len(state.stock)}[/]"
            out.print(line)
            phrases = []
            if restocked:
                how = "shuffled" if state.options.restock.value == "shuffle" else "turned over"
                out.print(
                    f"     [dim]the discard pile is {how} to make a new stock "
                    f"of {len(state.stock)} cards[/]"
                )
    out.print()
    if state.result is None:  # pragma: no cover - a safety net, greedy hands end
        out.print(f"The demo stops after {MAX_DEMO_ACTIONS} actions.")
        return
    _print_rummy_table(out, state, names)
    out.print("Cards left in hand:")
    _print_rummy_hands(out, state, names)
    _print_rummy_result(out, state.result, names)


# ---------------------------------------------------------------------- demo: Crazy Rummy


def _describe_crazy(
    action: Action, state: CrazyState, offered: AnyCard | None, phase: Phase
) -> str:
    """The Crazy Rummy action just applied, in words (``offered``: the discard on offer then)."""
    card = _card(offered) if offered is not None else "the discard"
    if isinstance(action, Draw):
        return "draws from the stock"
    if isinstance(action, Take):
        return f"takes {card}"
    if isinstance(action, Pass):
        return f"does not buy {card}" if phase is Phase.BUY else f"passes on {card}"
    if isinstance(action, Buy):
        penalty = state.options.penalty_cards
        return f"buys {card} (and takes {penalty} penalty card{'s' if penalty != 1 else ''})"
    if isinstance(action, Down):
        return "lays down the contract: " + " | ".join(_cards(m) for m in action.melds)
    if isinstance(action, LayOff):
        meld = state.table[action.meld - 1].meld
        return f"lays off {_card(action.card)} on meld {action.meld} (now {_cards(meld.cards)})"
    if isinstance(action, Swap):
        return f"swaps {_card(action.card)} into meld {action.meld} and takes its wild"
    if isinstance(action, Discard):
        return f"discards {_card(action.card)}"
    return str(action)  # pragma: no cover


def _crazy_demo(game: Game, players: int, seed: int) -> None:
    """Round 1 of Crazy Rummy between ``medium`` players, one line per action (buys included,
    declined buys left out)."""
    out = _out()
    names = list(DEMO_NAMES[:players])
    state = game.new_hand(players=players, seed=seed, dealer=0)
    assert isinstance(state, CrazyState)
    bots = [find_player("crazy", "medium", seed=seed + seat) for seat in range(players)]
    out.print(
        f"[bold]Crazy Rummy[/], round {state.round} (contract: {state.contract}), seed {seed}: "
        f"{_names(names, range(players))}, the medium computer player at every seat. "
        f"{names[0]} deals; points left in hand are bad."
    )
    _print_deal(out, names, [sorted(h, key=lambda c: c.sort_key) for h in state.hands], state)
    number = 0
    for _ in range(MAX_DEMO_ACTIONS):
        actor = state.to_act
        if actor is None:
            break
        offered = state.discard_pile[-1] if state.discard_pile else None
        phase = state.phase
        action = bots[actor].choose(state.view(actor))
        state.apply(action, actor)
        if isinstance(action, Pass) and phase is Phase.BUY:
            continue  # declined buys would fill the screen
        number += 1
        out.print(f"{number:3}. {names[actor]} {_describe_crazy(action, state, offered, phase)}")
    out.print()
    if state.result is None:  # pragma: no cover - a safety net, rounds end
        out.print(f"The demo stops after {MAX_DEMO_ACTIONS} actions.")
        return
    _print_rummy_table(out, state, names)
    _print_crazy_hands(out, state, names)
    winner = state.result.winner
    if winner is None:
        out.print(CRAZY_STOCK_OUT)
    else:
        out.print(f"[bold]{names[winner]}[/] goes out and scores 0; the others score their cards.")


def demo(
    game: Annotated[str, typer.Option("--game", "-g", help=f"The game: {GAME_NAMES}.")] = "gin",
    players: Annotated[
        int | None,
        typer.Option(
            "--seats",
            "--players",
            "-p",
            help=(
                "Table size (gin: 2; rummy: 2-6, default 2; crazy: 2-6, default 4); --players"
                " is the old name."
            ),
        ),
    ] = None,
    seed: Annotated[
        int | None,
        typer.Option("--seed", "-s", help="Seed of the hand (default: a hand worth watching)."),
    ] = None,
) -> None:
    """Play one seeded demo hand and show it turn by turn.

    Gin: random v random. Basic Rummy: greedy players that meld and lay off whenever they can.
    Crazy Rummy: round 1 between medium computer players (4 of them unless --players says).
    """
    played = _find_game(game)
    usual = 4 if played.name == "crazy" else played.min_players  # Crazy Rummy: 4 is usual
    size = players if players is not None else usual
    try:
        check_players(played, size)
    except ValueError as exc:
        raise _fail(str(exc), 2) from None
    if played.name == "gin":
        _gin_demo(DEMO_SEED if seed is None else seed)
    elif played.name == "rummy":
        default = RUMMY_DEMO_SEEDS.get(size, 0)
        _rummy_demo(game.strip().lower(), played, size, default if seed is None else seed)
    elif played.name == "crazy":
        _crazy_demo(played, size, 1 if seed is None else seed)
    else:  # pragma: no cover - every game of GAMES has a demo
        raise _fail(f"no demo for {played.name} yet", 2)
