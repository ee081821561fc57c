"""The games inside OpenSpiel: registered and loaded by name, passing OpenSpiel's own checks
(random simulation, MCTS, bot evaluation, the RL environment), and step for step the same games
as the contract's: every random game played in OpenSpiel is replayed beside a contract state
and the two must agree on every player, legal action, chance probability, view and return."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from collections.abc import Iterator
from functools import cache
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

pyspiel = pytest.importorskip("pyspiel")
np = pytest.importorskip("numpy")

import tlatelolco  # noqa: E402
from tlatelolco.chance import sample_chance  # noqa: E402
from tlatelolco.contract import Game, State  # noqa: E402
from tlatelolco.rl import openspiel  # noqa: E402
from tlatelolco.rl.openspiel import ChanceCodes, chance_codes, short_name  # noqa: E402

CONFIGS = [(name, n) for name in tlatelolco.list_games()
           for n in range(tlatelolco.load(name).info.min_players,
                          tlatelolco.load(name).info.max_players + 1)]
FEWEST = [(name, tlatelolco.load(name).info.min_players) for name in tlatelolco.list_games()]
EXTREMES = FEWEST + [(name, tlatelolco.load(name).info.max_players)
                     for name in tlatelolco.list_games()]
VIEWS_EVERY = 7  # compare every seat's views at every 7th step (and at the end)


def config_id(config: tuple[str, int]) -> str:
    return f"{config[0]}-{config[1]}p"


@cache
def spiel_game(name: str, players: int, **options: Any) -> Any:
    return pyspiel.load_game(short_name(name), {"players": players, **options})


def contract_of(game: Any) -> Game:
    """The contract game with the same options, loaded on its own (not the wrapper's)."""
    params = game.get_parameters()
    options = {("num_players" if k == "players" else k): v for k, v in params.items()}
    return tlatelolco.load(game.get_type().short_name.removeprefix(openspiel.PREFIX), **options)


def spiel_action(state: Any, action: int, codes: ChanceCodes) -> int:
    return codes.to_spiel(action) if state.is_chance_node() else action


def spiel_state(game: Any, history: list[int]) -> Any:
    """The OpenSpiel state reached by the contract actions `history`."""
    codes = chance_codes(contract_of(game))
    state = game.new_initial_state()
    for action in history:
        state.apply_action(spiel_action(state, action, codes))
    return state


def random_history(game: Game, seed: int) -> tuple[list[int], list[int]]:
    """A random contract game: its history and the positions of the seats' decisions in it."""
    rng = random.Random(seed)
    state, decisions = game.new_initial_state(), []
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(sample_chance(state, rng))
        else:
            decisions.append(len(state.history()))
            state.apply_action(rng.choice(state.legal_actions()))
    return state.history(), decisions


def contract_history(state: Any) -> list[int]:
    """The OpenSpiel state's history in contract ids (chance outcomes mapped back)."""
    codes = chance_codes(contract_of(state.get_game()))
    return [codes.to_contract(item.action) if item.player == pyspiel.PlayerId.CHANCE
            else item.action for item in state.full_history()]


def late_state(game: Any, seed: int, decisions_left: int) -> Any:
    """A state of a random game `decisions_left` seat decisions before its end."""
    history, decisions = random_history(contract_of(game), seed)
    cut = decisions[-decisions_left] if len(decisions) >= decisions_left else 0
    return spiel_state(game, history[:cut])


def assert_views_agree(state: Any, mirror: State) -> None:
    """Every seat's tensors and strings from OpenSpiel equal the contract's."""
    for seat in range(mirror.get_game().num_players()):
        assert np.array_equal(np.asarray(state.observation_tensor(seat), np.float32),
                              mirror.observation_tensor(seat))
        assert np.array_equal(np.asarray(state.information_state_tensor(seat), np.float32),
                              mirror.information_state_tensor(seat))
        assert state.information_state_string(seat) == mirror.information_state_string(seat)
        assert json.loads(state.observation_string(seat)) == mirror.observation(seat)


def play_beside(game: Any, seed: int) -> Iterator[tuple[Any, State]]:
    """Play a random game in OpenSpiel and the same actions in a contract state, checking at
    every step that both agree on the player, legal actions and chance probabilities; yields
    each pair of states (the final one too)."""
    contract = contract_of(game)
    codes = chance_codes(contract)
    rng = np.random.default_rng(seed)
    state, mirror = game.new_initial_state(), contract.new_initial_state()
    while not state.is_terminal():
        yield state, mirror
        assert state.current_player() == mirror.current_player()
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            expected = mirror.chance_outcomes()
            assert [(codes.to_contract(a), p) for a, p in outcomes] == expected
            assert state.legal_actions() == [a for a, _ in outcomes]
            actions, probs = zip(*outcomes, strict=True)
            action = int(rng.choice(actions, p=probs))
            mirror.apply_action(codes.to_contract(action))
        else:
            legal = state.legal_actions()
            assert legal == mirror.legal_actions()
            for seat in range(game.num_players()):
                assert state.legal_actions(seat) == (legal if seat == mirror.current_player()
                                                     else [])
            action = legal[int(rng.integers(len(legal)))]
            mirror.apply_action(action)
        state.apply_action(action)
    yield state, mirror
    assert mirror.is_terminal()
    assert state.current_player() == pyspiel.PlayerId.TERMINAL


# --- registration and loading ---------------------------------------------------------------


@pytest.mark.parametrize("name", tlatelolco.list_games())
def test_loaded_by_name_with_the_contract_defaults(name: str) -> None:
    game = pyspiel.load_game(short_name(name))
    contract = tlatelolco.load(name)
    kind = game.get_type()
    assert kind.short_name == f"python_tlatelolco_{name}"
    assert game.num_players() == contract.num_players()
    assert (kind.min_num_players, kind.max_num_players) == (contract.info.min_players,
                                                            contract.info.max_players)
    assert kind.dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
    assert kind.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert kind.utility == pyspiel.GameType.Utility.CONSTANT_SUM
    assert kind.reward_model == pyspiel.GameType.RewardModel.TERMINAL
    perfect = pyspiel.GameType.Information.PERFECT_INFORMATION
    assert (kind.information == perfect) == (contract.info.information == "perfect")
    assert kind.provides_observation_tensor and kind.provides_information_state_tensor
    assert kind.provides_observation_string and kind.provides_information_state_string
    assert game.get_parameters()["players"] == contract.info.options[0].default


@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
def test_game_info_matches_the_contract(config: tuple[str, int]) -> None:
    name, players = config
    game = pyspiel.load_game(f"{short_name(name)}(players={players})")
    contract = tlatelolco.load(name, num_players=players)
    assert game.num_players() == players
    assert game.num_distinct_actions() == contract.num_distinct_actions()
    assert game.max_chance_outcomes() == chance_codes(contract).count
    assert (game.min_utility(), game.max_utility()) == (0.0, 1.0)
    assert game.utility_sum() == len(contract.teams()[0])  # 2 for Aztec Market's teams of 4
    assert game.max_game_length() == contract.max_game_length()
    assert game.observation_tensor_size() == contract.observation_tensor_layout().size
    assert game.information_state_tensor_size() == (
        contract.information_state_tensor_layout().size)


def test_other_options_are_parameters_too() -> None:
    game = pyspiel.load_game("python_tlatelolco_aztec_market(players=2,setup=random,"
                             "removed=8,luck=False)")
    assert dict(contract_of(game).options) == {"num_players": 2, "setup": "random",
                                               "removed": 8, "luck": False}
    assert game.max_chance_outcomes() == 160 + 4 + 16  # tiles, goods and the hole by chance


@pytest.mark.parametrize(("text", "error", "words"), [
    ("python_tlatelolco_axio(players=9)", ValueError, "from 1 to 4"),
    ("python_tlatelolco_aztec_market(removed=5)", ValueError, "multiple of 4"),
    ("python_tlatelolco_grand_bazaar(colour=3)", pyspiel.SpielError, "Unknown parameter"),
])
def test_bad_parameters_are_refused_saying_why(text: str, error: type, words: str) -> None:
    with pytest.raises(error, match=words):
        pyspiel.load_game(text)


def test_registering_again_is_harmless() -> None:
    assert openspiel.register() == openspiel.GAMES == [
        short_name(name) for name in tlatelolco.list_games()]
    with pytest.raises(TypeError, match="load_game"):
        openspiel.TlatelolcoGame()


def test_a_second_import_and_the_exit_are_clean() -> None:
    """In a fresh interpreter: reloading registers nothing twice, and the process exits 0
    (OpenSpiel's registry outlives the interpreter; a factory it frees then would crash)."""
    code = ("import importlib, pyspiel\n"
            "import tlatelolco.rl.openspiel as m\n"
            "importlib.reload(m)\n"
            "pyspiel.load_game('python_tlatelolco_grand_bazaar').new_initial_state()\n"
            "print(sorted(n for n in pyspiel.registered_names() if 'tlatelolco' in n))\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == repr(openspiel.GAMES)


# --- chance outcomes ------------------------------------------------------------------------


@pytest.mark.parametrize("options", [{"name": n} for n in tlatelolco.list_games()]
                         + [{"name": "aztec_market", "setup": "random"}], ids=repr)
def test_chance_codes_number_every_chance_action_once(options: dict[str, str]) -> None:
    options = dict(options)
    codes = chance_codes(tlatelolco.load(options.pop("name"), **options))
    ids = [codes.to_contract(k) for k in range(codes.count)]
    assert ids == sorted(set(ids))
    assert [codes.to_spiel(a) for a in ids] == list(range(codes.count))
    with pytest.raises(ValueError, match="outside"):
        codes.to_contract(codes.count)
    with pytest.raises(ValueError, match="not one of"):
        codes.to_spiel(ids[-1] + 1)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 50), st.integers(1, 20)), min_size=1, max_size=4),
       st.data())
