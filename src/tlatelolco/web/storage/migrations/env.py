"""Alembic environment: runs on the connection `tlatelolco.web.storage.db.upgrade` hands over, or on
`sqlalchemy.url` when run from the alembic command line."""

from alembic import context
from sqlalchemy import engine_from_config, pool

from tlatelolco.web.storage.db import metadata, normalise_url

config = context.config
connection = config.attributes.get("connection")

if connection is not None:
    context.configure(connection=connection, target_metadata=metadata,
                      render_as_batch=connection.dialect.name == "sqlite")
    with context.begin_transaction():
        context.run_migrations()
else:
    section = config.get_section(config.config_ini_section) or {}
    section["sqlalchemy.url"] = normalise_url(section["sqlalchemy.url"])
    connectable = engine_from_config(section, prefix="sqlalchemy.", poolclass=pool.NullPool)
    with connectable.connect() as conn:
        context.configure(connection=conn, target_metadata=metadata)
        with context.begin_transaction():
            context.run_migrations()
