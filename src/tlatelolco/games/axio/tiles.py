"""Axio's tiles (AX-1): loading and checking a tile set, and turning tiles.

A tile is four corners, clockwise from the top-left: (top-left, top-right, bottom-right,
bottom-left); each a colour index 0..4 or EMPTY. Turning a tile clockwise by 90 degrees moves
what was top-left to top-right.
"""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path

COLOURS = ("red", "green", "blue", "orange", "purple")
NUM_COLOURS = 5
EMPTY = 5
NUM_TILES = 60
DEFAULT_TILES = "default"

Tile = tuple[int, int, int, int]


def turned(tile: Tile, rotation: int) -> Tile:
    """The corners after `rotation` quarter turns clockwise."""
    r = rotation % 4
    return tile[-r:] + tile[:-r] if r else tile  # type: ignore[return-value]


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
        try:
            text = Path(source).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as err:
            raise ValueError(f"cannot read {where}: {err}") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as err:
        raise ValueError(f"{where} is not valid JSON: {err}") from None
    return parse_tiles(data, where)


def parse_tiles(data: object, where: str = "tile set") -> tuple[Tile, ...]:
    if not isinstance(data, dict) or not isinstance(data.get("tiles"), list):
        raise ValueError(f"{where} must be a JSON object with a 'tiles' list")
    raw = data["tiles"]
    if len(raw) != NUM_TILES:
        raise ValueError(f"{where} has {len(raw)} tiles; Axio needs exactly {NUM_TILES}")
    tiles = []
    for i, corners in enumerate(raw):
        if not isinstance(corners, list) or len(corners) != 4:
            raise ValueError(f"{where}: tile {i} must list 4 corners, got {corners!r}")
        tile = []
        for corner in corners:
            if corner is None:
                tile.append(EMPTY)
            elif corner in COLOURS:
                tile.append(COLOURS.index(corner))
            else:
                raise ValueError(f"{where}: tile {i} has corner {corner!r}; allowed: "
                                 f"{', '.join(COLOURS)} or null (empty)")
        if tile.count(EMPTY) > 1:
            raise ValueError(f"{where}: tile {i} has {tile.count(EMPTY)} empty corners; "
                             "at most one is allowed")
        tiles.append((tile[0], tile[1], tile[2], tile[3]))
    return tuple(tiles)


def tile_text(tile: Tile) -> str:
    """'red/green/blue/–': the corners clockwise from the top-left."""
    return "/".join("–" if c == EMPTY else COLOURS[c] for c in tile)
