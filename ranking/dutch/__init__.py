"""The FIDE Dutch system (C.04.3, rules in force from 1 February 2026): pairing a Swiss round."""
