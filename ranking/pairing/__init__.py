"""Pairing: the Berger tables, round robins and imported Swiss rounds, Swiss rounds by the Dutch system."""
