"""The `tlatelolco` commands. Each one parses its arguments and hands over to a small module."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Annotated, Any

import typer
from rich import box
from rich.console import Console
from rich.markdown import Markdown
from rich.table import Table

from tlatelolco.cli.arena import arena as arena_command
from tlatelolco.cli.common import (
    FAILURE,
    bench_game,
    fail,
    language,
    missing_rules_message,
    rules_page,
)
from tlatelolco.cli.play import load_game, run_play, seat_specs
from tlatelolco.cli.replay import print_all, step_through
from tlatelolco.cli.report import report as report_command
from tlatelolco.cli.review import review as review_command
from tlatelolco.cli.users import users_app
from tlatelolco.cli.worker import worker as worker_command
from tlatelolco.extras import MissingExtra, require
from tlatelolco.i18n import pick_language
from tlatelolco.records import RecordError, load_record
from tlatelolco.registry import game_class, list_games, load

app = typer.Typer(
    name="tlatelolco",
    help="Play, replay and study Tlatelolco's board games.",
    no_args_is_help=True,
    pretty_exceptions_show_locals=False,
)


@app.command("list")
def list_command() -> None:
    """List the registered games."""
    table = Table(title="Tlatelolco games", title_justify="left", box=box.SIMPLE_HEAD,
                  pad_edge=False)
    for column in ("name", "title", "players", "info", "chance", "actions", "version"):
        table.add_column(column, justify="right" if column == "actions" else "left",
                         no_wrap=True)
    for name in list_games():
        info = game_class(name).info
        table.add_row(info.name, info.title, f"{info.min_players}–{info.max_players}",
                      info.information, info.chance, f"{info.num_distinct_actions:,}",
                      info.version)
    Console().print(table)


@app.command()
def play(
    game: Annotated[str, typer.Argument(help="Game name (see `tlatelolco list`).")],
    players: Annotated[int | None, typer.Option(
        "--players", "-n", help="Number of players (the game's num_players option).")] = None,
    seat: Annotated[list[str] | None, typer.Option(
        "--seat", metavar="SEAT=SPEC", help="SEAT=SPEC, e.g. 1=greedy or 0=human; repeat per seat. "
        "Default: seat 0 human, others greedy (random where a game has no greedy bot).")] = None,
    seed: Annotated[int | None, typer.Option(help="Seed for chance and bots.")] = None,
    option: Annotated[list[str] | None, typer.Option(
        "--option", "-o", metavar="KEY=VALUE",
        help="A game option, e.g. num_players=4; repeat as needed.")] = None,
    record: Annotated[Path | None, typer.Option(
        help="Where to save the record (default: records/GAME-TIME-SEED.json).")] = None,
    lang: Annotated[str | None, typer.Option(
        help="Language of the prompts and of the log in words: en or es (default: from "
        "$LANG).")] = None,
) -> None:
    """Play a game in the terminal against bots (or watch bots play)."""
    chosen = language(lang, pick_language(os.environ.get("LANG")))
    loaded = load_game(game, option or [], players)
    specs = seat_specs(loaded, seat or [])
    run_play(loaded, specs, seed, record, Console(), echo=not sys.stdin.isatty(), lang=chosen)


@app.command()
def replay(
    record: Annotated[Path, typer.Argument(help="A game record (JSON).")],
    all_moves: Annotated[bool, typer.Option(
        "--all", help="Print every move and the final board instead of stepping.")] = False,
    seat: Annotated[int, typer.Option(help="Show the board as this seat saw it.")] = 0,
    lang: Annotated[str | None, typer.Option(
        help="Language of the boards and the log: en or es (default: from $LANG).")] = None,
) -> None:
    """Step through a saved game (printed whole with --all or when input is not a terminal)."""
    chosen = language(lang, pick_language(os.environ.get("LANG")))
    try:
        saved, final = load_record(record)
    except RecordError as err:
        message = str(err)
        fail(message if str(record) in message else f"{record}: {message}", FAILURE)
    loaded = final.get_game()
    if not 0 <= seat < loaded.num_players():
        fail(f"--seat {seat} is out of range; this game has seats 0 to "
             f"{loaded.num_players() - 1}")
    console = Console()
    if all_moves or not sys.stdin.isatty():
        print_all(console, saved, loaded, seat, chosen)
    else:
        step_through(console, console.input, saved, loaded, seat, chosen)


@app.command()
def rules(
    game: Annotated[str, typer.Argument(help="Game name.")],
    lang: Annotated[str | None, typer.Option(
        help="Language of the page: en or es (default: from $LANG).")] = None,
) -> None:
    """Show a game's rules page."""
    chosen = language(lang, pick_language(os.environ.get("LANG")))
    try:
        game_class(game)
    except ValueError as err:
        fail(str(err))
    page = rules_page(game, chosen)
    if page is None:
        fail(missing_rules_message(game, chosen), FAILURE)
    Console().print(Markdown(page))


