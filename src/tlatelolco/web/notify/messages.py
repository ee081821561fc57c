"""The words of reminders: a push's title and body, a mail's subject and plain-text body, in
the language the account chose (English when it chose none); and of the mail that verifies an
address (nothing in it comes from the account: no name, no text a stranger could choose)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from tlatelolco.i18n import DEFAULT_LANGUAGE, LANGUAGES, N_, N_n, Plural, Term, render
from tlatelolco.registry import game_class

TURN, DEADLINE, INVITE = "turn", "deadline", "invite"  # the kinds of reminder

TITLES = {
    TURN: N_("Your turn in {game}"),
    INVITE: N_("{player} invited you to {game}"),
    DEADLINE: N_("{time} left for your turn in {game}"),
}
BODIES = {
    TURN: N_("It is your move in {game}."),
    INVITE: N_("A seat at the table of {game} is yours."),
    DEADLINE: N_("Play before your time runs out, or the table's rule for a timeout applies."),
}
OPEN_GAME = N_("Open the game: {url}")
WHY_MAIL = N_("You get this mail because e-mail reminders are on in your Tlatelolco account. "
              "You can turn them off in your account settings: {url}")
VERIFY_SUBJECT = N_("Confirm your e-mail address for Tlatelolco")
VERIFY_ASKED = N_("This address was given to an account on Tlatelolco, to be reminded by "
                  "e-mail when it is its turn in a game. If it is yours and you want these "
                  "mails, open this link within {hours} hours:")
VERIFY_IGNORE = N_("If you did not ask for this, ignore this mail: no reminder is sent to an "
                   "address before the link in this mail is opened.")
SECONDS = N_n("{n} second", "{n} seconds")
MINUTES = N_n("{n} minute", "{n} minutes")
HOURS = N_n("{n} hour", "{n} hours")


@dataclass(frozen=True, slots=True)
class Notice:
    kind: str  # turn | deadline | invite
    title: str  # a push's title, a mail's subject
    body: str
    url: str  # the game's page


def language(lang: str | None) -> str:
    return lang if lang in LANGUAGES else DEFAULT_LANGUAGE


def time_left(seconds: float) -> Any:
    """A short time in words: seconds under a minute and a half, then minutes, then hours."""
    seconds = max(0, round(seconds))
    if seconds < 90:
        return Plural(SECONDS, seconds)
    if seconds < 120 * 60:
        return Plural(MINUTES, round(seconds / 60))
    return Plural(HOURS, round(seconds / 3600))


def notice(kind: str, lang: str | None, game: str, url: str, *, player: str = "",
           left: float = 0.0) -> Notice:
    """The reminder of `kind` for the game named `game` (its registry name) at `url`."""
    lang = language(lang)
    fields = {"game": Term(game_class(game).info.title), "player": player,
              "time": (time_left(left), {})}
    return Notice(kind, render((TITLES[kind], fields), lang), render((BODIES[kind], fields), lang),
                  url)


def mail_text(notice: Notice, lang: str | None, settings_url: str) -> str:
    """A mail's plain-text body: what happened, the link to the game, why this mail came."""
    lang = language(lang)
    return (f"{notice.body}\n\n{render((OPEN_GAME, {'url': notice.url}), lang)}\n\n-- \n"
            f"{render((WHY_MAIL, {'url': settings_url}), lang)}\n")


def push_payload(notice: Notice, game_id: str) -> dict[str, str]:
    """What the service worker (static/push-worker.js) shows: one notification per game."""
    return {"title": notice.title, "body": notice.body, "url": notice.url,
            "tag": f"tlatelolco-{game_id}", "kind": notice.kind}


def verification_mail(url: str, lang: str | None, hours: int) -> tuple[str, str]:
    """The subject and plain-text body of the mail carrying the link (`url`) that verifies an
    address, good for `hours`."""
    lang = language(lang)
    body = (f"{render((VERIFY_ASKED, {'hours': hours}), lang)}\n\n{url}\n\n"
            f"{render((VERIFY_IGNORE, {}), lang)}\n")
    return render((VERIFY_SUBJECT, {}), lang), body
