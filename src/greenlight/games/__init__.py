"""Game packages. Each subpackage exposes ``GAME`` and has the same shape:
spec, state, actions, rules, view, cards, data/, bots."""
