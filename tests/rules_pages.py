"""What every game's rules-page test shares: reading sections, Ruling boxes, plain Markdown."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence


def ruling_boxes(text: str, flat: Callable[[str], str]) -> list[tuple[str, str]]:
    """(the rule ids and topic in the box's header, the whole box) for each Ruling blockquote."""
    boxes, quote = [], []
    for line in [*text.splitlines(), ""]:
        if line.startswith(">"):
            quote.append(line[1:].strip())
            continue
        if quote and quote[0].startswith("**Ruling"):
            header = re.match(r"\*\*Ruling \(([^)]*)\):\*\*", quote[0])
            assert header, f"a Ruling box without '(rule id, topic)' in its header: {quote[0]}"
            boxes.append((header.group(1), flat(" ".join(quote))))
        quote = []
    return boxes


def assert_rulings_called_out(boxes: list[tuple[str, str]],
                              rulings: Sequence[tuple[str, str, tuple[str, ...]]]) -> None:
    """Each (topic, rule id, phrases) ruling has a box of its own that says those phrases."""
    assert len(boxes) >= len(rulings), "each ruling is called out in its own blockquote"
    used: set[int] = set()
    for topic, rule, phrases in rulings:
        matches = [i for i, (header, text) in enumerate(boxes)
                   if re.search(rf"\b{rule}\b", header) and all(p in text for p in phrases)]
        assert matches, f"no Ruling box ({rule}) about {topic} saying {phrases}"
        free = [i for i in matches if i not in used]
        assert free, f"the ruling about {topic} shares its box with another ruling"
        used.add(free[0])


def assert_plain_markdown(text: str) -> None:
    """What rich.markdown renders well in a terminal: no HTML, only plain text fences."""
    assert not re.search(r"<(/?[a-zA-Z][a-zA-Z0-9]*)(\s[^>]*)?>", text), "no HTML"
    assert "```python" not in text
    fences = re.findall(r"^```(.*)$", text, re.MULTILINE)
    assert len(fences) % 2 == 0, "every fenced block is closed"
    assert set(fences) <= {"text", ""}, "fenced blocks are plain text"


def section(text: str, heading: str) -> str:
    """The text under `heading` (a whole heading line), up to the next heading of its level or
    a higher one."""
    level = len(heading.split()[0])
    start = text.index(heading + "\n")
    nxt = re.compile(rf"^#{{1,{level}}} ", re.MULTILINE).search(text, start + len(heading))
    return text[start:nxt.start() if nxt else len(text)]


def flat(text: str) -> str:
    """Lower case, single spaces, no Markdown emphasis, code marks or quote marks: for phrase
    checks."""
    text = "\n".join(line.removeprefix(">") for line in text.splitlines())
    return " ".join(text.replace("`", "").replace("*", "").lower().split())


def text_blocks(text: str) -> list[str]:
    """The contents of the page's ```text blocks (maps, diagrams, examples)."""
    return re.findall(r"^```text\n(.*?)^```$", text, re.MULTILINE | re.DOTALL)


def code_spans(text: str) -> list[str]:
    return re.findall(r"`([^`\n]+)`", text)
