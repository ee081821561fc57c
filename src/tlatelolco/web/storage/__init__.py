"""Storage: the schema, its Alembic migrations and the queries games are kept with."""
