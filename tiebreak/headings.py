"""Column headings of tie-break codes in each language: the site's tables and the bot's replies
head a column in the reader's language (小分, Hệ số, Victorias) and keep the code for the legend
beside it (CXA 14.1 「小分」, ZS 「对手分」「扣除对手分」「中间对手分」, VN 21.3 "hệ số").

A glossary, not sentences: a heading may be the code itself (English uses FIDE's codes), which
a gettext catalogue would count as untranslated, so the headings live here, one table for the
site (``full``: words) and the bot (``short``: a phone's narrow table), and both call
``column_heading``.

>>> column_heading("BH-C1", "zh"), column_heading("BH/M1", "zh"), column_heading("SB", "vi")
('扣除对手分1', '中间对手分1', 'Hệ số')
>>> column_heading("BH-C1", "es"), column_heading("BH-C1", "zh", short=True), column_heading("BH-C1", "en")
('Buchholz −1', '对手分-C1', 'BH-C1')
>>> column_heading("WIN:T", "zh", team=True), column_heading("BH:MP", "vi", team=True)
('队胜局', 'Điểm đối thủ (điểm trận)')
"""

from __future__ import annotations

from ranking.errors import InputError

#: Headings of the individual codes, by language (English: the codes themselves).
INDIVIDUAL: dict[str, dict[str, str]] = {
    "zh": {"BH": "对手分", "FB": "预估对手分", "AOB": "对手平均对手分", "SB": "小分", "KS": "科亚分", "WIN": "胜局",
           "WON": "实战胜局", "BPG": "后走局数", "BWG": "后走胜局", "PS": "累进分", "REP": "自愿轮次", "STD": "标准分",
           "FOUL": "犯规", "GP": "局分", "TPN": "编排号", "RTNG": "等级分", "ARO": "对手平均等级分", "TPR": "表现分",
           "PTP": "完美表现分", "APRO": "对手平均表现分", "APPO": "对手平均完美表现分", "DE": "直胜", "DEB": "对局后走",
           "PREV": "比较前轮", "PS-D": "去轮累进分", "LOT": "抽签"},
    "vi": {"BH": "Điểm đối thủ", "FB": "Điểm đối thủ dự tính", "AOB": "TB điểm đối thủ của đối thủ", "SB": "Hệ số",
           "KS": "Koya", "WIN": "Số ván thắng", "WON": "Ván thắng", "BPG": "Số ván cầm đen", "BWG": "Thắng cầm đen",
           "PS": "Lũy tiến", "REP": "Số ván chọn đấu", "STD": "Điểm tiêu chuẩn", "FOUL": "Phạm quy", "GP": "Điểm ván",
           "TPN": "Số xếp cặp", "RTNG": "Elo", "ARO": "Elo TB đối thủ", "TPR": "Elo thành tích",
           "PTP": "Thành tích hoàn hảo", "APRO": "TB thành tích đối thủ", "APPO": "TB hoàn hảo đối thủ",
           "DE": "Đối đầu", "DEB": "Đi sau khi đối đầu", "PREV": "Các ván trước", "PS-D": "Lũy tiến bỏ ván đầu",
           "LOT": "Bốc thăm"},
    "es": {"BH": "Buchholz", "FB": "Buchholz anticipado", "AOB": "Buchholz medio rivales", "SB": "Sonneborn-Berger",
           "KS": "Koya", "WIN": "Victorias", "WON": "Ganadas", "BPG": "Con negras", "BWG": "Victorias con negras",
           "PS": "Progresivo", "REP": "Rondas elegidas", "STD": "Puntos estándar", "FOUL": "Faltas",
           "GP": "Puntos de partida", "TPN": "Número de emparejamiento", "RTNG": "Elo", "ARO": "Elo medio rivales",
           "TPR": "Rendimiento", "PTP": "Rendimiento perfecto", "APRO": "Rendimiento medio rivales",
           "APPO": "Rend. perfecto medio rivales", "DE": "Encuentro directo", "DEB": "Negras en el directo",
           "PREV": "Rondas anteriores", "PS-D": "Progresivo sin primeras", "LOT": "Sorteo"},
}