def rate(value: Any, digits: int = 0) -> str:
    return f"{value:,.{digits}f}" if isinstance(value, int | float) else str(value)


@app.command()
def bench(
    target: Annotated[str, typer.Argument(
        help="engine: random games in this process; server: concurrent games played over "
        "WebSockets against a real server.")] = "engine",
    game: Annotated[list[str] | None, typer.Option(
        "--game", "-g", metavar="GAME", help="Game to measure; repeat as needed (default: all; "
        "server: grand_bazaar)."
    )] = None,
    seconds: Annotated[float | None, typer.Option(
        help="Time spent on each game (engine: 2 s; server: the whole run, 20 s).")] = None,
    players: Annotated[int | None, typer.Option(
        "--players", "-n", help="Player count for every measured game (default: each game's "
        "default; server: 2).")] = None,
    games: Annotated[int | None, typer.Option(
        help="server: how many games are played at once (default 100; with --workers "
        "8).")] = None,
    moves: Annotated[int | None, typer.Option(
        help="server: stop after this many moves instead of after --seconds.")] = None,
    url: Annotated[str | None, typer.Option(
        help="server: measure this running server instead of starting one.")] = None,
    think: Annotated[float, typer.Option(
        help="server: mean seconds a seat waits before moving (0: as fast as the server "
        "answers, which measures its capacity).")] = 0.0,
    json_path: Annotated[Path | None, typer.Option(
        "--json", metavar="PATH", help="Also write the measurements to this JSON file.")] = None,
    env: Annotated[bool, typer.Option(
        "--env", help="engine: also step each game's PettingZoo environment with random legal "
        "actions for --seconds more and report its agent steps/s (needs the rl extra).")] = False,
    workers: Annotated[int, typer.Option(
        help="server: play games of bots only on this many `tlatelolco worker` processes "
        "(remote mode, through Redis) and report bot moves per second.")] = 0,
    redis: Annotated[str | None, typer.Option(
        help="server --workers: the Redis to use (default: a throwaway redis-server).")
    ] = None,
) -> None:
    """Measure speed: engines playing random games and searching, or the web server under load."""
    if target not in ("engine", "server"):
        fail(f"unknown benchmark {target!r}; allowed: engine, server")
    if env and target != "engine":
        fail("--env measures the PettingZoo environment next to the engine: use bench engine")
    if env:
        require("pettingzoo", "rl")  # refused before any measuring when the extra is missing
    for name in game or []:
        try:
            game_class(name)
        except ValueError as err:
            fail(str(err))
    if seconds is not None and seconds <= 0:
        fail(f"--seconds {seconds}: give a positive number of seconds")
    if (workers or redis) and target != "server":
        fail("--workers and --redis measure the server's remote workers: use bench server")
    if target == "server" and (workers or redis):
        from tlatelolco.cli.worker_bench import bench_workers

        bench_workers(workers, redis, game, seconds, players, games, url, json_path)
        return
    if target == "server":
        bench_server(game, seconds, players, 100 if games is None else games, moves, url,
                     think, json_path)
        return
    seconds = 2.0 if seconds is None else seconds
    from tlatelolco import bench as engine_bench  # imported here: only this command needs it

    names = game or list_games()
    if players is not None:
        for name in names:
            try:
                load(name, num_players=players)
            except ValueError as err:
                fail(str(err))
    counts = None if players is None else dict.fromkeys(names, players)
    rows = engine_bench.run(names, seconds, counts, env=env)
    caption = ("search/s: iterations per second of the game's search bot (MCTS; ISMCTS where "
               "seats hide things) with its default parameters")
    columns = [("game", "game", None), ("n", "players", None),
               ("moves/s", "moves_per_s", 0), ("games/s", "games_per_s", 1),
               ("clones/s", "clones_per_s", 0), ("legal/s", "legal_actions_per_s", 0),
               ("length", "mean_length", 1), ("search/s", "search_iterations_per_s", 0)]
    if env:
        caption += ("\nenv steps/s: agent actions per second of the PettingZoo environment "
                    "(observation and mask read every step); env/engine: env steps/s over "
                    "moves/s; env length: agent actions per game")
        columns += [("env steps/s", "env_steps_per_s", 0), ("env/engine", "env_vs_engine", 2),
                    ("env length", "env_steps_per_game", 1)]
    table = Table(title=f"Engine speed ({seconds:g} s per game)", title_justify="left",
                  caption=caption, caption_justify="left")
    for title, _, digits in columns:
        table.add_column(title, justify="left" if digits is None else "right")
    for row in rows:
        table.add_row(*(str(row.get(key, "?")) if digits is None else rate(row.get(key, "?"),
                                                                             digits)
                        for _, key, digits in columns))
    Console().print(table)
    if json_path is not None:
        try:
            json_path.write_text(json.dumps(rows, indent=1) + "\n", encoding="utf-8")
        except OSError as err:
            fail(f"cannot write {json_path}: {err}", FAILURE)
        Console().print(f"Measurements written to {json_path}", markup=False)


