"""Tlatelolco's games for reinforcement learning, the way the field's tools expect them.

- `tlatelolco.rl.pettingzoo`: an AEC environment per game (every seat an agent).
- `tlatelolco.rl.gymnasium`: one learner against bots, registered as `tlatelolco/<Game>-v0`.
- `tlatelolco.rl.openspiel`: the games registered in OpenSpiel as `python_tlatelolco_<game>`.

Each needs the `rl` extra (`pip install 'tlatelolco[rl]'`); importing this package does not.
The observations are the contract's tensors (`State.observation_tensor`, `legal_actions_mask`);
see docs/rl.md.
"""
