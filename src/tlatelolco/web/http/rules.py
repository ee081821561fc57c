"""Each game's rulebook as HTML: a page to read on its own (`/rules/<game>`) and the bare article
for the panel the game page opens over the board (`/rules/<game>/fragment`, see static/rules.js).

The rulebooks are the Markdown pages shipped with the package (`docs/<game>.md`, and their Spanish
translations `docs/es/<game>.md`), rendered with markdown-it: CommonMark and tables, with raw HTML
shown as text and never run. Game names are checked against the registry and languages against
`i18n.LANGUAGES` before anything is read, so no path is ever built from a request, and each
(game, language) is rendered once and kept in memory.
"""

from __future__ import annotations

import functools
import html
import re
import unicodedata
from dataclasses import dataclass
from importlib import resources
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse
from markdown_it import MarkdownIt

from tlatelolco.i18n import DEFAULT_LANGUAGE, LANGUAGES, N_, gettext, pick_language
from tlatelolco.registry import list_games

router = APIRouter(include_in_schema=False)

# The one-screen summary at the top of every page gets a fixed anchor, `#turn`, in any language.
TURN_ID = "turn"
TURN_HEADINGS = {"en": "How a turn works", "es": "Cómo se juega un turno"}
# The panel's anchors are prefixed: the game page has ids of its own (a `#turn` among them).
FRAGMENT_PREFIX = "rules-"
LANGUAGE_NAMES = {"en": "English", "es": "Español"}
_RULE_ID = re.compile(r"\b[A-Z]{2}-\d+\b")


@dataclass(frozen=True, slots=True)
class Heading:
    """A heading of a rulebook, for the page's contents."""

    level: int
    anchor: str
    text: str


def _wrap_table(opening: bool) -> Any:
    """A table in a box of its own that scrolls sideways, so a wide table never widens a phone's
    page."""

    def rule(self: Any, tokens: Any, idx: int, options: Any, env: Any) -> str:
        tag = self.renderToken(tokens, idx, options, env)
        return f'<div class="table-scroll">\n{tag}' if opening else f"{tag}</div>\n"

    return rule


_MARKDOWN = MarkdownIt("commonmark", {"html": False}).enable("table")
_MARKDOWN.add_render_rule("table_open", _wrap_table(True))
_MARKDOWN.add_render_rule("table_close", _wrap_table(False))


def slug(text: str) -> str:
    """An anchor for a heading: ASCII letters and digits joined by hyphens ("Set-up (GB-2)" ->
    "set-up-gb-2")."""
    ascii_text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    return re.sub(r"[^a-z0-9]+", "-", ascii_text.lower()).strip("-") or "section"


def _anchor(text: str) -> str:
    # A heading about a single rule is anchored by its rule id (#gb-3), the same in every
    # language, so the rule ids that errors and the digest cite can be linked to directly.
    if text in TURN_HEADINGS.values():
        return TURN_ID
    rules = _RULE_ID.findall(text)
    return rules[0].lower() if len(rules) == 1 else slug(text)


def render_markdown(text: str, prefix: str = "") -> tuple[str, list[Heading]]:
    """`text` as HTML (headings with ids, each id starting with `prefix`, and links to them
    rewritten to match), and its headings in order."""
    tokens = _MARKDOWN.parse(text)
    headings: list[Heading] = []
    used: set[str] = set()
    for index, token in enumerate(tokens):
        if token.type == "heading_open":
            inline = tokens[index + 1]
            plain = "".join(child.content for child in inline.children or ()).strip()
            anchor = base = _anchor(plain)
            n = 1
            while anchor in used:
                n += 1
                anchor = f"{base}-{n}"
            used.add(anchor)
            token.attrSet("id", prefix + anchor)
            headings.append(Heading(int(token.tag[1:]), prefix + anchor, plain))
        elif token.type == "inline" and prefix:
            for child in token.children or ():
                href = str(child.attrGet("href") or "") if child.type == "link_open" else ""
                if href.startswith("#"):
                    child.attrSet("href", f"#{prefix}{href[1:]}")
    return _MARKDOWN.renderer.render(tokens, _MARKDOWN.options, {}), headings


def _check(game: str, lang: str) -> None:
    # The cached functions below are only ever called with known keys: the cache stays small.
    if game not in list_games() or lang not in LANGUAGES:
        raise ValueError(f"no rules page for {game[:40]!r} in {lang[:10]!r}")


def markdown_source(game: str, lang: str) -> tuple[str, str]:
    """The Markdown rulebook of `game` in `lang`, and the language it is really in (English when
    no translation is shipped)."""
    _check(game, lang)
    docs = resources.files("tlatelolco") / "docs"
    for code in dict.fromkeys((lang, DEFAULT_LANGUAGE)):
        page = docs / f"{game}.md" if code == DEFAULT_LANGUAGE else docs / code / f"{game}.md"
        if page.is_file():
            return page.read_text(encoding="utf-8"), code
    raise FileNotFoundError(f"tlatelolco/docs/{game}.md is not installed")


@functools.cache
def _rendered(game: str, lang: str, prefix: str) -> tuple[str, str, tuple[Heading, ...]]:
    text, actual = markdown_source(game, lang)
    body, headings = render_markdown(text, prefix)
    return body, actual, tuple(headings)


