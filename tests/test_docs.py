"""The documentation is tested: its Python examples run, and the rules pages cite every rule.

Every ```python block of docs/*.md, docs/tensors/*.md and README.md runs, each file's blocks in
order in one fresh namespace (so later blocks use names from earlier ones). A block whose first
line is `# docs: skip` is not run (for code that needs something not yet built).
"""

from __future__ import annotations

import re
import textwrap
import traceback
from dataclasses import dataclass
from pathlib import Path

import pytest
from tests.rules_pages import flat

import tlatelolco
from tlatelolco.contract import normalise

ROOT = Path(__file__).resolve().parents[1]
RULES_PAGE = ROOT / "src" / "tlatelolco" / "docs" / "grand_bazaar.md"
SKIP_MARK = "# docs: skip"

# An opening fence with the info string `python` (nothing else), possibly indented (inside a list
# item), and the closing fence at the same indentation.
FENCE = re.compile(
    r"^(?P<indent>[ \t]*)```python[ \t]*\n(?P<body>.*?)^(?P=indent)```[ \t]*$",
    re.MULTILINE | re.DOTALL,
)


@dataclass(frozen=True)
class Block:
    number: int  # 1-based, counting every python block of the file, skipped ones included
    line: int  # line of the opening fence
    code: str

    @property
    def skipped(self) -> bool:
        lines = self.code.strip().splitlines()
        return bool(lines) and lines[0].strip().lower().startswith(SKIP_MARK)


def python_blocks(text: str) -> list[Block]:
    blocks = []
    for number, match in enumerate(FENCE.finditer(text), start=1):
        line = text.count("\n", 0, match.start()) + 1
        blocks.append(Block(number, line, textwrap.dedent(match.group("body"))))
    return blocks


def doc_files() -> list[Path]:
    files = sorted((ROOT / "docs").glob("*.md")) + sorted((ROOT / "docs" / "tensors").glob("*.md"))
    readme = ROOT / "README.md"
    if readme.is_file():
        files.append(readme)
    return files


def test_block_extraction() -> None:
    text = (
        "intro\n```python\na = 1\n```\n\n```text\nnot code\n```\n"
        "- item\n\n  ```python\n  b = a + 1\n  ```\n"
        "```python\n# docs: skip (not built yet)\nraise SystemExit\n```\n"
    )
    blocks = python_blocks(text)
    assert [b.code for b in blocks] == ["a = 1\n", "b = a + 1\n",
                                        "# docs: skip (not built yet)\nraise SystemExit\n"]
    assert [b.line for b in blocks] == [2, 11, 14]
    assert [b.skipped for b in blocks] == [False, False, True]


def test_contract_guide_has_examples() -> None:
    blocks = python_blocks((ROOT / "docs" / "contract.md").read_text(encoding="utf-8"))
    assert len([b for b in blocks if not b.skipped]) >= 10


@pytest.mark.parametrize("path", doc_files(), ids=lambda p: str(p.relative_to(ROOT)))
def test_python_examples_run(path: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                             capsys: pytest.CaptureFixture[str]) -> None:
    name = path.relative_to(ROOT)
    blocks = python_blocks(path.read_text(encoding="utf-8"))
    monkeypatch.chdir(tmp_path)  # examples that write files write them here
    namespace: dict[str, object] = {"__name__": f"docs_{path.stem}"}
    for block in blocks:
        if block.skipped:
            continue
        where = f"{name}, python block {block.number} (line {block.line})"
        try:
            exec(compile(block.code, where, "exec"), namespace)
        except BaseException as err:  # SystemExit and KeyboardInterrupt in an example too
            if isinstance(err, KeyboardInterrupt):
                raise
            shown = "".join(traceback.format_exception(err))
            pytest.fail(f"{where} failed:\n{shown}", pytrace=False)
    capsys.readouterr()  # the examples' prints are for readers, not for the test log


# --- the Grand Bazaar rules page ------------------------------------------------------------

def rules_page() -> str:
    return RULES_PAGE.read_text(encoding="utf-8")


@pytest.mark.parametrize("rule", [f"GB-{i}" for i in range(1, 8)])
def test_rules_page_cites_every_rule(rule: str) -> None:
    assert re.search(rf"\b{rule}\b", rules_page()), f"{RULES_PAGE.name} never cites {rule}"


