"""The game contract itself: loading, options, metadata, errors, the generic State methods."""

from __future__ import annotations

import json

import pytest

import tlatelolco
from tlatelolco import CHANCE, TERMINAL, IllegalActionError
from tlatelolco.registry import game_class


def test_constants_follow_openspiel() -> None:
    assert (CHANCE, TERMINAL) == (-1, -4)
    assert issubclass(IllegalActionError, ValueError)


def test_list_games_names_the_registered_games() -> None:
    assert "grand_bazaar" in tlatelolco.list_games()
    assert tlatelolco.list_games() == sorted(tlatelolco.list_games())


def test_unknown_game_names_the_allowed_ones() -> None:
    with pytest.raises(ValueError, match=r"unknown game 'chess'; allowed: .*grand_bazaar"):
        tlatelolco.load("chess")


def test_unknown_option_names_the_allowed_ones() -> None:
    with pytest.raises(ValueError, match=r"unknown option 'players'; allowed options: "
                                         r"num_players"):
        tlatelolco.load("grand_bazaar", players=3)


@pytest.mark.parametrize("value", [9, 1, "many", 2.5, True])
def test_bad_option_value_names_the_option_and_allowed_values(value: object) -> None:
    with pytest.raises(ValueError, match=r"num_players=.*allowed: an integer from 2 to 7"):
        tlatelolco.load("grand_bazaar", num_players=value)


def test_options_arrive_as_text_from_the_command_line() -> None:
    assert tlatelolco.load("grand_bazaar", num_players="5").num_players() == 5


def test_effective_options_have_defaults_filled_in_and_are_read_only() -> None:
    game = tlatelolco.load("grand_bazaar")
    assert dict(game.options) == {"num_players": 3}
    with pytest.raises(TypeError):
        game.options["num_players"] = 4  # type: ignore[index]


@pytest.mark.parametrize("name", tlatelolco.list_games())
def test_every_game_has_static_metadata(name: str) -> None:
    info = game_class(name).info
    assert info.name == name
    assert 1 <= info.min_players <= info.max_players
    assert info.chance in ("explicit", "none")
    assert info.information in ("perfect", "imperfect")
    assert info.min_utility <= info.max_utility
    assert info.num_distinct_actions > 0 and info.max_game_length > 0
    assert info.version
    json.dumps(info.as_dict())
    for n in range(info.min_players, info.max_players + 1):
        game = tlatelolco.load(name, num_players=n)
        assert game.num_distinct_actions() == info.num_distinct_actions
        assert game.max_game_length() <= info.max_game_length


def test_game_equality_and_repr() -> None:
    a = tlatelolco.load("grand_bazaar", num_players=4)
    assert a == tlatelolco.load("grand_bazaar", num_players="4")
    assert a != tlatelolco.load("grand_bazaar")
    assert repr(a) == "grand_bazaar(num_players=4)"


def test_illegal_action_message_names_the_action_why_and_what_is_legal() -> None:
    state = tlatelolco.load("grand_bazaar").new_initial_state()
    state.apply_action(13)
    with pytest.raises(IllegalActionError) as err:
        state.apply_action(33)
    message = str(err.value)
    assert "action 33 (end turn) is not legal" in message
    assert "must buy at least one gem" in message
    assert "Legal now: buy sapphire, buy ruby, buy emerald" in message
    assert err.value.action == 33


@pytest.mark.parametrize("action", [-1, 34, 10**9, "27", None, 27.0])
def test_actions_outside_the_space_are_rejected_with_the_state_unchanged(action: object
                                                                         ) -> None:
    state = tlatelolco.load("grand_bazaar").new_initial_state()
    state.apply_action(13)
    before = state.clone()
    with pytest.raises(IllegalActionError):
        state.apply_action(action)  # type: ignore[arg-type]
    assert state == before


def test_string_to_action_forgives_case_spacing_and_short_forms() -> None:
    state = tlatelolco.load("grand_bazaar").new_initial_state()
    state.apply_action(state.string_to_action("Reveal  +1 -1 0"))
    assert state.string_to_action("BUY Ruby") == 28
    assert state.string_to_action("b r") == 28
    assert state.string_to_action("buy e") == 29


def test_string_to_action_explains_an_illegal_or_unknown_move() -> None:
    state = tlatelolco.load("grand_bazaar").new_initial_state()
    state.apply_action(13)
    with pytest.raises(IllegalActionError, match="'end' is not legal now: you must buy"):
        state.string_to_action("end")
    with pytest.raises(IllegalActionError, match=r"'fly away' is not a move of Grand Bazaar\. "
                                                 r"Legal now: buy sapphire"):
        state.string_to_action("fly away")


def test_replay_names_the_bad_step() -> None:
    game = tlatelolco.load("grand_bazaar")
    with pytest.raises(IllegalActionError, match=r"history\[1\]: action 33 \(end turn\)"):
        game.replay([13, 33])
    with pytest.raises(IllegalActionError, match=r"history\[0\] is '13'"):
        game.replay(["13"])  # type: ignore[list-item]


def test_returns_and_scores_at_terminal() -> None:
    record = tlatelolco.play_match("grand_bazaar", ["random"] * 3, seed=4)
    state = tlatelolco.load("grand_bazaar").replay(record["history"])
    assert state.is_terminal() and state.current_player() == TERMINAL
    assert sum(state.returns()) == pytest.approx(1.0)
    best = max(state.scores())
    assert all((r > 0) == (s == best) for r, s in zip(state.returns(), state.scores(),
                                                        strict=True))


@pytest.mark.parametrize("seat", [-1, 3, "0", None])
def test_views_of_a_seat_that_does_not_exist_are_refused(seat: object) -> None:
    state = tlatelolco.load("grand_bazaar").new_initial_state()
    for view in (state.observation, state.information_state_string):
        with pytest.raises(ValueError, match=r"seat .* does not exist; .* has seats 0 to 2"):
            view(seat)  # type: ignore[arg-type]


@pytest.mark.parametrize("name", tlatelolco.list_games())
def test_a_configured_game_pickles_to_an_equal_game(name: str) -> None:
    """Vector environments and process pools send games to workers by pickling them."""
    import pickle

    game = tlatelolco.load(name, num_players=2)
    again = pickle.loads(pickle.dumps(game))
    assert again == game and type(again) is type(game)
    assert dict(again.options) == dict(game.options)
