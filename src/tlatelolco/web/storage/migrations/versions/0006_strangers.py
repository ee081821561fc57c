"""A server strangers can share: who created each game (fair bot time, storage quotas), and
chat that belongs to the table (players' and spectators' channels, mutes).

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-03
"""

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        # the client address the game was created from: its bot time and storage are
        # counted against that address (null: created before this revision)
        batch.add_column(sa.Column("client", sa.String(64), nullable=True))
        # whether spectators may talk in their own channel (players always may in theirs)
        # a literal default: SQLite adds such a column in place, where an expression default
        # (sa.true()) made Alembic rebuild `games`, and dropping the old table deleted every
        # seat and move with it (ON DELETE CASCADE). '1' is true for SQLite and PostgreSQL.
        batch.add_column(sa.Column("spectator_chat", sa.Boolean, nullable=False,
                                   server_default="1"))
    op.create_index("ix_games_client_created", "games", ["client", "created_at"])
    with op.batch_alter_table("chat") as batch:
        batch.add_column(sa.Column("channel", sa.String(12), nullable=False,
                                   server_default="players"))  # players | spectators
        # a spectator's pseudonym for this game (a hash of the connection's address), so
        # that a player can mute them; null for a player
        batch.add_column(sa.Column("author", sa.String(24), nullable=True))
    op.create_table(
        "chat_mutes",
        sa.Column("game_id", sa.String(16), sa.ForeignKey("games.id", ondelete="CASCADE"),
                  primary_key=True),
        sa.Column("author", sa.String(24), primary_key=True),
        sa.Column("muted_at", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("chat_mutes")
    with op.batch_alter_table("chat") as batch:
        batch.drop_column("author")
        batch.drop_column("channel")
    op.drop_index("ix_games_client_created", table_name="games")
    with op.batch_alter_table("games") as batch:
        batch.drop_column("spectator_chat")
        batch.drop_column("client")
