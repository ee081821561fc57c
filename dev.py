#!/usr/bin/env python3
"""Tlatelolco's bootstrap: one entry point for developers and CI, standard library only.

    python3 dev.py COMMAND [ARGS...]

Commands:
    setup [--force] [--train]
                      create .venv if needed, install requirements.lock, then the project
                      editable (skipped when requirements.lock and pyproject.toml are unchanged);
                      --train also installs PyTorch (CPU) and sb3-contrib for
                      examples/train_maskable_ppo.py (CI does, to run its smoke test)
    test [ARGS]       ruff check src tests, then pytest -n 2 --dist worksteal --durations=30 ARGS
                      (non-zero if either fails)
    serve [ARGS]      tlatelolco serve ARGS: the web app on http://127.0.0.1:8000/
    play [ARGS]       tlatelolco play ARGS (default: grand_bazaar)
    bench [ARGS]      tlatelolco bench ARGS
    run -- CMD...     run CMD with the venv's executables first on PATH
    lock              regenerate requirements.lock in a throwaway venv

Every command except lock sets up .venv first. The exit code is the command's. A leading `--`
in ARGS is dropped, so `python3 dev.py bench -- --seconds 1` passes `--seconds 1` along.
"""

import sys

MIN_PYTHON = (3, 11)
if sys.version_info < MIN_PYTHON:
    sys.exit(
        "dev.py needs Python {}.{} or newer; this is {} ({}). Run it with a newer python3.".format(
            *MIN_PYTHON, sys.version.split()[0], sys.executable
        )
    )

import hashlib  # noqa: E402  (after the version check, which must run first)
import os  # noqa: E402
import re  # noqa: E402
import shutil  # noqa: E402
import subprocess  # noqa: E402
import tempfile  # noqa: E402
import tomllib  # noqa: E402
from collections.abc import Callable, Sequence  # noqa: E402
from pathlib import Path  # noqa: E402

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
LOCK = ROOT / "requirements.lock"
PYPROJECT = ROOT / "pyproject.toml"
STAMP = VENV / ".setup-stamp"
WINDOWS = os.name == "nt"
PIP_FLAGS = ("--disable-pip-version-check", "--no-input", "--quiet")
# The training example's packages: not in the lock, since PyTorch is large and most developers
# never train. The CPU build of torch comes from a configured wheel source or PyTorch's own index.
TRAIN = ("torch==2.13.0+cpu", "sb3-contrib==2.9.2")
TORCH_CPU_INDEX = "https://download.pytorch.org/whl/cpu"
DEV_EXTRAS = "all,test"  # every extra but `train` (PyTorch), so the test suite skips nothing
LOCK_HEADER = """\
# Pinned runtime and test dependencies of tlatelolco (the project itself is not listed).
# Do not edit by hand: change the dependencies in pyproject.toml, then regenerate with
#     python3 dev.py lock
# which creates a throwaway venv, runs `pip install -e '.[all,test]'` in it, then writes
# `pip freeze --exclude-editable` here. `python3 dev.py setup` installs this file.
"""


def say(message: str) -> None:
    """A short progress line, on stderr so that a command's own output stays clean."""
    print(f"dev: {message}", file=sys.stderr, flush=True)


def bin_dir(venv: Path) -> Path:
    return venv / ("Scripts" if WINDOWS else "bin")


def venv_python(venv: Path) -> Path:
    return bin_dir(venv) / ("python.exe" if WINDOWS else "python")


def exit_code(returncode: int) -> int:
    """A child's exit code as a shell reports it (killed by signal N -> 128 + N)."""
    return 128 - returncode if returncode < 0 else returncode


def call(cmd: Sequence[str | os.PathLike[str]], cwd: Path | None = None,
         env: dict[str, str] | None = None) -> int:
    """Run `cmd` to the end and return its exit code."""
    return exit_code(subprocess.run([os.fspath(c) for c in cmd], cwd=cwd, env=env).returncode)


