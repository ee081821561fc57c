"""Invites apart from credentials: an open seat's single-use invite has its own hash.

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-01
"""

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("seats") as batch:
        batch.add_column(sa.Column("invite_hash", sa.String(64), nullable=True))
    # Before this revision an open seat's invite token was stored as its credential: it
    # becomes the seat's invite, so links already sent keep working (once).
    op.execute("UPDATE seats SET invite_hash = token_hash, token_hash = NULL "
               "WHERE kind = 'open'")
    op.create_index("ix_games_updated", "games", ["updated_at"])


def downgrade() -> None:
    op.drop_index("ix_games_updated", "games")
    op.execute("UPDATE seats SET token_hash = invite_hash WHERE kind = 'open'")
    with op.batch_alter_table("seats") as batch:
        batch.drop_column("invite_hash")