def bench_server(game: list[str] | None, seconds: float | None, players: int | None,
                 games: int, moves: int | None, url: str | None, think: float,
                 json_path: Path | None) -> None:
    """`tlatelolco bench server`: moves/s and move latency of N concurrent games."""
    if games < 1 or (moves is not None and moves < 1) or think < 0:
        fail("--games and --moves must be positive, --think not negative")
    name, count = bench_game(game, players)
    from tlatelolco.web.benchmark import run_server_bench

    console = Console()
    console.print(f"Playing {games} concurrent {name} games ({count} players) over WebSockets"
                  f"{' against ' + url if url else ''}, {think:g} s thinking ...", markup=False)
    try:
        row = run_server_bench(games=games, game=name, players=count, moves=moves, url=url,
                               seconds=seconds, think=think)
    except (ValueError, RuntimeError) as err:
        fail(str(err), FAILURE)
    latency = row["latency_ms"]
    table = Table(title="Server speed", title_justify="left")
    for column in ("game", "games", "moves", "moves/s", "p50 ms", "p95 ms", "p99 ms",
                   "errors", "lost"):
        table.add_column(column, justify="left" if column == "game" else "right")
    table.add_row(name, str(row["games"]), f"{row['moves']:,}", rate(row["moves_per_s"]),
                  rate(latency["p50"], 1), rate(latency["p95"], 1), rate(latency["p99"], 1),
                  str(row["errors"]), str(row["lost"]))
    console.print(table)
    if json_path is not None:
        try:
            json_path.write_text(json.dumps(row, indent=1) + "\n", encoding="utf-8")
        except OSError as err:
            fail(f"cannot write {json_path}: {err}", FAILURE)
    if row["errors"] or row["lost"]:
        raise typer.Exit(FAILURE)