def test_chance_codes_round_trip(gaps: list[tuple[int, int]], data: st.DataObject) -> None:
    blocks, at = [], 0
    for gap, size in gaps:
        blocks.append(range(at + gap, at + gap + size))
        at += gap + size
    codes = ChanceCodes(tuple(blocks))
    outcome = data.draw(st.integers(0, codes.count - 1))
    assert codes.to_spiel(codes.to_contract(outcome)) == outcome
    action = data.draw(st.sampled_from([a for block in blocks for a in block]))
    assert codes.to_contract(codes.to_spiel(action)) == action


# --- whole games, step for step -------------------------------------------------------------


@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
def test_random_games_agree_with_the_contract(config: tuple[str, int]) -> None:
    game = spiel_game(*config)
    games = 1 if config[0] == "mexica" else 2
    for seed in range(games):
        for step, (state, mirror) in enumerate(play_beside(game, seed)):
            if step % VIEWS_EVERY == 0 or state.is_terminal():
                assert_views_agree(state, mirror)
        assert state.returns() == mirror.returns()
        assert sum(state.returns()) == pytest.approx(game.utility_sum())
        assert contract_history(state) == mirror.history()


def test_aztec_market_teams_share_their_result_in_openspiel() -> None:
    game = spiel_game("aztec_market", 4)
    *_, (state, _) = play_beside(game, seed=3)
    returns = state.returns()
    assert returns[0] == returns[2] and returns[1] == returns[3]
    assert sum(returns) == 2.0


