"""Optional dependencies: a plain install works without them, and asking for a part whose extra
is missing is refused with the command that installs it (never a bare ImportError)."""

from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from tlatelolco import extras, tensors
from tlatelolco.cli import app as cli
from tlatelolco.extras import MissingExtra, require

ROOT = Path(__file__).resolve().parents[1]
OPTIONAL = {"numpy": "rl", "gymnasium": "rl", "pettingzoo": "rl", "open_spiel": "rl",
            "psycopg": "server", "redis": "server", "rq": "server", "ray": "cluster",
            "matplotlib": "report"}


def hide(monkeypatch: pytest.MonkeyPatch, *modules: str) -> None:
    """Make `modules` (and everything under them) unimportable, as if not installed."""
    for name in list(sys.modules):
        if name in modules or name.startswith(tuple(m + "." for m in modules)):
            monkeypatch.delitem(sys.modules, name)
    for name in modules:
        monkeypatch.setitem(sys.modules, name, None)


def run_cli(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
            *args: str) -> str:
    """`tlatelolco ARGS` in this process; its exit must be a refusal. Returns stderr."""
    monkeypatch.setattr(sys, "argv", ["tlatelolco", *args])
    with pytest.raises(SystemExit) as exited:
        cli.main()
    assert exited.value.code == 1
    return capsys.readouterr().err


def test_require_imports_or_names_the_install_command() -> None:
    assert require("json", "rl").__name__ == "json"
    with pytest.raises(MissingExtra) as err:
        require("no_such_module_here", "cluster")
    message = " ".join(str(err.value).split())
    assert "pip install 'tlatelolco[cluster]'" in message
    assert "'no_such_module_here'" in message and "ray" in message
    assert isinstance(err.value, ImportError)  # code that catches ImportError still works
    with pytest.raises(ValueError, match="unknown extra 'gpu'; extras: rl, server"):
        require("json", "gpu")


def test_the_plain_install_lists_no_optional_package() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    plain = " ".join(project["dependencies"]).lower()
    for module, extra in OPTIONAL.items():
        assert module.replace("_", "") not in plain.replace("_", "").replace("-", "")
        listed = " ".join(project["optional-dependencies"][extra]).lower()
        assert module in listed.replace("-", "_"), (module, extra)
    assert set(extras.EXTRAS) <= set(project["optional-dependencies"])


def test_games_bots_terminal_and_web_app_import_no_optional_package() -> None:
    code = ("import sys, tlatelolco, tlatelolco.cli.app, tlatelolco.web.app, tlatelolco.bots, "
            "tlatelolco.arena.runner, tlatelolco.report, tlatelolco.rl\n"
            "for name in tlatelolco.list_games():\n"
            "    state = tlatelolco.load(name).new_initial_state()\n"
            "    state.legal_actions(); state.observation(0)\n"
            f"print(sorted(m for m in {sorted(OPTIONAL)!r} if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert out.strip() == "[]"


def test_tensors_without_numpy_name_the_rl_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    import tlatelolco

    hide(monkeypatch, "numpy")
    monkeypatch.setattr(tensors, "_numpy", None)
    state = tlatelolco.load("grand_bazaar").new_initial_state()
    for tensor in (state.legal_actions_mask, lambda: state.observation_tensor(0)):
        with pytest.raises(MissingExtra, match=r"pip install 'tlatelolco\[rl\]'"):
            tensor()


@pytest.mark.parametrize("module", ["tlatelolco.rl.pettingzoo", "tlatelolco.rl.gymnasium",
                                    "tlatelolco.rl.openspiel"])
def test_rl_environments_without_their_packages_name_the_rl_extra(
        monkeypatch: pytest.MonkeyPatch, module: str) -> None:
    hide(monkeypatch, "numpy", "gymnasium", "pettingzoo", "pyspiel", "open_spiel")
    monkeypatch.delitem(sys.modules, module, raising=False)  # imported afresh
    monkeypatch.setattr(tensors, "_numpy", None)
    with pytest.raises(MissingExtra, match=r"pip install 'tlatelolco\[rl\]'"):
        __import__(module)


def test_serve_on_postgresql_without_the_driver_names_the_server_extra(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    hide(monkeypatch, "psycopg")
    err = run_cli(monkeypatch, capsys, "serve", "--db", "postgresql://me@localhost/games")
    assert "pip install 'tlatelolco[server]'" in " ".join(err.split())
    assert "Traceback" not in err


def test_serve_with_redis_without_the_client_names_the_server_extra(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        tmp_path: Path) -> None:
    hide(monkeypatch, "redis")
    err = run_cli(monkeypatch, capsys, "serve", "--db", str(tmp_path / "t.db"),
                  "--redis", "redis://localhost:6379/0")
    assert "pip install 'tlatelolco[server]'" in " ".join(err.split())


def test_the_web_database_refuses_postgresql_without_the_driver(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from tlatelolco.web.storage.db import make_engine

    hide(monkeypatch, "psycopg")
    with pytest.raises(MissingExtra, match="server"):
        make_engine("postgresql://me@localhost/games")
    make_engine("sqlite://")  # SQLite needs nothing more


def test_arena_on_ray_without_ray_names_the_cluster_extra(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        tmp_path: Path) -> None:
    hide(monkeypatch, "ray")
    err = run_cli(monkeypatch, capsys, "arena", "grand_bazaar", "--bots", "random,random",
                  "--games", "1", "--ray", "local", "--out", str(tmp_path / "run"))
    assert "pip install 'tlatelolco[cluster]'" in " ".join(err.split())
    assert not (tmp_path / "run").exists()  # refused before anything was made


def test_report_without_matplotlib_names_the_report_extra(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        tmp_path: Path) -> None:
    hide(monkeypatch, "matplotlib")  # and the report's modules are imported afresh:
    monkeypatch.delitem(sys.modules, "tlatelolco.report.build", raising=False)
    monkeypatch.delitem(sys.modules, "tlatelolco.report.plots", raising=False)
    err = run_cli(monkeypatch, capsys, "report", "grand_bazaar", "--games", "1",
                  "--out", str(tmp_path / "report"))
    assert "pip install 'tlatelolco[report]'" in " ".join(err.split())
