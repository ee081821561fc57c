"""The arena: tournaments of bots with seats rotated, played in parallel, rated and stored.

    from tlatelolco.arena.results import summarize
    from tlatelolco.arena.runner import play_all
    from tlatelolco.arena.schedule import schedule

    matches = schedule("grand_bazaar", ["greedy", "random"], games=100, players=2, seed=1)
    summary = summarize(matches, play_all(matches, workers=2))

From the shell: `tlatelolco arena grand_bazaar --bots greedy,random --games 100`. Names are
imported from the modules (schedule, runner, results, storage), not re-exported here: the
function `schedule` would hide the module `schedule`, and importing this package stays free of
openskill; Ray is imported only by a run that asks for it.
"""
