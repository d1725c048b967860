"""The tournament's texts: TRF (its fields, its extras) and the tournament TOML file."""