def parse_bot_delay(text: str) -> tuple[float, dict[str, float]]:
    """'0.7,mexica=1.0' -> (0.7, {"mexica": 1.0}); ValueError saying what is wrong."""
    default, per_game = 0.7, {}
    for part in (p.strip() for p in text.split(",") if p.strip()):
        name, _, value = part.rpartition("=")
        try:
            seconds = float(value)
        except ValueError:
            seconds = -1.0
        if not 0 <= seconds <= 60 or seconds != seconds:
            raise ValueError(f"--bot-delay: {part[:40]!r} is not a number of seconds from 0 "
                             "to 60 (a default, then game=seconds, e.g. '0.7,mexica=1.0')")
        if not name:
            default = seconds
        elif name in list_games():
            per_game[name] = seconds
        else:
            raise ValueError(f"--bot-delay: no game {name[:40]!r}; games: "
                             + ", ".join(list_games()))
    return default, per_game


REVIEW_KNOBS = {"workers": (0, 16), "queue": (1, 1000), "per_client": (1, 100),
                "iterations": (1, 100_000)}


def parse_reviews(text: str) -> dict[str, int]:
    """'workers=1,queue=8' -> {"review_workers": 1, "review_queue": 8}; ValueError saying
    what is wrong and what is allowed."""
    found: dict[str, int] = {}
    for part in (p.strip() for p in text.split(",") if p.strip()):
        name, _, value = part.partition("=")
        if name not in REVIEW_KNOBS:
            raise ValueError(f"--reviews: no setting {name[:40]!r}; settings: "
                             + ", ".join(f"{k}={lo}..{hi}" for k, (lo, hi) in
                                         REVIEW_KNOBS.items()))
        low, high = REVIEW_KNOBS[name]
        if not value.isdigit() or not low <= int(value) <= high:
            raise ValueError(f"--reviews: {name} must be a whole number from {low} to "
                             f"{high}, got {value[:40]!r}")
        found[f"review_{name}"] = int(value)
    return found


def reminder_mail(settings: Any) -> str:
    """What `serve` says of its reminder mails ("" without --smtp); fails on a bad --smtp or
    --public-url, naming the problem and never the password."""
    from tlatelolco.web.notify.mail import parse_smtp
    from tlatelolco.web.notify.reminders import check_public_url

    try:
        if settings.public_url:
            settings.public_url = check_public_url(settings.public_url)
        if not settings.smtp:
            return ""
        server = parse_smtp(settings.smtp, settings.public_url)
    except ValueError as err:
        fail(f"--smtp/--public-url: {err}")
    return f"Reminder mails through {server.shown()}, from {server.sender}"