#: Headings of the team codes, by language (English: the codes themselves).
TEAM: dict[str, dict[str, str]] = {
    "zh": {"MP": "场分", "GP": "局分", "MPVGP": "另一积分", "BH": "对手分", "ESB": "扩展小分", "SSSC": "积分强度",
           "EDE": "扩展直胜", "BC": "台次计分", "TBR": "高台成绩", "BBE": "逐台去尾", "EDEBT": "扩展直胜（台次、高台）",
           "EDEBB": "扩展直胜（台次、去尾）", "EDET": "扩展直胜（高台）", "EDEB": "扩展直胜（去尾）",
           "FOUL:T": "队犯规", "WIN:T": "队胜局", "BWG:T": "后手胜局", "BPG:T": "后手局数", "DE": "直胜",
           "PREV": "比较末轮", "SUMPTS": "队员积分和", "SUMRANK": "队员名次和", "LOT": "抽签"},
    "vi": {"MP": "Điểm trận", "GP": "Điểm ván", "MPVGP": "Điểm còn lại", "BH": "Điểm đối thủ",
           "ESB": "Hệ số mở rộng", "SSSC": "Điểm và sức mạnh", "EDE": "Đối đầu mở rộng", "BC": "Điểm theo bàn",
           "TBR": "Bàn đầu", "BBE": "Bỏ bàn cuối", "EDEBT": "Đối đầu mở rộng (theo bàn, bàn đầu)",
           "EDEBB": "Đối đầu mở rộng (theo bàn, bỏ bàn cuối)", "EDET": "Đối đầu mở rộng (bàn đầu)",
           "EDEB": "Đối đầu mở rộng (bỏ bàn cuối)", "FOUL:T": "Phạm quy của đội", "WIN:T": "Ván thắng của đội",
           "BWG:T": "Thắng cầm đen", "BPG:T": "Số ván cầm đen", "DE": "Đối đầu", "PREV": "Các vòng cuối",
           "SUMPTS": "Tổng điểm thành viên", "SUMRANK": "Tổng thứ hạng", "LOT": "Bốc thăm"},
    "es": {"MP": "Puntos de encuentro", "GP": "Puntos de partida", "MPVGP": "La otra puntuación", "BH": "Buchholz",
           "ESB": "Sonneborn-Berger extendido", "SSSC": "Puntuación y fuerza", "EDE": "Encuentro directo extendido",
           "BC": "Recuento por tableros", "TBR": "Primer tablero", "BBE": "Sin los últimos tableros",
           "EDEBT": "Encuentro directo ext. (tableros, primer tablero)",
           "EDEBB": "Encuentro directo ext. (tableros, últimos tableros)",
           "EDET": "Encuentro directo ext. (primer tablero)", "EDEB": "Encuentro directo ext. (últimos tableros)",
           "FOUL:T": "Faltas del equipo", "WIN:T": "Victorias del equipo", "BWG:T": "Victorias con negras",
           "BPG:T": "Partidas con negras", "DE": "Encuentro directo", "PREV": "Últimas rondas",
           "SUMPTS": "Suma de puntos", "SUMRANK": "Suma de puestos", "LOT": "Sorteo"},
}

#: The bot's narrow headings where they differ from ``INDIVIDUAL`` and ``TEAM`` (both kinds of code).
SHORT: dict[str, dict[str, str]] = {
    "zh": {"WON": "胜局数", "BPG": "后走", "BWG": "后胜", "ARO": "对手均分", "DEB": "对局后走", "PREV": "前轮",
           "BWG:T": "后胜", "BPG:T": "后走", "SUMRANK": "名次和", "SUMPTS": "积分和"},
    "vi": {"BH": "ĐĐT", "SB": "HS", "WIN": "Thắng", "WON": "Thắng", "DE": "ĐĐ", "FOUL": "PQ", "BPG": "Đen",
           "BWG": "TĐen", "PS": "LT", "LOT": "Thăm", "GP": "Đ.ván", "MP": "Đ.trận", "WIN:T": "Thắng",
           "FOUL:T": "PQ", "BWG:T": "TĐen", "BPG:T": "Đen", "PREV": "Vòng cuối", "SUMRANK": "Tổng hạng",
           "SUMPTS": "Tổng điểm"},
    "es": {"BH": "Bu", "SB": "SB", "WIN": "Vic", "WON": "Gan", "DE": "EP", "FOUL": "Faltas", "BPG": "Neg",
           "BWG": "VicN", "PS": "Prog", "LOT": "Sorteo", "GP": "PP", "MP": "PE", "WIN:T": "Vic", "FOUL:T": "Faltas",
           "BWG:T": "VicN", "BPG:T": "Neg", "PREV": "Últ", "SUMRANK": "Puestos", "SUMPTS": "Puntos"},
}

#: How each language writes a cut, a median and a team code's score (ZS: 扣除对手分, 中间对手分; the
#: Spanish handbook: "Buchholz -1", "Buchholz mediano 2").
_CUT = {"zh": "扣除{name}{n}", "vi": "{name} cắt {n}", "es": "{name} −{n}"}
_MEDIAN = {"zh": "中间{name}{n}", "vi": "{name} trung vị {n}", "es": "{name} mediano {n}"}
_SCORES = {"zh": {"MP": "（场分）", "GP": "（局分）"}, "vi": {"MP": " (điểm trận)", "GP": " (điểm ván)"},
           "es": {"MP": " (p. encuentro)", "GP": " (p. partida)"}}


def column_heading(code: str, language: str, *, team: bool = False, short: bool = False) -> str:
    """The heading of a column of ``code`` (as the chain gives it) in ``language``: the code
    itself in English or where the glossary has no word for it; ``team`` reads it as a team code,
    ``short`` gives the bot's narrow heading (a modifier then stays as written: 对手分-C1)."""
    from ranking.tiebreaks.individual import REGISTRY  # the codes' grammar (start-up time)
    from ranking.tiebreaks.team import TEAM_REGISTRY  # the codes' grammar (start-up time)

    registry = TEAM_REGISTRY if team else REGISTRY
    try:
        spec = registry.parse(code)
    except InputError:  # an unknown code is shown as written (the chain's check reports it)
        return code
    name = registry[spec.name].code
    base = (SHORT.get(language, {}).get(name) if short else None) or \
        (TEAM if team else INDIVIDUAL).get(language, {}).get(name)
    if base is None:
        return code
    if short:  # the modifiers as written
        written = code.strip().upper()
        tail = written[len(spec.name):] if written.startswith(spec.name) else ""
        return base + (tail if tail[:1] in ("-", "/", ":") else "")
    text = base
    score = getattr(spec, "score", "")
    if score:
        text += _SCORES[language][score]
    if spec.median:
        text = _MEDIAN[language].format(name=text, n=spec.median)
        if spec.cut:
            text = _CUT[language].format(name=text, n=spec.cut)
    elif spec.cut:
        text = _CUT[language].format(name=text, n=spec.cut)
    limit = getattr(spec, "limit", 0)
    if limit:
        text += f"/L{limit:+d}"
    if spec.forfeits_played:
        text += "/P"
    return text