def venv_env() -> dict[str, str]:
    """This process's environment as if the venv were activated."""
    env = dict(os.environ)
    env.pop("PYTHONHOME", None)
    env["VIRTUAL_ENV"] = str(VENV)
    env["PATH"] = os.pathsep.join([str(bin_dir(VENV)), env.get("PATH", "")])
    return env


# --- setting up .venv ------------------------------------------------------------------------


def python_works(python: Path) -> bool:
    """Whether `python` runs and is new enough (a moved or half-built venv fails here)."""
    if not python.exists():
        return False
    check = f"import sys; sys.exit(sys.version_info < {MIN_PYTHON!r})"
    try:
        return subprocess.run([python, "-c", check], capture_output=True).returncode == 0
    except OSError:
        return False


def create_venv(venv: Path) -> None:
    """A new venv at `venv` made by this Python, replacing whatever was there."""
    if venv.exists():
        shutil.rmtree(venv)
    code = call([sys.executable, "-m", "venv", venv])
    if code != 0 or not python_works(venv_python(venv)):
        shutil.rmtree(venv, ignore_errors=True)
        raise SystemExit(
            f"dev: could not create a venv with {sys.executable} (exit {code}). On Debian or "
            "Ubuntu install the venv module first: apt-get install python3-venv")


def stamp() -> str:
    """What the installed venv depends on: requirements.lock, pyproject.toml and this path."""
    digest = hashlib.sha256()
    for part in (LOCK.read_bytes(), PYPROJECT.read_bytes(), os.fsencode(ROOT)):
        digest.update(len(part).to_bytes(8, "big"))
        digest.update(part)
    return digest.hexdigest()


def pip(python: Path, *args: str | os.PathLike[str]) -> int:
    return call([python, "-m", "pip", *PIP_FLAGS, *args])


def setup(force: bool = False) -> int:
    """Make .venv match requirements.lock and the project; skipped when nothing changed."""
    if not LOCK.exists():
        say(f"{LOCK.name} is missing; create it with: python3 dev.py lock")
        return 1
    python = venv_python(VENV)
    if not python_works(python):
        say("setting up .venv ..." if not VENV.exists() else "recreating broken .venv ...")
        create_venv(VENV)
    wanted = stamp()
    if not force and STAMP.exists() and STAMP.read_text().strip() == wanted:
        return 0
    STAMP.unlink(missing_ok=True)
    if subprocess.run([python, "-m", "pip", "--version"], capture_output=True).returncode != 0:
        say("pip is broken in .venv; recreating it ...")
        create_venv(VENV)
    say(f"installing {LOCK.name} into .venv ...")
    code = pip(python, "install", "-r", LOCK)
    if code != 0:
        say(f"installing {LOCK.name} failed (exit {code})")
        return code
    say("installing the project (editable) ...")
    code = pip(python, "install", "--no-deps", "-e", ROOT)
    if code != 0:
        say(f"installing the project failed (exit {code})")
        return code
    STAMP.write_text(wanted + "\n")
    say(".venv is ready")
    return 0


# --- commands --------------------------------------------------------------------------------


def in_venv(cmd: Sequence[str], cwd: Path | None = None) -> int:
    """Run `cmd` with the venv's executables first on PATH; 127 when it is not found."""
    env = venv_env()
    found = shutil.which(cmd[0], path=env["PATH"])
    if found is None:
        say(f"command not found: {cmd[0]}")
        return 127
    return call([found, *cmd[1:]], cwd=cwd, env=env)


def setup_train() -> int:
    """Install `TRAIN` into .venv (after `setup`)."""
    python = venv_python(VENV)
    have = subprocess.run([python, "-c", "import torch, sb3_contrib"], capture_output=True)
    if have.returncode == 0:
        return 0
    say(f"installing {', '.join(TRAIN)} into .venv ...")
    code = pip(python, "install", *TRAIN)
    if code != 0:
        say(f"retrying with PyTorch's CPU index, {TORCH_CPU_INDEX} ...")
        code = pip(python, "install", "--extra-index-url", TORCH_CPU_INDEX, *TRAIN)
    return code