@app.command()
def serve(
    host: Annotated[str, typer.Option(help="Address to listen on (0.0.0.0 for other "
                                      "machines).")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port to listen on.")] = 8000,
    db: Annotated[str | None, typer.Option(
        help="Database URL: sqlite:///FILE (default sqlite:///tlatelolco.db, or "
        "$TLATELOLCO_DB) or postgresql://user:pass@host/db.")] = None,
    redis: Annotated[str | None, typer.Option(
        help="Redis URL for broadcasts between several server processes "
        "(default: in-process, or $TLATELOLCO_REDIS).")] = None,
    bot_workers: Annotated[int, typer.Option(
        help="Worker processes for bot seats (0: threads of the server).")] = 1,
    remote_workers: Annotated[bool, typer.Option(
        "--remote-workers", help="Run bot moves, hints and reviews on `tlatelolco worker` "
        "processes (any machine) through --redis instead of this machine's workers.")] = False,
    bot_delay: Annotated[str, typer.Option(
        help="Seconds a bot waits before each move, so people can follow: one number, or "
        "per game after it, e.g. '0.7,mexica=1.0,axio=0.5' (0: at once).")] = "0.7",
    limits: Annotated[str, typer.Option(
        help="Requests per minute and client address: creates, joins (claims and invites "
        "too), hints, sockets, logins; per hour: signups per address, name_logins per "
        "account name from any address, verify_mails (links verifying an e-mail address) "
        "per account and per address mailed; e.g. 'creates=10,joins=30,hints=20,sockets=120,"
        "logins=10,signups=5,name_logins=20,verify_mails=3'; 0 lifts one.")] = "",
    expire_days: Annotated[float, typer.Option(
        help="Delete unfinished games nobody moved for this many days (0: never); "
        "finished games stay (those of bots only: see --expire-bot-days).")] = 14.0,
    expire_bot_days: Annotated[float, typer.Option(
        help="Delete finished games in which no person held a seat this many days after "
        "they ended (0: never).")] = 1.0,
    quota: Annotated[str, typer.Option(
        help="Games per client address: unfinished games stored at once, games created "
        "(rematches too) in the last 24 hours; e.g. 'games=20,daily=200'; 0 lifts "
        "one.")] = "",
    max_connections: Annotated[int, typer.Option(
        help="Open connections (HTTP and WebSocket) the server holds at once; more are "
        "answered 503.")] = 1000,
    request_timeout: Annotated[float, typer.Option(
        "--request-timeout", "--header-timeout",
        help="Seconds a client has to send a whole request, headers and body, before it is "
        "answered 408 and cut off (--header-timeout is its old name).")] = 10.0,
    connections_per_client: Annotated[int, typer.Option(
        help="HTTP connections one client address may hold open at once; more are answered "
        "429 (0: no cap). A trusted proxy (--forwarded-allow-ips) is not capped.")] = 32,
    max_sockets: Annotated[int | None, typer.Option(
        help="WebSockets open at once; more are closed with code 1013 (default: three "
        "quarters of --max-connections, leaving room for pages and the API).")] = None,
    sockets_per_client: Annotated[int, typer.Option(
        help="WebSockets one client address may hold open; more are closed with code 1013 "
        "(0: no cap).")] = 20,
    forwarded_allow_ips: Annotated[str, typer.Option(
        help="Reverse proxies whose X-Forwarded-For names the client, e.g. '127.0.0.1' or "
        "'10.0.0.0/8,::1' ('*': every peer). Default: none, every address is the peer's "
        "(FORWARDED_ALLOW_IPS is not read).")] = "",
    reviews: Annotated[str, typer.Option(
        help="Game reviews: worker processes (low priority, apart from the bots'), reviews "
        "queued at once, per client, and search iterations per decision (default: per "
        "game); e.g. 'workers=1,queue=8,per_client=1'.")] = "",
    smtp: Annotated[str | None, typer.Option(
        help="Mail server for turn reminders: smtp://host[:port] (a relay on this machine), "
        "smtps://user:password@host[:465] or smtp+starttls://user:password@host[:587], with "
        "?from=ADDRESS (default tlatelolco@ the --public-url's host). Better given as "
        "$TLATELOLCO_SMTP: a command line is visible to every user of the machine. The "
        "password is never printed or logged.")] = None,
    public_url: Annotated[str | None, typer.Option(
        help="The address players reach this server at, e.g. https://games.example.org: "
        "the links in reminder mails and pushes (default: $TLATELOLCO_PUBLIC_URL; needed "
        "with --smtp).")] = None,
    log_level: Annotated[str, typer.Option(help="Uvicorn's log level.")] = "info",
) -> None:
    """Run the web app: lobby, games in the browser with friends and bots, replays."""
    if bot_workers < 0 or expire_days < 0 or expire_bot_days < 0:
        fail("--bot-workers, --expire-days and --expire-bot-days cannot be negative")
    try:
        delay, delays = parse_bot_delay(bot_delay)
    except ValueError as err:
        fail(str(err))
    if not 0 < request_timeout <= 3600:
        fail(f"--request-timeout must be more than 0 and at most 3600 seconds, got "
             f"{request_timeout:g}")
    if max_connections < 2 or connections_per_client < 0 or sockets_per_client < 0:
        fail("--max-connections must be at least 2; --connections-per-client and "
             "--sockets-per-client cannot be negative (0: no cap)")
    sockets = max(1, max_connections * 3 // 4) if max_sockets is None else max_sockets
    if not 1 <= sockets < max_connections:
        fail(f"--max-sockets must be from 1 to {max_connections - 1} (below --max-connections, "
             f"so pages and the API keep room), got {sockets}")
    import uvicorn

    from tlatelolco.web import Settings, create_app
    from tlatelolco.web.http.limits import RateLimits
    from tlatelolco.web.http.protocol import TrustedProxies, guarded_protocol
    from tlatelolco.web.play.quota import Quota

    try:
        rate_limits = RateLimits.parse(limits)
        review_settings = parse_reviews(reviews)
        quotas = Quota.parse(quota)
        proxies = TrustedProxies(forwarded_allow_ips)
    except ValueError as err:
        fail(str(err))
    settings = Settings(bot_workers=bot_workers, bot_delay=delay, bot_delays=delays,
                        rate_limits=rate_limits, max_sockets=sockets,
                        sockets_per_client=sockets_per_client,
                        expire_after=expire_days * 86_400.0, **review_settings)
    settings.quota, settings.expire_bot_games = quotas, expire_bot_days * 86_400.0
    if db is not None:
        settings.db = db
    if redis is not None:
        settings.redis = redis or None
    if smtp is not None:
        settings.smtp = smtp or None
    if public_url is not None:
        settings.public_url = public_url or None
    mail = reminder_mail(settings)  # refused before the server starts, the password unshown
    from tlatelolco.web.storage.db import normalise_url

    if normalise_url(settings.db).startswith("postgresql"):  # refused before the server starts
        require("psycopg", "server")
    if settings.redis:
        require("redis", "server")
    if remote_workers:
        if not settings.redis:
            fail("--remote-workers sends jobs through Redis: give --redis URL too")
        require("rq", "server")
        settings.remote_workers = True
    from tlatelolco.web.storage.db import check_schema

    problem = check_schema(settings.db)  # a newer Tlatelolco's database: one line, no traceback
    if problem:
        fail(problem, FAILURE)
    Console().print(f"Tlatelolco on http://{host}:{port}/  (database: {settings.db}"
                    f"{', redis: ' + settings.redis if settings.redis else ''})", markup=False)
    if mail:
        Console().print(mail, markup=False)
    try:
        uvicorn.run(create_app(settings), host=host, port=port, log_level=log_level,
                    http=guarded_protocol(request_timeout, per_peer=connections_per_client,
                                          proxies=proxies),
                    proxy_headers=bool(proxies), forwarded_allow_ips=proxies.names,
                    ws_max_size=WS_MAX_SIZE,
                    limit_concurrency=max_connections, timeout_keep_alive=5,
                    ws_ping_interval=20, ws_ping_timeout=20)
    except RuntimeError as err:  # e.g. a second server on the same SQLite file
        fail(str(err), FAILURE)


WS_MAX_SIZE = 65_536  # bytes of one WebSocket frame (messages are far smaller)


app.command("arena")(arena_command)  # bot tournaments: tlatelolco/cli/arena.py
app.command("report")(report_command)  # balance reports: tlatelolco/cli/report.py
app.command("review")(review_command)  # game reviews: tlatelolco/cli/review.py
app.command("worker")(worker_command)  # remote bot workers: tlatelolco/cli/worker.py
app.add_typer(users_app)  # accounts, for the operator: tlatelolco/cli/users.py


def main() -> None:
    try:
        app()
    except MissingExtra as err:  # an optional part asked for but not installed
        Console(stderr=True).print(f"Error: {err}", markup=False, highlight=False)
        raise SystemExit(FAILURE) from None
