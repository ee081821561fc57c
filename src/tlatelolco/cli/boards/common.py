"""What several boards draw alike, and how they say it in the reader's language."""

from __future__ import annotations

import re
from typing import Any

from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from rich.measure import Measurement
from rich.table import Table
from rich.text import Text

from tlatelolco.i18n import DEFAULT_LANGUAGE, N_, Plural, gettext, render

_FIELD = re.compile(r"\{(\w+)\}")


class Say:
    """Board words in one language, so a board's functions need one argument for it.

    `say(N_("{n} left"), n=3)` renders a marked message; `say.n(N_n(...), n)` one with a plural;
    `say.word(value)` translates a word that comes from the observation (a gem, a side), which
    the board marks elsewhere with `N_` so the catalogue has it; `say.text` keeps the styles of
    the parts put into a message.
    """

    def __init__(self, lang: str = DEFAULT_LANGUAGE) -> None:
        self.lang = lang

    def __call__(self, message: str, **fields: Any) -> str:
        return render((message, fields), self.lang)

    def n(self, forms: tuple[str, str], n: int, **fields: Any) -> str:
        return render((Plural(forms, n), fields), self.lang)

    def word(self, word: str) -> str:
        return gettext(word, self.lang)

    def text(self, message: str, style: str = "", **parts: Text | str) -> Text:
        """The translated `message` as a Text whose {fields} keep their own styles."""
        return assemble(gettext(message, self.lang), style, **parts)


def assemble(template: str, style: str = "", **parts: Text | str) -> Text:
    """`template` with each {field} replaced by its part (a field it lacks stays as written).

    `style` is given to the template's own words only: a translation may put the fields
    anywhere, so the parts carry their styles with them.
    """
    out = Text()
    at = 0
    for match in _FIELD.finditer(template):
        out.append(template[at:match.start()], style=style)
        part = parts.get(match.group(1), match.group(0))
        if isinstance(part, Text):
            out.append_text(part)
        else:
            out.append(str(part), style=style)
        at = match.end()
    out.append(template[at:], style=style)
    return out


def joined(say: Say, items: list[str]) -> str:
    """'A and B and C' (the way the boards always joined names), in the reader's language."""
    text = items[0] if items else ""
    for item in items[1:]:
        text = say(N_("{a} and {b}"), a=text, b=item)
    return text


def flow(parts: list[Text], width: int, separator: str = "  ", style: str = "") -> Text:
    """`parts` joined by `separator` on as few lines of `width` as they fit, a line breaking only
    between parts: what fits on one line in English may take two in another language."""
    lines: list[Text] = []
    for part in parts:
        if lines and len(lines[-1]) + len(separator) + len(part) <= width:
            lines[-1].append(separator, style=style)
            lines[-1].append_text(part)
        else:
            lines.append(part.copy())
    return Text("\n").join(lines)


def result_word(share: float, say: Say) -> Text:
    """A seat's result from its return: won, shared (with its share) or lost."""
    if share >= 1.0:
        return Text(say(N_("won")), style="bold green")
    if share > 0.0:
        return Text(say(N_("shared ({share})"), share=f"{share:.2g}"), style="bold green")
    return Text(say(N_("lost")), style="dim")


class Beside:
    """Two renderables side by side when both fit whole in the width, else one under the other:
    a translation may make a table wider than the English one the layout was made for."""

    def __init__(self, left: RenderableType, right: RenderableType, gap: int = 3) -> None:
        self.left, self.right, self.gap = left, right, gap

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        left, right = (Measurement.get(console, options, part) for part in (self.left, self.right))
        return Measurement(max(left.minimum, right.minimum),
                           left.maximum + self.gap + right.maximum)

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        widths = [Measurement.get(console, options, part).maximum
                  for part in (self.left, self.right)]
        if sum(widths) + self.gap <= options.max_width:
            grid = Table.grid(padding=(0, self.gap))
            grid.add_column()
            grid.add_column()
            grid.add_row(self.left, self.right)
            yield grid
        else:
            yield Group(self.left, Text(""), self.right)
