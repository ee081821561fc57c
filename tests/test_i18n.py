"""Every message the program marks for translation has its Spanish, in the catalogue of its
domain (see `tlatelolco.i18n.DOMAINS`), extracted with Babel as a translator would."""

from __future__ import annotations

from pathlib import Path

import pytest
from babel.messages.extract import extract_from_file
from babel.messages.pofile import read_po

from tlatelolco import i18n
from tlatelolco.i18n import (
    DOMAINS,
    JS_KEYWORDS,
    LOCALE,
    N_,
    PYTHON_KEYWORDS,
    N_n,
    Plural,
    Seat,
    Term,
    browser_catalogue,
    gettext,
    pick_language,
    render,
)

PACKAGE = Path(i18n.__file__).parent


def sources(domain: str) -> list[Path]:
    found: list[Path] = []
    for pattern in DOMAINS[domain]:
        found.extend(sorted(PACKAGE.glob(pattern)))
    return found


def marked(path: Path) -> set[str]:
    """The message ids marked in one source file (plural messages by their singular)."""
    if path.suffix == ".py":
        method, keywords = "python", PYTHON_KEYWORDS
    elif path.suffix == ".js":
        method, keywords = "javascript", JS_KEYWORDS
    else:
        return set()
    ids = set()
    for _, message, _, _ in extract_from_file(method, str(path), keywords=keywords):
        ids.add(message[0] if isinstance(message, tuple) else message)
    return {m for m in ids if m}


def catalogue(domain: str):
    path = LOCALE / "es" / "LC_MESSAGES" / f"{domain}.po"
    with path.open("rb") as f:
        return read_po(f, locale="es")


@pytest.mark.parametrize("domain", sorted(DOMAINS))
def test_every_marked_message_has_its_spanish(domain: str) -> None:
    files = sources(domain)
    assert files, f"domain {domain} names no source file that exists"
    wanted = set().union(*(marked(f) for f in files))
    cat = catalogue(domain)
    translated = {}
    for message in cat:
        if not message.id or message.fuzzy:
            continue
        key = message.id[0] if isinstance(message.id, tuple | list) else message.id
        strings = message.string if isinstance(message.string, tuple | list) else [message.string]
        if all(strings):
            translated[key] = strings
    missing = sorted(wanted - set(translated))
    assert not missing, f"{domain}.po lacks Spanish for {len(missing)}: {missing[:10]}"


@pytest.mark.parametrize("domain", sorted(DOMAINS))
def test_translations_keep_their_fields(domain: str) -> None:
    """A Spanish text names the same {fields} as its English: rendering never loses one."""
    import re

    field = re.compile(r"\{(\w+)\}")
    for message in catalogue(domain):
        if not message.id:
            continue
        ids = message.id if isinstance(message.id, tuple | list) else [message.id]
        strings = message.string if isinstance(message.string, tuple | list) \
            else [message.string]
        english = set(field.findall(ids[0])) | set(field.findall(ids[-1]))
        for text in strings:
            if text:
                assert set(field.findall(text)) <= english | {"n"}, (domain, ids[0], text)


def test_messages_render_in_both_languages() -> None:
    message = (N_("{name} to move"), {"name": Seat(1)})
    assert render(message, "en", ["Ana", "Bea"]) == "Bea to move"
    assert render(message, "es", ["Ana", "Bea"]) == "Le toca a Bea"
    assert gettext("Your turn", "es") == "Tu turno"
    assert render((Plural(N_n("{n} coin", "{n} coins"), 3), {}), "en") == "3 coins"
    assert render(("{thing}", {"thing": Term(N_("Your turn"))}), "es") == "Tu turno"
    assert render(("{who} and {missing}", {"who": Seat(5)}), "en") == "Seat 5 and {missing}"


def test_the_language_comes_from_the_browser() -> None:
    assert pick_language("es-MX,es;q=0.9,en;q=0.8") == "es"
    assert pick_language("en-GB,es;q=0.5") == "en"
    assert pick_language("fr-FR,de") == "en"
    assert pick_language("x" * 10_000) == "en"
    assert pick_language("es_ES.UTF-8") == "es"  # a LANG value, for the terminal


def test_the_browser_gets_the_same_catalogues() -> None:
    es = browser_catalogue("es")
    assert es["lang"] == "es"
    assert es["messages"]["Your turn"] == "Tu turno"
    with pytest.raises(ValueError, match="the languages are en, es"):
        browser_catalogue("fr")


def test_the_same_english_has_the_same_spanish_everywhere() -> None:
    """The catalogues are merged into one: two domains must not translate a message two ways
    (one would silently win)."""
    seen: dict[str, tuple[str, object]] = {}
    clashes = []
    for domain in sorted(DOMAINS):
        for message in catalogue(domain):
            if not message.id or message.fuzzy:
                continue
            key = message.id[0] if isinstance(message.id, tuple | list) else message.id
            text = tuple(message.string) if isinstance(message.string, tuple | list) \
                else message.string
            if key in seen and seen[key][1] != text:
                clashes.append(f"{key!r}: {seen[key][0]} {seen[key][1]!r}, {domain} {text!r}")
            seen.setdefault(key, (domain, text))
    assert not clashes, clashes[:10]
