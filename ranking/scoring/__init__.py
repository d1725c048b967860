"""Scoring and points: the scoring systems and rules, each player's and team's rounds as scored, results as written."""
