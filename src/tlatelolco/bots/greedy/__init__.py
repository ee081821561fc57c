"""Greedy heuristic bots, one module per game."""