def test_random_setup_chance_agrees_with_the_contract() -> None:
    game = spiel_game("aztec_market", 2, setup="random")
    *_, (state, mirror) = play_beside(game, seed=1)
    assert state.returns() == mirror.returns()


@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
def test_openspiel_random_simulation_check(config: tuple[str, int]) -> None:
    """OpenSpiel's own consistency check: clones, serialisation, legal action masks, returns
    within bounds and summing as declared, game length within the maximum."""
    # every seat's views are taken at every step: one game where games are long or seats many
    sims = 1 if config[0] == "mexica" or config[1] > 4 else 2
    pyspiel.random_sim_test(spiel_game(*config), num_sims=sims, serialize=True, verbose=False)


@pytest.mark.parametrize("config", EXTREMES, ids=config_id)
def test_serialised_states_come_back_equal(config: tuple[str, int]) -> None:
    game = spiel_game(*config)
    state = late_state(game, seed=5, decisions_left=5)
    again_game, again = pyspiel.deserialize_game_and_state(
        pyspiel.serialize_game_and_state(game, state))
    assert str(again_game) == str(game)
    assert again.history() == state.history()
    assert again.contract_state == state.contract_state
    assert str(again) == str(state)


def test_clones_are_independent() -> None:
    game = spiel_game("grand_bazaar", 3)
    state = late_state(game, seed=2, decisions_left=30)
    clone = state.clone()
    before = str(state)
    while not clone.is_terminal():
        clone.apply_action(clone.chance_outcomes()[0][0] if clone.is_chance_node()
                           else clone.legal_actions()[-1])
    assert str(state) == before
    assert clone.contract_state.is_terminal() and not state.contract_state.is_terminal()


