"""Undo within a turn: a game counts its undos, and the actions taken back are kept.

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-01
"""

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("undos", sa.Integer, nullable=False, server_default="0"))
    op.create_table(
        "takebacks",
        sa.Column("game_id", sa.String(16), sa.ForeignKey("games.id", ondelete="CASCADE"),
                  primary_key=True),
        sa.Column("undo", sa.Integer, primary_key=True),  # the game's undo number, from 1
        sa.Column("idx", sa.Integer, nullable=False),  # the step it had in the history
        sa.Column("action", sa.BigInteger, nullable=False),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("text", sa.String(200), nullable=False),  # its notation when it was played
        sa.Column("taken_at", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("takebacks")
    with op.batch_alter_table("games") as batch:
        batch.drop_column("undos")
