"""Standings: the ordering arithmetic, individual and team standings, play-offs, the final standings, scorecards."""