def cmd_setup(args: list[str]) -> int:
    if not set(args) <= {"--force", "--train"} or len(set(args)) != len(args):
        say("usage: python3 dev.py setup [--force] [--train]")
        return 2
    code = setup(force="--force" in args)
    return setup_train() if code == 0 and "--train" in args else code


def cmd_test(args: list[str]) -> int:
    python = str(venv_python(VENV))
    lint = in_venv([python, "-m", "ruff", "check", "src", "tests"], cwd=ROOT)
    # the 30 slowest tests are listed at the end: what to look at when CI nears its 30 minutes
    tests = in_venv([python, "-m", "pytest", "-n", "2", "--dist", "worksteal", "--durations=30",
                     *args], cwd=ROOT)
    if lint != 0:
        say(f"ruff check failed (exit {lint})")
    if tests != 0:
        say(f"pytest failed (exit {tests})")
    return tests or lint


def cmd_play(args: list[str]) -> int:
    return in_venv(["tlatelolco", "play", *(args or ["grand_bazaar"])])


def cmd_serve(args: list[str]) -> int:
    return in_venv(["tlatelolco", "serve", *args])


def cmd_bench(args: list[str]) -> int:
    return in_venv(["tlatelolco", "bench", *args])


def cmd_run(args: list[str]) -> int:
    if not args:
        say("usage: python3 dev.py run -- CMD [ARGS...]")
        return 2
    return in_venv(args)


def cmd_lock(args: list[str]) -> int:
    """Regenerate requirements.lock: a throwaway venv, install the project with every extra the
    tests need (DEV_EXTRAS), freeze."""
    if args:
        say("usage: python3 dev.py lock")
        return 2
    project = tomllib.loads(PYPROJECT.read_text(encoding="utf-8"))["project"]["name"]
    with tempfile.TemporaryDirectory(prefix="tlatelolco-lock-") as tmp:
        venv = Path(tmp) / "venv"
        say(f"creating a throwaway venv in {venv} ...")
        create_venv(venv)
        python = venv_python(venv)
        say(f"installing {project}[{DEV_EXTRAS}] into it ...")
        code = pip(python, "install", "-e", f"{ROOT}[{DEV_EXTRAS}]")
        if code != 0:
            say(f"installing failed (exit {code}); {LOCK.name} is unchanged")
            return code
        frozen = subprocess.run([python, "-m", "pip", *PIP_FLAGS, "freeze", "--exclude-editable"],
                                capture_output=True, text=True)
        if frozen.returncode != 0:
            sys.stderr.write(frozen.stderr)
            return exit_code(frozen.returncode)
    pins = sorted(
        (line for line in frozen.stdout.splitlines()
         if line and not line.startswith(("#", "-e")) and name_of(line) != canonical(project)),
        key=name_of)
    LOCK.write_text(LOCK_HEADER + "\n".join(pins) + "\n", encoding="utf-8")
    say(f"wrote {len(pins)} pins to {LOCK.name}")
    return 0


def name_of(requirement: str) -> str:
    """The canonical name of a freeze line (`Name==1.0` or `name @ url`)."""
    return canonical(re.split(r"[=@<>!~; ]", requirement, maxsplit=1)[0])


def canonical(name: str) -> str:
    """A distribution name as PEP 503 compares it."""
    return re.sub(r"[-_.]+", "-", name).lower()


COMMANDS: dict[str, Callable[[list[str]], int]] = {
    "setup": cmd_setup,
    "test": cmd_test,
    "serve": cmd_serve,
    "play": cmd_play,
    "bench": cmd_bench,
    "run": cmd_run,
    "lock": cmd_lock,
}
NO_SETUP = {"setup", "lock"}


def main(argv: list[str]) -> int:
    if not argv or argv[0] in ("-h", "--help", "help"):
        print(__doc__)
        return 0 if argv else 2
    command, args = argv[0], argv[1:]
    if command not in COMMANDS:
        say(f"unknown command {command!r}; commands: {', '.join(COMMANDS)}")
        return 2
    if args[:1] == ["--"]:
        args = args[1:]
    try:
        if command not in NO_SETUP:
            code = setup()
            if code != 0:
                return code
        return COMMANDS[command](args)
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
