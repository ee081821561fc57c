"""Play over days: accounts and their sessions, seats that follow an account, turn-based games
with a clock, reminders (mail and Web Push), ratings with their history, and friends.

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-03
"""

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None

STAMP = sa.DateTime(timezone=True)


def _user(**kw: object) -> sa.Column:
    return sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id", ondelete="CASCADE"), **kw)


def upgrade() -> None:
    op.create_table(
        "users",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("name", sa.String(40), nullable=False),
        sa.Column("name_key", sa.String(40), nullable=False, unique=True),
        sa.Column("password_hash", sa.String(200), nullable=False),
        sa.Column("email", sa.String(254), nullable=True),
        sa.Column("email_verified", sa.Boolean, nullable=False, server_default=sa.false()),
        sa.Column("lang", sa.String(5), nullable=True),
        sa.Column("notify_email", sa.Boolean, nullable=False, server_default=sa.false()),
        sa.Column("notify_push", sa.Boolean, nullable=False, server_default=sa.false()),
        sa.Column("disabled", sa.Boolean, nullable=False, server_default=sa.false()),
        sa.Column("created_at", STAMP, nullable=False),
        sa.Column("password_changed_at", STAMP, nullable=True),
    )
    op.create_table(
        "sessions",
        sa.Column("id_hash", sa.String(64), primary_key=True),
        _user(nullable=False),
        sa.Column("created_at", STAMP, nullable=False),
        sa.Column("expires_at", STAMP, nullable=False),
        sa.Column("client", sa.String(64), nullable=True),
    )
    op.create_index("ix_sessions_user", "sessions", ["user_id"])
    op.create_table(
        "friends",
        _user(primary_key=True),
        sa.Column("friend_id", sa.Integer, sa.ForeignKey("users.id", ondelete="CASCADE"),
                  primary_key=True),
        sa.Column("created_at", STAMP, nullable=False),
    )
    op.create_table(
        "ratings",
        _user(primary_key=True),
        sa.Column("game", sa.String(32), primary_key=True),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("played", sa.Integer, nullable=False, server_default="0"),
        sa.Column("won", sa.Integer, nullable=False, server_default="0"),
        sa.Column("updated_at", STAMP, nullable=False),
    )
    op.create_table(
        "rating_history",
        _user(primary_key=True),
        sa.Column("game_id", sa.String(16), primary_key=True),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("rank", sa.Integer, nullable=False),
        sa.Column("at", STAMP, nullable=False),
    )
    op.create_index("ix_rating_history_user_game", "rating_history", ["user_id", "game", "at"])
    op.create_table(
        "rated_games",
        sa.Column("game_id", sa.String(16), primary_key=True),
        sa.Column("at", STAMP, nullable=False),
    )
    op.create_table(
        "leavers",
        sa.Column("game_id", sa.String(16), sa.ForeignKey("games.id", ondelete="CASCADE"),
                  primary_key=True),
        _user(primary_key=True),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("at", STAMP, nullable=False),
    )
    op.create_table(
        "reminders",
        _user(primary_key=True),
        sa.Column("game_id", sa.String(16), primary_key=True),
        sa.Column("turn", sa.Integer, primary_key=True),
        sa.Column("kind", sa.String(8), primary_key=True),
        sa.Column("channel", sa.String(8), primary_key=True),
        sa.Column("sent_at", STAMP, nullable=False),
    )
    op.create_table(
        "push_subscriptions",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        _user(nullable=False),
        sa.Column("endpoint", sa.String(1000), nullable=False, unique=True),
        sa.Column("p256dh", sa.String(200), nullable=False),
        sa.Column("auth", sa.String(100), nullable=False),
        sa.Column("created_at", STAMP, nullable=False),
    )
    op.create_index("ix_push_user", "push_subscriptions", ["user_id"])
    op.create_table(
        "server_keys",
        sa.Column("name", sa.String(32), primary_key=True),
        sa.Column("value", sa.Text, nullable=False),
        sa.Column("created_at", STAMP, nullable=False),
    )
    with op.batch_alter_table("games") as batch:
        # every game stored before this revision is a live one, as they all were
        batch.add_column(sa.Column("speed", sa.String(8), nullable=False, server_default="live"))
        batch.add_column(sa.Column("move_time", sa.Integer, nullable=True))
        batch.add_column(sa.Column("on_timeout", sa.String(8), nullable=True))
        batch.add_column(sa.Column("turn_seat", sa.Integer, nullable=True))
        batch.add_column(sa.Column("turn_started_at", STAMP, nullable=True))
    with op.batch_alter_table("seats") as batch:
        # the seats of guests keep their credentials and have no account
        batch.add_column(sa.Column("user_id", sa.Integer, nullable=True))
        batch.add_column(sa.Column("timeouts", sa.Integer, nullable=False, server_default="0"))
        batch.add_column(sa.Column("forfeited", sa.Boolean, nullable=False,
                                   server_default=sa.false()))
        batch.create_foreign_key("fk_seats_user", "users", ["user_id"], ["id"],
                                 ondelete="SET NULL")
    op.create_index("ix_seats_user", "seats", ["user_id"])


def downgrade() -> None:
    op.drop_index("ix_seats_user", table_name="seats")
    with op.batch_alter_table("seats") as batch:
        batch.drop_constraint("fk_seats_user", type_="foreignkey")
        batch.drop_column("forfeited")
        batch.drop_column("timeouts")
        batch.drop_column("user_id")
    clock = ("turn_started_at", "turn_seat", "on_timeout", "move_time", "speed")
    if op.get_bind().dialect.name == "sqlite":
        # SQLite (3.35 on) drops these columns in place. A batch copy of `games` would end
        # with DROP TABLE games, which with foreign keys on deletes every seat, action and
        # chat line of every game (ON DELETE CASCADE).
        for column in clock:
            op.execute(f"ALTER TABLE games DROP COLUMN {column}")
    else:
        with op.batch_alter_table("games") as batch:
            for column in clock:
                batch.drop_column(column)
    for table in ("server_keys", "push_subscriptions", "reminders", "leavers", "rated_games",
                  "rating_history", "ratings", "friends", "sessions", "users"):
        op.drop_table(table)
