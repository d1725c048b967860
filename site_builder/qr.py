"""QR codes for the printed round sheets: the event's page and the bot's deep link, encoded by
segno and given to the templates as an SVG path (the templates draw it: no image file, no
external URL)."""

from __future__ import annotations

QUIET_ZONE = 4  # modules of white around the code (ISO/IEC 18004)
#: The codes made so far, by text: a build starts from the previous build's (its ``.qr.json``),
#: as encoding one costs some 10-30 ms.
CODES: dict[str, dict] = {}


def qr_code(text: str) -> dict:
    """``text`` as a QR code: ``size`` (modules, quiet zone included) and ``path``, the dark
    modules as an SVG path in module units (one ``M x y h w v1 h-w z`` per run of a row)."""
    known = CODES.get(text)
    if known is None or known.get("text") != text:
        known = CODES[text] = _encode(text)
    return known


def _encode(text: str) -> dict:
    import segno  # only when a code is not known yet: its imports cost a tenth of a second per build

    code = segno.make_qr(text, error="m")
    runs = []
    for y, row in enumerate(code.matrix_iter(border=QUIET_ZONE)):
        x, cells = 0, list(row)
        while x < len(cells):
            if cells[x]:
                start = x
                while x < len(cells) and cells[x]:
                    x += 1
                runs.append(f"M{start} {y}h{x - start}v1h-{x - start}z")
            else:
                x += 1
    size = code.symbol_size(border=QUIET_ZONE)[0]
    return {"text": text, "size": size, "path": "".join(runs)}
