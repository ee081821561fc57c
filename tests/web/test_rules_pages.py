"""The rules pages the server renders: `/rules/<game>` (a page of its own) and
`/rules/<game>/fragment` (the article the game page's rules panel shows), in English and Spanish.

Also the Spanish rulebooks themselves (`docs/es/<game>.md`): a translation keeps every rule id,
move, table row, Ruling box and diagram of the English page, so it cannot quietly summarise.
The panel's behaviour in a browser: tests/web/test_browser_rules.py.
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest
from babel.messages.extract import extract_from_file
from babel.messages.pofile import read_po
from tests import rules_pages
from tests.web.apps import serve

from tlatelolco.i18n import JS_KEYWORDS, PYTHON_KEYWORDS
from tlatelolco.registry import list_games
from tlatelolco.web.http import rules

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "src" / "tlatelolco"
DOCS = PACKAGE / "docs"
GAMES = ["grand_bazaar", "aztec_market", "axio", "mexica"]
TITLES = {"grand_bazaar": ("Grand Bazaar", "Grand Bazaar"),
          "aztec_market": ("Aztec Market", "El mercado azteca"),
          "axio": ("Axio", "Axio"), "mexica": ("Mexica", "Mexica")}
PAGE_TITLES = {"en": "{} rules — Tlatelolco", "es": "{}: reglas — Tlatelolco"}
# words of each printed Spanish rulebook the Spanish page must use
PRINTED_WORDS = {
    "grand_bazaar": ("carta de precio", "cartas de gema", "jugador inicial", "bazar", "grands"),
    "aztec_market": ("aglomeración", "cargador", "gobernador", "embajador", "recadero", "hueco",
                     "reserva de monedas", "pareja"),
    "axio": ("pantalla", "suministro general", "pila", "esquina vacía", "morado"),
    "mexica": ("barrio", "distrito", "ficha Calpulli", "Escudo de Armas", "cuadrados de comienzo",
               "fichas de acción", "accesos"),
}


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    with serve(tmp_path_factory.mktemp("rules")) as client:
        yield client


def markdown(game: str, lang: str) -> str:
    return (DOCS / f"{game}.md" if lang == "en" else DOCS / lang / f"{game}.md").read_text(
        encoding="utf-8")


# --- the page -------------------------------------------------------------------------------

def test_the_registry_has_these_games() -> None:
    assert sorted(GAMES) == list_games()


@pytest.mark.parametrize("lang", ["en", "es"])
@pytest.mark.parametrize("game", GAMES)
def test_each_game_has_a_whole_page_in_each_language(client, game: str, lang: str) -> None:
    response = client.get(f"/rules/{game}", params={"lang": lang})
    assert response.status_code == 200
    assert response.headers["content-type"] == "text/html; charset=utf-8"
    assert response.headers["content-language"] == lang
    page = response.text
    name = TITLES[game][0 if lang == "en" else 1]
    assert page.startswith("<!doctype html>")
    assert f"<title>{PAGE_TITLES[lang].format(name)}</title>" in page
    assert f'<html lang="{lang}">' in page
    assert '<link rel="icon" href="/static/favicon.svg" type="image/svg+xml">' in page
    assert '<link rel="stylesheet" href="/static/rules.css">' in page
    back = "Back to the lobby" if lang == "en" else "Volver a la sala"
    assert re.search(rf'<a class="rules-back" href="/">.*{back}</a>', page)
    assert '<a href="?lang=en" hreflang="en" lang="en"' in page
    assert '<a href="?lang=es" hreflang="es" lang="es"' in page
    assert re.search(rf'<a href="\?lang={lang}"[^>]* aria-current="true">', page)
    assert f'<article class="rules-doc" lang="{lang}">' in page
    assert f"<h1 id=\"{rules.slug(name)}\">{name}</h1>" in page
    assert "<script" not in page  # the site's CSP runs no inline script; this page needs none
    for other in GAMES:  # the footer leads to every game's rules, in the same language
        assert f'href="/rules/{other}?lang={lang}"' in page


def test_the_language_is_asked_for_or_the_browsers(client) -> None:
    def lang_of(path: str, accept: str | None = None) -> str:
        response = client.get(path, headers={"Accept-Language": accept} if accept else {})
        assert response.status_code == 200
        assert response.headers["vary"] == "Accept-Language"
        found = re.search(r'<html lang="(\w+)">', response.text)
        assert found and found.group(1) == response.headers["content-language"]
        return found.group(1)

    assert lang_of("/rules/axio") == "en"
    assert lang_of("/rules/axio", "es-MX,es;q=0.9,en;q=0.5") == "es"
    assert lang_of("/rules/axio", "fr, en;q=0.8") == "en"
    assert lang_of("/rules/axio?lang=es", "en") == "es"
    assert lang_of("/rules/axio?lang=en", "es") == "en"
    # an unknown language is never an error: the browser's language, else English
    assert lang_of("/rules/axio?lang=xx") == "en"
    assert lang_of("/rules/axio?lang=xx", "es") == "es"
    assert lang_of("/rules/axio?lang=../../etc/passwd") == "en"


@pytest.mark.parametrize("game", GAMES)
def test_head_answers_with_the_headers_of_get(client, game: str) -> None:
    got = client.get(f"/rules/{game}")
    head = client.head(f"/rules/{game}")
    assert head.status_code == 200 and head.content == b""
    for name in ("content-type", "content-length", "content-language", "vary",
                 "content-security-policy"):
        assert head.headers[name] == got.headers[name], name
    assert client.head(f"/rules/{game}/fragment").status_code == 200


@pytest.mark.parametrize("lang", ["en", "es"])
@pytest.mark.parametrize("name", ["chess", "AXIO", "axio.md", "%3Cscript%3Ealert(1)",
                                  "%3Cscript%3Ealert(1)%3C%2Fscript%3E", "..%2F..%2Fpyproject.toml",
                                  "axio/fragment/x", ""])
def test_an_unknown_game_is_a_404_page_naming_the_games(client, name: str, lang: str) -> None:
    response = client.get(f"/rules/{name}?lang={lang}")
    assert response.status_code == 404
    assert response.headers["content-type"] == "text/html; charset=utf-8"
    page = response.text
    assert f'<html lang="{lang}">' in page and "/static/rules.css" in page
    heading = "No such game" if lang == "en" else "Ese juego no existe"
    assert f"<h1>{heading}</h1>" in page
    for game in GAMES:
        title = TITLES[game][0 if lang == "en" else 1]
        assert f'<li><a href="/rules/{game}?lang={lang}">{title}</a></li>' in page
    assert "<script" not in page and "[project]" not in page  # nothing asked for is echoed
    assert client.head(f"/rules/{name}").status_code == 404


def test_the_favicon_and_the_pages_files_are_served(client) -> None:
    icon = client.get("/static/favicon.svg")
    assert icon.status_code == 200 and icon.headers["content-type"].startswith("image/svg+xml")
    assert client.get("/static/rules.css").status_code == 200
    script = client.get("/static/rules.js")
    assert script.status_code == 200 and "window.TlatelolcoRules" in script.text


# --- what the page holds ---------------------------------------------------------------------

@pytest.mark.parametrize("lang", ["en", "es"])
@pytest.mark.parametrize("game", GAMES)
def test_how_a_turn_works_comes_first(client, game: str, lang: str) -> None:
    text = markdown(game, lang)
    heading = rules.TURN_HEADINGS[lang]
    sections = re.findall(r"^## (.+)$", text, re.MULTILINE)
    assert sections[0] == heading, "the summary comes right after the introduction"
    summary = rules_pages.section(text, f"## {heading}")
    steps = re.findall(r"^(\d+)\. ", summary, re.MULTILINE)
    assert steps == [str(n) for n in range(1, len(steps) + 1)] and 4 <= len(steps) <= 7
    assert len(summary.splitlines()) <= 25, "one screen"
    said = rules_pages.flat(summary)
    for words in ({"en": "your turn", "es": "tu turno"}, {"en": "end", "es": "termina"},
                  {"en": "win", "es": "gana"}):
        assert words[lang] in said, words[lang]
    page = client.get(f"/rules/{game}?lang={lang}").text
    assert f'<h2 id="turn">{heading}</h2>\n<ol>' in page
    assert f'<li><a href="#turn">{heading}</a></li>' in page  # first in the contents


def test_tables_and_ruling_boxes_are_rendered(client) -> None:
    page = client.get("/rules/grand_bazaar?lang=en").text
    assert '<div class="table-scroll">\n<table>\n<thead>\n<tr>\n<th>component</th>' in page
    assert page.count("<table>") == page.count("</table>") == markdown(
        "grand_bazaar", "en").count("\n| --- ") >= 3
    assert "<blockquote>\n<p><strong>Ruling (GB-1, the price deck):</strong>" in page
    assert "<code>buy ruby</code>" in page
    spanish = client.get("/rules/grand_bazaar?lang=es").text
    assert "<th>componente</th>" in spanish
    assert "<strong>Aclaración (GB-1, el mazo de precios):</strong>" in spanish


def test_headings_are_anchors_and_the_contents_link_them(client) -> None:
    page = client.get("/rules/mexica?lang=en").text
    for anchor, text in (("mx-4", "A turn (MX-4)"), ("mx-9", "Founding a district (MX-9)"),
                         ("the-board-mx-1-mx-3", "The board (MX-1, MX-3)"),
                         ("playing-in-the-terminal", "Playing in the terminal")):
        assert f'<h2 id="{anchor}">{text}</h2>' in page
        assert f'<li><a href="#{anchor}">{text}</a></li>' in page
    assert '<h3 id="the-calpulli-tiles">The calpulli tiles</h3>' in page
    ids = re.findall(r' id="([^"]+)"', page)
    assert len(ids) == len(set(ids)), "every id once"
    # a rule's anchor is the same in both languages
    assert '<h2 id="mx-9">Establecer un barrio (MX-9)</h2>' in client.get(
        "/rules/mexica?lang=es").text


def test_anchors_from_headings() -> None:
    html, headings = rules.render_markdown(
        "# Título\n\n## How a turn works\n\n## A round (GB-3)\n\n## Notes\n\n### Notes\n\n"
        "## Rules (GB-1, GB-2)\n\nsee [the round](#gb-3) or [elsewhere](/rules/axio)\n")
    assert [(h.level, h.anchor) for h in headings] == [
        (1, "titulo"), (2, "turn"), (2, "gb-3"), (2, "notes"), (3, "notes-2"),
        (2, "rules-gb-1-gb-2")]
    assert '<a href="#gb-3">the round</a>' in html
    panel, headings = rules.render_markdown("## A round (GB-3)\n\n[x](#gb-3) [y](/rules/axio)\n",
                                            rules.FRAGMENT_PREFIX)
    assert headings[0].anchor == "rules-gb-3" and '<h2 id="rules-gb-3">' in panel
    assert '<a href="#rules-gb-3">x</a>' in panel and '<a href="/rules/axio">y</a>' in panel
    assert rules.slug("Cómo se juega un turno") == "como-se-juega-un-turno"
    assert rules.slug("¿?") == "section"


def test_raw_html_in_the_markdown_is_shown_as_text() -> None:
    crafted = ("# A <script>alert(1)</script> title\n\n<script>alert(2)</script>\n\n"
               '<img src=x onerror="alert(3)">\n\n| a | b |\n| --- | --- |\n'
               "| <b>1</b> | <iframe src=//evil> |\n\n[click](javascript:alert(4))\n\n"
               "`<code>`\n")
    html, _ = rules.render_markdown(crafted)
    assert "<script" not in html and "<img" not in html and "<iframe" not in html
    assert "<b>" not in html and "javascript:" not in html.split("[click]")[0]
    assert 'href="javascript' not in html
    assert "&lt;script&gt;alert(2)&lt;/script&gt;" in html
    assert "&lt;img src=x onerror=&quot;alert(3)&quot;&gt;" in html
    assert "<td>&lt;b&gt;1&lt;/b&gt;</td>" in html
    assert "<code>&lt;code&gt;</code>" in html


def test_the_fragment_is_the_article_alone(client) -> None:
    response = client.get("/rules/axio/fragment", params={"lang": "es"})
    assert response.status_code == 200
    assert response.headers["content-type"] == "text/html; charset=utf-8"
    assert response.headers["content-language"] == "es"
    body = response.text
    assert body.startswith('<article class="rules-doc" lang="es">\n<h1 id="rules-axio">Axio</h1>')
    assert body.rstrip().endswith("</article>")
    assert "<html" not in body and "<title" not in body and "<script" not in body
    # its ids never meet the game page's own (the game page has an element #turn)
    ids = re.findall(r' id="([^"]+)"', body)
    assert ids and all(i.startswith(rules.FRAGMENT_PREFIX) for i in ids)
    assert '<h2 id="rules-turn">Cómo se juega un turno</h2>' in body
    assert '<h2 id="rules-ax-4">¡AXIO! (AX-4)</h2>' in body
    assert client.get("/rules/axio/fragment", headers={"Accept-Language": "es"}).headers[
        "content-language"] == "es"
    assert client.get("/rules/axio/fragment?lang=zz").headers["content-language"] == "en"
    missing = client.get("/rules/chess/fragment")
    assert missing.status_code == 404 and missing.headers["content-type"].startswith("text/html")
    assert "<p class=\"rules-missing\">" in missing.text


def test_pages_are_rendered_once_and_only_for_known_games() -> None:
    assert rules.rules_page("axio", "es") is rules.rules_page("axio", "es")
    assert rules.article_html("mexica", "en") == rules.article_html("mexica", "en")
    before = rules._rendered.cache_info().currsize
    for game, lang in (("chess", "en"), ("axio", "fr"), ("../axio", "en")):
        with pytest.raises(ValueError):
            rules.rules_page(game, lang)
        with pytest.raises(ValueError):
            rules.markdown_source(game, lang)
    assert rules._rendered.cache_info().currsize == before
    assert rules.game_title("aztec_market", "es") == "El mercado azteca"


# --- the Spanish rulebooks ---------------------------------------------------------------------

def structure(text: str) -> dict[str, object]:
    """What a translation keeps: rule ids, moves and other code, headings, table rows, Ruling
    boxes, diagrams, list items."""
    return {
        "rule ids": Counter(re.findall(r"\b[A-Z]{2}-\d+\b", text)),
        "code spans": Counter(rules_pages.code_spans(text)),
        "headings": [len(h) for h in re.findall(r"^(#+) ", text, re.MULTILINE)],
        "table rows": [line.count("|") for line in text.splitlines() if line.startswith("|")],
        "boxes": len(re.findall(r"^> \*\*", text, re.MULTILINE)),
        "diagrams": len(rules_pages.text_blocks(text)),
        "list items": len(re.findall(r"^ *(?:-|\d+\.) ", text, re.MULTILINE)),
    }


@pytest.mark.parametrize("game", GAMES)
def test_the_spanish_page_is_a_whole_translation(game: str) -> None:
    english, spanish = markdown(game, "en"), markdown(game, "es")
    rules_pages.assert_plain_markdown(spanish)
    mine, theirs = structure(spanish), structure(english)
    for part, value in theirs.items():
        assert mine[part] == value, f"the Spanish page's {part} differ from the English page's"
    # every Ruling box is an Aclaración, citing the same rule ids in the same order
    boxes = re.findall(r"^> \*\*Ruling \(([A-Z, 0-9-]+),", english, re.MULTILINE)
    assert re.findall(r"^> \*\*Aclaración \(([A-Z, 0-9-]+),", spanish, re.MULTILINE) == boxes
    assert "Ruling" not in spanish
    said = spanish.lower()
    for word in PRINTED_WORDS[game]:
        assert word.lower() in said, f"the printed rulebook's word {word!r}"
    for english_only in (" the ", " and ", " you ", " players "):
        prose = re.sub(r"```.*?```|`[^`\n]*`", "", spanish, flags=re.DOTALL)
        assert english_only not in prose, f"untranslated English: {english_only!r}"


def test_the_spanish_page_is_served(client) -> None:
    page = client.get("/rules/aztec_market?lang=es").text
    for text in ("<h2 id=\"am-5\">PASAR (AM-5)</h2>", "Utilizar al rey (opcional).",
                 "<code>buy S2 from red</code>", "Laura y Raquel reciben 1 cada una"):
        assert text in page, text
    assert "<title>El mercado azteca: reglas — Tlatelolco</title>" in page


# --- translations -------------------------------------------------------------------------------

def test_every_message_of_the_rules_pages_is_translated() -> None:
    with (PACKAGE / "locale" / "es" / "LC_MESSAGES" / "rules.po").open("rb") as f:
        catalogue = read_po(f, locale="es")
    marked = {m[1] for m in extract_from_file("python", PACKAGE / "web" / "http" / "rules.py",
                                              keywords=PYTHON_KEYWORDS)}
    marked |= {m[1] for m in extract_from_file("javascript", PACKAGE / "web" / "static" /
                                               "rules.js", keywords=JS_KEYWORDS)}
    assert {"Back to the lobby", "{game} rules — Tlatelolco", "Close", "Rules"} <= marked
    for message in marked:
        entry = catalogue.get(message)
        assert entry is not None and entry.string, f"no Spanish for {message!r}"
        assert re.findall(r"\{\w+\}", entry.string) == re.findall(r"\{\w+\}", message)
