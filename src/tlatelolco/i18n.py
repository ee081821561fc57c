"""English and Spanish: gettext catalogues shared by the terminal, the server and the browser.

The English text is the message id. Translations are standard PO files,
`tlatelolco/locale/<lang>/LC_MESSAGES/<domain>.po`, one domain per part of the program (see
`DOMAINS`), kept with Babel's tools and read with Babel when first needed: no compile step, and
the browser is served the very same catalogues as JSON (`/i18n/<lang>.json`).

Python marks text with `N_` (translated later, in the reader's language) and renders it with
`render`; browser code calls `t("...")` / `tn(...)` (see `web/static/shell.js`). A message may
name fields in braces, `"{player} bought {good} for {price}"`; a field holding a `Term` is
translated on its own, one holding a `Seat` becomes that seat's name.

    >>> render(("{player} bought {good} for {price}",
    ...         {"player": Seat(0), "good": Term("ruby"), "price": 11}), "en", ["Ana"])
    'Ana bought ruby for 11'
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

LANGUAGES = ("en", "es")
DEFAULT_LANGUAGE = "en"
LOCALE = Path(__file__).with_name("locale")

# domain -> (source files, relative to the package, whose marked messages it holds)
DOMAINS: dict[str, tuple[str, ...]] = {
    "ui": ("web/static/game.js", "web/static/shell.js", "web/static/seats.js",
           "web/static/review.js", "web/play/views.py", "web/workers/bots.py",
           "web/play/service.py", "web/realtime/sockets.py"),
    "lobby": ("web/static/lobby.js", "web/static/lobby.html"),
    "rules": ("web/static/rules.js", "web/http/rules.py"),
    "chat": ("web/static/chat.js",),
    "accounts": ("web/static/account.js", "web/accounts/api.py"),
    "social": ("web/static/profile.js", "web/static/profile.html", "web/social/profiles.py",
               "web/static/leaderboard.js", "web/static/leaderboard.html"),
    "notify": ("web/notify/messages.py",),
    "terminal": ("cli/*.py", "cli/boards/*.py", "match.py"),
    "grand_bazaar": ("games/grand_bazaar/*.py", "web/static/games/grand_bazaar.js"),
    "aztec_market": ("games/aztec_market/*.py", "web/static/games/aztec_market.js"),
    "axio": ("games/axio/*.py", "web/static/games/axio.js"),
    "mexica": ("games/mexica/*.py", "web/static/games/mexica.js"),
}
# how each source marks its messages (Babel keyword specifications)
PYTHON_KEYWORDS: dict[str, Any] = {"N_": None, "_": None, "ngettext": (1, 2), "N_n": (1, 2)}
JS_KEYWORDS: dict[str, Any] = {"t": None, "tn": (1, 2)}


def N_(message: str) -> str:
    """Mark `message` for translation; it is translated when rendered, in the reader's language."""
    return message


def N_n(singular: str, plural: str) -> tuple[str, str]:
    """Mark a message with a plural form (`Plural` renders it)."""
    return singular, plural


@dataclass(frozen=True, slots=True)
class Term:
    """A word of the game (a good, a gem, a building) translated where it is used."""

    msgid: str


@dataclass(frozen=True, slots=True)
class Seat:
    """A player, shown by the name the reader knows them by."""

    seat: int


@dataclass(frozen=True, slots=True)
class Plural:
    """A message that depends on a count: `Plural(N_n("{n} coin", "{n} coins"), n)`."""

    forms: tuple[str, str]
    n: int


Message = tuple[str | Plural, Mapping[str, Any]]


class Reason(str):
    """An engine's reason (why a move is illegal) that is English text, as every caller of
    `illegal_reason` expects, and also a message the web page shows in the reader's language.

        >>> r = reason(N_("selling is allowed from round {n} on"), n=2)
        >>> r, render(r.message, "en")
        ('selling is allowed from round 2 on', 'selling is allowed from round 2 on')
    """

    message: Message


def reason(template: str, **fields: Any) -> Reason:
    """A `Reason` from an `N_`-marked English template and its fields (Term, Seat, numbers)."""
    made = Reason(render((template, fields)))
    made.message = (template, fields)
    return made


def in_words(text: str, lang: str = DEFAULT_LANGUAGE,
             names: Sequence[str] | None = None) -> str:
    """`text` in `lang` when it is a `Reason` (or a message id), else as it is."""
    if isinstance(text, Reason):
        return render(text.message, lang, names)
    return gettext(text, lang)


