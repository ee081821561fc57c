"""Reminders: a mail (SMTP) and a Web Push when it becomes an account's turn in a game it is
not watching, when a turn-based turn runs short of time, and when a seat is filled for it."""
