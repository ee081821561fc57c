"""Axio's tiles (AX-1): loading and checking a tile set, and turning tiles.

A tile is four corners, clockwise from the top-left: (top-left, top-right, bottom-right,
bottom-left); each a colour index 0..4 or EMPTY. Turning a tile clockwise by 90 degrees moves
what was top-left to top-right.
"""

from __future__ import annotations

import json
import os
import stat
from importlib import resources
from typing import Any

from tlatelolco.contract import shown

COLOURS = ("red", "green", "blue", "orange", "purple")
NUM_COLOURS = 5
EMPTY = 5
NUM_TILES = 60
DEFAULT_TILES = "default"
MAX_FILE_BYTES = 1_000_000  # a set of 60 tiles is about 3 KB; the shipped file with notes 6 KB

Tile = tuple[int, int, int, int]


def turned(tile: Tile, rotation: int) -> Tile:
    """The corners after `rotation` quarter turns clockwise."""
    r = rotation % 4
    return tile[-r:] + tile[:-r] if r else tile  # type: ignore[return-value]


_faces: dict[int, tuple[tuple[Tile, ...], tuple[tuple[Tile, Tile, Tile, Tile], ...]]] = {}


def faces(tiles: tuple[Tile, ...]) -> tuple[tuple[Tile, Tile, Tile, Tile], ...]:
    """`turned(tile, r)` of every tile of the set and every rotation: `faces(tiles)[i][r]`.

    Worked out once per set (found by identity: a game keeps its set), because scoring reads
    the corners of up to twelve placed tiles at every placement.
    """
    kept = _faces.get(id(tiles))
    if kept is None or kept[0] is not tiles:
        if len(_faces) >= 64:  # user tile sets come and go: start afresh
            _faces.clear()
        table = tuple((tile, turned(tile, 1), turned(tile, 2), turned(tile, 3)) for tile in tiles)
        kept = _faces[id(tiles)] = (tiles, table)
    return kept[1]


def empty_corner(tile: Tile) -> int:
    """The index of the tile's empty corner, or -1."""
    return tile.index(EMPTY) if EMPTY in tile else -1


def load_tiles(source: str = DEFAULT_TILES) -> tuple[Tile, ...]:
    """The tile set: the shipped default, or a JSON file in the same format.

    Raises `ValueError` naming what is wrong with a file (AX-1: 60 tiles, four corners each,
    colours from the set's list, at most one empty corner per tile).
    """
    if source == DEFAULT_TILES:
        text = (resources.files("tlatelolco.games.axio") / "data" / "axio_tiles.json").read_text(
            encoding="utf-8")
        where = "the default tile set"
    else:
        where = f"tile set {source}"
        text = read_file(source, where)
    try:
        data = json.loads(text)
    except json.JSONDecodeError as err:
        raise ValueError(f"{where} is not valid JSON: {err}") from None
    except RecursionError:
        raise ValueError(f"{where} nests lists or objects too deeply") from None
    return parse_tiles(data, where)


def read_file(path: str, where: str) -> str:
    """The text of a tile set file, with bounded work: anything but a regular file (a device
    such as /dev/zero would never end, a named pipe would block) and a file over
    `MAX_FILE_BYTES` are refused before their content is read."""
    def refuse(why: str) -> ValueError:
        return ValueError(f"cannot read {where}: {why}")

    try:
        if not stat.S_ISREG(os.stat(path).st_mode):
            raise refuse("it is not a regular file")
        # Non-blocking, and checked again once open: the path may have changed in between.
        with open(os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0)), "rb") as file:
            info = os.fstat(file.fileno())
            if not stat.S_ISREG(info.st_mode):
                raise refuse("it is not a regular file")
            if info.st_size > MAX_FILE_BYTES:
                raise refuse(f"it has {info.st_size} bytes; a tile set file has at most "
                             f"{MAX_FILE_BYTES}")
            data = file.read(MAX_FILE_BYTES + 1)
    except OSError as err:
        raise refuse(str(err)) from None
    if len(data) > MAX_FILE_BYTES:
        raise refuse(f"it has more than {MAX_FILE_BYTES} bytes")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as err:
        raise refuse(str(err)) from None


def parse_tiles(data: object, where: str = "tile set") -> tuple[Tile, ...]:
    if not isinstance(data, dict) or not isinstance(data.get("tiles"), list):
        raise ValueError(f"{where} must be a JSON object with a 'tiles' list")
    raw = data["tiles"]
    if len(raw) != NUM_TILES:
        raise ValueError(f"{where} has {len(raw)} tiles; Axio needs exactly {NUM_TILES}")
    tiles = []
    for i, corners in enumerate(raw):
        if not isinstance(corners, list) or len(corners) != 4:
            raise ValueError(f"{where}: tile {i} must list 4 corners, got {shown(corners)}")
        tile = []
        for corner in corners:
            if corner is None:
                tile.append(EMPTY)
            elif isinstance(corner, str) and corner in COLOURS:
                tile.append(COLOURS.index(corner))
            else:
                raise ValueError(f"{where}: tile {i} has corner {shown(corner)}; allowed: "
                                 f"{', '.join(COLOURS)} or null (empty)")
        if tile.count(EMPTY) > 1:
            raise ValueError(f"{where}: tile {i} has {tile.count(EMPTY)} empty corners; "
                             "at most one is allowed")
        tiles.append((tile[0], tile[1], tile[2], tile[3]))
    return tuple(tiles)


def tiles_data(tiles: tuple[Tile, ...]) -> dict[str, Any]:
    """The set as the JSON object `parse_tiles` reads, with nothing but its `tiles` list: the
    canonical form a game keeps in its options, so equal sets give equal options."""
    return {"tiles": [[None if c == EMPTY else COLOURS[c] for c in tile] for tile in tiles]}


def tile_text(tile: Tile) -> str:
    """'red/green/blue/–': the corners clockwise from the top-left."""
    return "/".join("–" if c == EMPTY else COLOURS[c] for c in tile)