@functools.cache
def game_title(game: str, lang: str) -> str:
    """The game's name as its rulebook's first heading spells it in `lang`."""
    text, _ = markdown_source(game, lang)
    first = re.search(r"^# (.+)$", text, re.MULTILINE)
    return first.group(1).strip() if first else game


def article_html(game: str, lang: str, prefix: str = "") -> str:
    """The rendered rulebook alone, as an <article> (what the in-game panel shows)."""
    body, actual, _ = _rendered(game, lang, prefix)
    return f'<article class="rules-doc" lang="{actual}">\n{body}</article>\n'


@functools.cache
def rules_page(game: str, lang: str) -> str:
    """The whole HTML page of `game`'s rules in `lang`."""
    _, _, headings = _rendered(game, lang, "")
    contents = "".join(f'<li><a href="#{h.anchor}">{html.escape(h.text)}</a></li>'
                       for h in headings if h.level == 2)
    summary = _t(N_("Contents"), lang)
    main = (f'<details class="rules-toc"><summary>{summary}</summary><ol>{contents}</ol>'
            f"</details>\n{article_html(game, lang)}")
    title = gettext(N_("{game} rules — Tlatelolco"), lang).format(game=game_title(game, lang))
    return _page(title, lang, main, current=game)


@functools.cache
def not_found_page(lang: str) -> str:
    """The answer for a game that does not exist: the games that do, in the same style."""
    items = "".join(f'<li><a href="/rules/{g}?lang={lang}">{html.escape(game_title(g, lang))}'
                    "</a></li>" for g in list_games())
    heading = _t(N_("No such game"), lang)
    text = _t(N_("There are no rules for a game of that name. These are the games:"), lang)
    main = f'<article class="rules-doc"><h1>{heading}</h1><p>{text}</p><ul>{items}</ul></article>\n'
    return _page(gettext(N_("Rules not found — Tlatelolco"), lang), lang, main, current=None)


def _t(message: str, lang: str) -> str:
    return html.escape(gettext(message, lang))


def _page(title: str, lang: str, main: str, current: str | None) -> str:
    switch = " ".join(
        f'<a href="?lang={code}" hreflang="{code}" lang="{code}"'
        + (' aria-current="true"' if code == lang else "") + f">{name}</a>"
        for code, name in LANGUAGE_NAMES.items())
    back = _t(N_("Back to the lobby"), lang)
    language = _t(N_("Language"), lang)
    return f"""<!doctype html>
<html lang="{lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{html.escape(title)}</title>
<link rel="icon" href="/static/favicon.svg" type="image/svg+xml">
<link rel="stylesheet" href="/static/rules.css">
</head>
<body class="rules-page">
<header class="rules-top">
<a class="rules-back" href="/"><span aria-hidden="true">← </span>{back}</a>
<nav class="rules-languages" aria-label="{language}">{switch}</nav>
</header>
<main class="rules-main">
{main}</main>
{_footer(lang, current) if current else ""}
</body>
</html>
"""


def _footer(lang: str, current: str) -> str:
    links = "".join(
        f'<li><a href="/rules/{g}?lang={lang}"'
        + (' aria-current="page"' if g == current else "")
        + f">{html.escape(game_title(g, lang))}</a></li>" for g in list_games())
    heading = _t(N_("The rules of every game"), lang)
    return (f'<footer class="rules-foot"><nav aria-labelledby="rules-all">'
            f'<h2 id="rules-all">{heading}</h2><ul>{links}</ul></nav></footer>')


def choose_language(asked: str | None, accept: str | None) -> str:
    """The `?lang=` asked for when it is a language we have, else the browser's best."""
    return asked if asked is not None and asked in LANGUAGES else pick_language(accept)


def _headers(lang: str) -> dict[str, str]:
    return {"Content-Language": lang, "Vary": "Accept-Language"}


@router.api_route("/rules/{game}", methods=["GET", "HEAD"])
async def rules(game: str, request: Request, lang: str | None = None) -> HTMLResponse:
    chosen = choose_language(lang, request.headers.get("accept-language"))
    if game not in list_games():
        return HTMLResponse(not_found_page(chosen), status_code=404, headers=_headers(chosen))
    return HTMLResponse(rules_page(game, chosen), headers=_headers(chosen))


@router.api_route("/rules/{game}/fragment", methods=["GET", "HEAD"])
async def rules_fragment(game: str, request: Request, lang: str | None = None) -> HTMLResponse:
    chosen = choose_language(lang, request.headers.get("accept-language"))
    if game not in list_games():
        message = _t(N_("There are no rules for a game of that name."), chosen)
        return HTMLResponse(f'<p class="rules-missing">{message}</p>\n', status_code=404,
                            headers=_headers(chosen))
    return HTMLResponse(article_html(game, chosen, FRAGMENT_PREFIX), headers=_headers(chosen))


@router.api_route("/rules/{rest:path}", methods=["GET", "HEAD"])
async def no_rules(rest: str, request: Request, lang: str | None = None) -> HTMLResponse:
    """Any other address under /rules/ (a mistyped one): the games there are, in the same style."""
    chosen = choose_language(lang, request.headers.get("accept-language"))
    return HTMLResponse(not_found_page(chosen), status_code=404, headers=_headers(chosen))


__all__ = ["FRAGMENT_PREFIX", "TURN_HEADINGS", "TURN_ID", "Heading", "article_html",
           "choose_language", "game_title", "markdown_source", "not_found_page",
           "render_markdown", "router", "rules_page", "slug"]

