"""The rank-by-round chart of a player's page: its coordinates (the template draws it as inline SVG)."""

from __future__ import annotations


def rank_chart(history: list[int], field: int, width: int = 320, height: int = 160, pad: int = 24) -> dict | None:
    """Coordinates of the rank-by-round chart (the template draws it as inline SVG)."""
    if len(history) < 2:
        return None
    step = (width - 2 * pad) / (len(history) - 1)
    scale = (height - 2 * pad) / max(field - 1, 1)
    points = [{"round": number, "place": place, "x": round(pad + (number - 1) * step, 1),
               "y": round(pad + (place - 1) * scale, 1)} for number, place in enumerate(history, start=1)]
    return {"places": ", ".join(str(place) for place in history),
            "width": width, "height": height, "pad": pad, "bottom": height - pad, "right": width - pad,
            "field": field, "points": points, "polyline": " ".join(f"{p['x']},{p['y']}" for p in points)}
