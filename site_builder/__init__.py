"""Static standings site builder (Jinja2 + themes/); built by a later issue."""