@dataclass(frozen=True, slots=True)
class _Catalogue:
    singular: dict[str, str]
    plural: dict[str, tuple[str, ...]]
    plural_expr: Any  # babel's PluralRule-like callable: n -> form index


@functools.cache
def _catalogue(lang: str) -> _Catalogue:
    from babel.messages.pofile import read_po

    singular: dict[str, str] = {}
    plural: dict[str, tuple[str, ...]] = {}
    expr: Any = None
    folder = LOCALE / lang / "LC_MESSAGES"
    for path in sorted(folder.glob("*.po")) if folder.is_dir() else ():
        with path.open("rb") as f:
            cat = read_po(f, locale=lang)
        expr = expr or cat.plural_expr
        for message in cat:
            if not message.id or message.fuzzy:
                continue
            if isinstance(message.id, tuple | list):
                forms = tuple(s for s in message.string if s)
                if forms:
                    plural[message.id[0]] = forms
            elif message.string:
                singular[message.id] = message.string
    return _Catalogue(singular, plural, expr)


def _plural_index(lang: str, n: int) -> int:
    # English and Spanish: one form for 1, the other for the rest
    return 0 if n == 1 else 1


def gettext(message: str, lang: str = DEFAULT_LANGUAGE) -> str:
    """`message` in `lang` (itself when the catalogue has no translation)."""
    if lang == DEFAULT_LANGUAGE:
        return message
    return _catalogue(check_language(lang)).singular.get(message, message)


def ngettext(singular: str, plural: str, n: int, lang: str = DEFAULT_LANGUAGE) -> str:
    index = _plural_index(lang, n)
    if lang != DEFAULT_LANGUAGE:
        forms = _catalogue(check_language(lang)).plural.get(singular)
        if forms:
            return forms[min(index, len(forms) - 1)]
    return singular if index == 0 else plural


def render(message: Message, lang: str = DEFAULT_LANGUAGE,
           names: Sequence[str] | None = None) -> str:
    """The text of `message` in `lang`; `names[k]` names seat k (default "Seat k")."""
    template, fields = message
    if isinstance(template, Plural):
        text = ngettext(*template.forms, template.n, lang)
        fields = {"n": template.n, **fields}
    else:
        text = gettext(template, lang)
    shown = _Fields({key: _field(value, lang, names) for key, value in fields.items()})
    try:
        return text.format_map(shown)
    except (IndexError, ValueError):  # a broken translation: fall back to English
        english = template.forms[0] if isinstance(template, Plural) else template
        return english.format_map(shown)


class _Fields(dict[str, Any]):
    """Fields of a message; one the text names but the message lacks stays as written."""

    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


def _field(value: Any, lang: str, names: Sequence[str] | None) -> Any:
    if isinstance(value, Term):
        return gettext(value.msgid, lang)
    if isinstance(value, Seat):
        if names is not None and 0 <= value.seat < len(names):
            return names[value.seat]
        return gettext("Seat {n}", lang).format(n=value.seat)
    if isinstance(value, tuple) and len(value) == 2 and isinstance(value[1], Mapping):
        return render(value, lang, names)  # a message inside a message
    return value


def check_language(lang: str) -> str:
    if lang not in LANGUAGES:
        raise ValueError(f"no language {lang[:20]!r}; the languages are "
                         + ", ".join(LANGUAGES))
    return lang


def pick_language(accept: str | None) -> str:
    """The best of `LANGUAGES` for an Accept-Language header (or a `LANG` value like es_MX)."""
    best, best_q = DEFAULT_LANGUAGE, -1.0
    for part in (accept or "")[:500].split(",")[:20]:
        tag, _, params = part.strip().partition(";")
        code = tag.strip().lower().replace("_", "-").split("-")[0]
        q = 1.0
        if params.strip().startswith("q="):
            try:
                q = float(params.strip()[2:])
            except ValueError:
                q = 0.0
        if code in LANGUAGES and q > best_q:
            best, best_q = code, q
    return best


@functools.cache
def browser_catalogue(lang: str) -> dict[str, Any]:
    """Every translation of `lang` for the browser: {msgid: text or [plural forms]}."""
    cat = _catalogue(check_language(lang))
    return {"lang": lang, "messages": dict(cat.singular),
            "plurals": {k: list(v) for k, v in cat.plural.items()}}


__all__ = [
    "DOMAINS",
    "LANGUAGES",
    "N_",
    "Message",
    "N_n",
    "Plural",
    "Reason",
    "Seat",
    "Term",
    "browser_catalogue",
    "check_language",
    "gettext",
    "in_words",
    "ngettext",
    "pick_language",
    "reason",
    "render",
]
