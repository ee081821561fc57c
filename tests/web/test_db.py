"""The schema: Alembic's migrations build exactly the tables the code declares."""

from __future__ import annotations

from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import inspect

from tlatelolco.web.storage.db import make_engine, metadata, normalise_url, upgrade


def test_migrations_match_the_declared_tables_and_run_twice(tmp_path):
    engine = make_engine(f"sqlite:///{tmp_path / 'schema.db'}")
    upgrade(engine)
    upgrade(engine)  # a second start finds the schema current
    assert {"games", "seats", "actions", "alembic_version"} <= set(
        inspect(engine).get_table_names())
    with engine.connect() as connection:
        differences = compare_metadata(MigrationContext.configure(connection), metadata)
    assert differences == []


def test_database_urls_are_normalised():
    assert normalise_url("postgresql://u:p@h/db") == "postgresql+psycopg://u:p@h/db"
    assert normalise_url("games.db") == "sqlite:///games.db"
    assert normalise_url("sqlite:///x.db") == "sqlite:///x.db"
