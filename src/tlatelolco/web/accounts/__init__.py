"""Accounts: people who log in, so that their seats, ratings and friends follow them."""
