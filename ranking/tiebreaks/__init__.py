"""Tie-breaks: the codes, the registry, the individual and team tie-breaks, lots, ratings, the presets."""
