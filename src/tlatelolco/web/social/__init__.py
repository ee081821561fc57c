"""Profiles, ratings, leaderboards and friends: what makes a game site a place to come back to."""