def test_illegal_actions_are_refused_and_change_nothing() -> None:
    state = spiel_game("grand_bazaar", 2).new_initial_state()
    with pytest.raises(ValueError, match=r"outside 0\.\.26"):
        state.apply_action(30)  # a chance outcome OpenSpiel's numbering does not have
    state.apply_action(3)
    with pytest.raises(tlatelolco.IllegalActionError, match="not legal"):
        state.apply_action(0)  # a price card, at a seat's turn
    assert state.history() == [3]
    assert state.contract_state.history() == [3]


def test_action_strings_are_the_contracts() -> None:
    game = spiel_game("axio", 2)
    codes = chance_codes(contract_of(game))
    state = game.new_initial_state()
    outcome = state.chance_outcomes()[0][0]
    assert state.action_to_string(pyspiel.PlayerId.CHANCE, outcome) == (
        state.contract_state.action_to_string(codes.to_contract(outcome)))
    state = late_state(game, seed=0, decisions_left=3)
    seat, action = state.current_player(), state.legal_actions()[0]
    assert state.action_to_string(seat, action) == (
        state.contract_state.action_to_string(action))


# --- observers ------------------------------------------------------------------------------


@pytest.mark.parametrize("name", tlatelolco.list_games())
def test_observers_give_the_contracts_tensors_by_section(name: str) -> None:
    from open_spiel.python.observation import INFO_STATE_OBS_TYPE, make_observation
    game = spiel_game(name, tlatelolco.load(name).info.max_players)
    contract = contract_of(game)
    state = late_state(game, seed=4, decisions_left=10)
    for kind, layout, tensor in (
            (None, contract.observation_tensor_layout(), State.observation_tensor),
            (INFO_STATE_OBS_TYPE, contract.information_state_tensor_layout(),
             State.information_state_tensor)):
        observer = make_observation(game, kind)
        assert list(observer.dict) == [section for section, _ in layout.sections]
        for seat in range(game.num_players()):
            observer.set_from(state, seat)
            expected = tensor(state.contract_state, seat)
            assert np.array_equal(observer.tensor, expected)
            for section, shape in layout.sections:
                assert observer.dict[section].shape == shape
                assert np.array_equal(observer.dict[section], layout.views(expected)[section])


@pytest.mark.parametrize("private", ["NONE", "ALL_PLAYERS"])
@pytest.mark.parametrize("public", [True, False])
def test_other_observation_types_are_refused_clearly(public: bool, private: str) -> None:
    from open_spiel.python.observation import make_observation
    game = spiel_game("axio", 2)
    kind = pyspiel.IIGObservationType(public_info=public, perfect_recall=False,
                                      private_info=getattr(pyspiel.PrivateInfoType, private))
    with pytest.raises(ValueError, match="serve two observation types"):
        make_observation(game, kind)


def test_observer_parameters_are_refused() -> None:
    with pytest.raises(ValueError, match="take no parameters"):
        spiel_game("axio", 2).make_py_observer(None, {"colour": 1})


# --- OpenSpiel's bots and RL environment -----------------------------------------------------


@pytest.mark.parametrize("config", EXTREMES, ids=config_id)
def test_mcts_bots_finish_a_game_that_the_contract_scores_alike(
        config: tuple[str, int]) -> None:
    """OpenSpiel's MCTS at every seat plays out the last decisions of a random game; the
    contract, replaying the same actions, reaches the same end with the same returns."""
    from open_spiel.python.algorithms import evaluate_bots, mcts
    game = spiel_game(*config)
    rng = np.random.RandomState(7)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    bots = [mcts.MCTSBot(game, uct_c=2.0, max_simulations=6, evaluator=evaluator,
                         random_state=rng) for _ in range(game.num_players())]
    state = late_state(game, seed=7, decisions_left=8)
    returns = evaluate_bots.evaluate_bots(state, bots, rng)
    replayed = contract_of(game).replay(contract_history(state))
    assert replayed.is_terminal()
    assert returns == replayed.returns()