def test_rules_page_calls_out_every_ruling() -> None:
    # The digest has four rulings: the price deck, money, the stuck player, no selling out of
    # the buy.
    text = rules_page()
    boxes = [line for line in text.splitlines() if line.startswith("> **Ruling")]
    assert len(boxes) >= 4, "each ruling is called out in its own blockquote"
    for topic in ("price deck", "money", "stuck", "no selling out of the buy"):
        assert sum(topic in box for box in boxes) == 1, f"no Ruling box of its own: {topic}"
    selling = flat(text.split("**Ruling (GB-4, no selling out of the buy):**")[1])
    for phrase in ("ningún jugador puede negarse a comprar gemas en su turno",
                   "before your turn's first buy, a sale is legal only if a buy is still "
                   "reachable after it", "selling emerald would leave you no way to make the "
                   "mandatory buy; buy first", "stuck before selling anything may sell freely"):
        assert phrase in selling, phrase


def test_rules_page_is_plain_markdown() -> None:
    text = rules_page()
    assert not re.search(r"<(/?[a-zA-Z][a-zA-Z0-9]*)(\s[^>]*)?>", text), "no HTML"
    assert "```python" not in text


MOVE_WORDS = {"buy", "b", "sell", "s", "end", "done", "reveal"}


def test_rules_page_notation_is_the_engines() -> None:
    """Every move written in `code` on the rules page is a spelling the engine accepts."""
    state = tlatelolco.load("grand_bazaar").new_initial_state()
    spellings = set()
    for action in range(state.get_game().num_distinct_actions()):
        for text in (state.action_to_string(action), *state.action_aliases(action)):
            spellings.add(normalise(text))
    moves = [span for span in re.findall(r"`([^`\n]+)`", rules_page())
             if span.split()[0] in MOVE_WORDS]
    assert len(moves) >= 10
    unknown = [m for m in moves if normalise(m) not in spellings]
    assert not unknown, f"notation on the rules page the engine does not accept: {unknown}"
    for required in ("buy ruby", "sell emerald", "end turn", "reveal +1 -1 0",
                     "buy r", "b r", "end"):
        assert required in moves, f"the rules page does not show `{required}`"


def test_rules_page_examples_hold() -> None:
    """The worked example turn and the stuck-player table of the rules page, in the engine."""
    from tlatelolco.games.grand_bazaar import Bazaar
    from tlatelolco.games.grand_bazaar.cards import FULL_DECK

    def position(game: tlatelolco.Game, round_: int, prices: list[int], money: list[int],
                 hands: list[list[int]]) -> tlatelolco.State:
        supply = [10 - sum(h[g] for h in hands) for g in range(3)]
        bazaar = Bazaar(num_players=game.num_players(), prices=prices, supply=supply,
                        money=money, hands=hands, deck=FULL_DECK >> round_, round=round_,
                        turn=0, bought=0, sold=0)
        return game.state_from_position(bazaar)  # type: ignore[attr-defined, no-any-return]

    # Worked example: round 5 of 3 players, seat 1 starts; 9 grands, 1 sapphire 1 ruby 2 emeralds.
    state = position(tlatelolco.load("grand_bazaar", num_players=3), 5, [12, 8, 11],
                     [30, 9, 30], [[0, 0, 0], [1, 1, 2], [0, 0, 0]])
    assert state.current_player() == 1
    for refused in ("buy ruby", "end turn"):
        with pytest.raises(tlatelolco.IllegalActionError):
            state.string_to_action(refused)
    state.apply_action(state.string_to_action("sell emerald"))
    assert state.bazaar.money[1] == 20  # type: ignore[attr-defined]
    with pytest.raises(tlatelolco.IllegalActionError, match="no wash trades"):
        state.string_to_action("buy emerald")
    state.apply_action(state.string_to_action("b r"))
    assert state.bazaar.money[1] == 12  # type: ignore[attr-defined]
    assert state.bazaar.hands[1] == [1, 2, 1]  # type: ignore[attr-defined]
    assert state.legal_action_strings() == ["sell sapphire", "sell emerald", "end turn"]
    state.apply_action(state.string_to_action("end"))
    assert state.current_player() == 2

    # Stuck-player table: late round, sapphire 11, ruby 9, emerald 6; seat 0 to move.
    two = tlatelolco.load("grand_bazaar", num_players=2)
    table = [
        (5, [0, 0, 0], ["end turn"]),
        (5, [1, 0, 0], ["sell sapphire"]),
        (2, [0, 0, 1], ["sell emerald", "end turn"]),
    ]
    for money, hand, legal in table:
        state = position(two, 21, [11, 9, 6], [money, 30], [hand, [0, 0, 0]])
        assert state.current_player() == 0
        assert state.legal_action_strings() == legal, (money, hand)
