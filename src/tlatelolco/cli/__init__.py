"""The `tlatelolco` command line: play, replay, rules, list and bench, on top of the match runner.

Like every interface it holds no rules: it shows what states and observations say and passes
what people type to the game's own parser.
"""