@pytest.mark.parametrize("name", tlatelolco.list_games())
def test_evaluate_bots_plays_a_whole_game(name: str) -> None:
    """From the first move to the end: MCTS (short rollouts) at seat 0, random bots at the
    others; the result is a proper constant-sum result."""
    from open_spiel.python.algorithms import evaluate_bots, mcts
    game = spiel_game(name, tlatelolco.load(name).info.min_players)
    rng = np.random.RandomState(11)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng, max_length=12)
    bots = [mcts.MCTSBot(game, uct_c=2.0, max_simulations=2, evaluator=evaluator,
                         random_state=rng)]
    bots += [pyspiel.make_uniform_random_bot(seat, 11) for seat in range(1, game.num_players())]
    state = game.new_initial_state()
    returns = evaluate_bots.evaluate_bots(state, bots, rng)
    assert state.is_terminal()
    assert returns == state.contract_state.returns()
    assert sum(returns) == pytest.approx(game.utility_sum())


@pytest.mark.parametrize("seed", range(3))
def test_resampled_worlds_keep_what_the_seat_knows(seed: int) -> None:
    game = spiel_game("axio", 3)
    state = late_state(game, seed=seed, decisions_left=12 + seed)
    seat = state.current_player()
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    worlds = [state.resample_from_infostate(seat, sampler) for _ in range(4)]
    for world in worlds:
        assert world.information_state_string(seat) == state.information_state_string(seat)
        assert world.information_state_tensor(seat) == state.information_state_tensor(seat)
        assert world.observation_string(seat) == state.observation_string(seat)
        assert contract_history(world) == world.contract_state.history()
    assert len({str(world) for world in worlds}) > 1  # the other seats' hands do vary


def test_ismcts_plays_axio_from_what_each_seat_knows() -> None:
    """OpenSpiel's Python ISMCTS samples worlds with `resample_from_infostate`."""
    from open_spiel.python.algorithms import ismcts, mcts
    game = spiel_game("axio", 2)
    rng = np.random.RandomState(5)
    bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, rng), 2.0, max_simulations=8,
                           random_state=rng)
    state = late_state(game, seed=5, decisions_left=6)
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(actions, p=probs)))
        else:
            state.apply_action(bot.step(state))
    assert state.returns() == contract_of(game).replay(contract_history(state)).returns()


@pytest.mark.parametrize(("config", "observation"),
                         [(c, "INFORMATION_STATE") for c in EXTREMES]
                         + [(c, "OBSERVATION") for c in FEWEST],
                         ids=lambda v: config_id(v) if isinstance(v, tuple) else v)
def test_rl_environment_episode(config: tuple[str, int], observation: str) -> None:
    """`rl_environment.Environment` steps a whole episode: its `info_state` are the contract's
    tensors (information state by default), its legal actions the contract's, chance drawn by
    its seeded sampler, and the last step's rewards the contract's returns."""
    from open_spiel.python import rl_environment as rl
    game = spiel_game(*config)
    kind = getattr(rl.ObservationType, observation)
    env = rl.Environment(game, chance_event_sampler=rl.ChanceEventSampler(seed=3),
                         observation_type=kind)
    contract = contract_of(game)
    layout = (contract.observation_tensor_layout() if observation == "OBSERVATION"
              else contract.information_state_tensor_layout())
    assert env.observation_spec()["info_state"] == (layout.size,)
    assert env.action_spec()["num_actions"] == contract.num_distinct_actions()
    rng = np.random.default_rng(3)
    step, mirror, steps = env.reset(), contract.new_initial_state(), 0
    while True:
        for action in contract_history(env.get_state)[len(mirror.history()):]:
            mirror.apply_action(action)  # the seat's action and the chance the env drew
        if steps % VIEWS_EVERY == 0 or step.last():
            for seat in range(game.num_players()):
                expected = (mirror.observation_tensor(seat) if observation == "OBSERVATION"
                            else mirror.information_state_tensor(seat))
                assert np.array_equal(np.asarray(step.observations["info_state"][seat],
                                                 np.float32), expected)
        if step.last():
            break
        seat = step.observations["current_player"]
        assert seat == mirror.current_player()
        legal = step.observations["legal_actions"]
        assert legal[seat] == mirror.legal_actions()
        assert all(legal[other] == [] for other in range(game.num_players()) if other != seat)
        step = env.step([legal[seat][int(rng.integers(len(legal[seat])))]])
        steps += 1
    assert mirror.is_terminal()
    assert step.rewards == mirror.returns()
    assert steps <= game.max_game_length()
