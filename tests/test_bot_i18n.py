"""The bot's languages (tiebreak/i18n.py, bot/messages.py and bot/locales): language choice, complete catalogs whose
translations keep the placeholders, numbers per locale."""

from __future__ import annotations

import ast
import string
from decimal import Decimal
from pathlib import Path

import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po

from bot import messages as i18n
from bot.messages import (
    HELP_ARBITER,
    PROBLEM_MESSAGES,
    RESULTS_RECORDED,
    YES,
    catalog_path,
    describe_problem,
    format_problem,
    load_translations,
    translator,
)
from bot.parsing import Problem, ProblemReason, parse_message
from ranking.event.model import Result
from tiebreak.i18n import LANGUAGE_NAMES, SUPPORTED, choose_language, format_number, language_from_argument

BOT_DIR = Path(i18n.__file__).parent
KEYWORDS = {"_": None, "gettext": None, "ngettext": (1, 2), "N_": None, "Nn_": (1, 2)}
TRANSLATED = ("zh", "vi", "es")


def extracted() -> set[str | tuple[str, str]]:
    """Every message marked in bot/*.py, as pybabel extract finds it."""
    found: set[str | tuple[str, str]] = set()
    for _filename, _lineno, message, _comments, _context in extract_from_dir(
            BOT_DIR, keywords=KEYWORDS, comment_tags=("Translators:",)):
        found.add(message)
    return found


def read_catalog(path: Path, language: str | None = None):
    with path.open("rb") as source:
        return read_po(source, locale=language)


def placeholders(text: str) -> set[str]:
    return {field for _, field, _, _ in string.Formatter().parse(text) if field is not None}


# -- choosing a language ---------------------------------------------------------------------

@pytest.mark.parametrize(("code", "language"), [
    ("en", "en"), ("en-US", "en"), ("en-gb", "en"),
    ("zh", "zh"), ("zh-hans", "zh"), ("zh-CN", "zh"), ("zh-hant", "zh"), ("zh_TW", "zh"),
    ("vi", "vi"), ("vi-VN", "vi"),
    ("es", "es"), ("es-ES", "es"), ("es-419", "es"), ("ES", "es"),
    ("pt-BR", "en"), ("fr", "en"), ("ru", "en"), ("", "en"), (None, "en"), ("-", "en"), ("zhx", "en"),
])
def test_language_from_telegram_code(code, language):
    assert choose_language(code) == language
    assert translator(code).language == language


def test_the_configured_default_applies_to_unsupported_languages():
    assert choose_language("pt-BR", default="vi") == "vi"
    assert choose_language(None, default="es") == "es"
    assert choose_language("zh-hans", default="vi") == "zh"
    assert choose_language("fr", default="fr") == "en"


@pytest.mark.parametrize(("argument", "language"), [
    ("en", "en"), ("English", "en"), ("zh", "zh"), ("中文", "zh"), ("简体中文", "zh"), ("zh-Hans", "zh"),
    ("vi", "vi"), ("Tiếng Việt", "vi"), ("tieng  viet", "vi"), ("es", "es"), ("Español", "es"),
    ("es-MX", "es"), ("espanol", "es"), ("klingon", None), ("", None), ("  ", None), ("pt", None),
])
def test_language_argument(argument, language):
    assert language_from_argument(argument) == language


def test_translators_are_cached_per_language():
    assert translator("zh-hans") is translator("zh-CN")
    assert load_translations("vi") is load_translations("vi")


# -- catalogs --------------------------------------------------------------------------------

@pytest.mark.parametrize("language", SUPPORTED)
def test_every_catalog_compiles_and_passes_babels_checks(language):
    path = catalog_path(language)
    assert path.is_file()
    catalog = read_catalog(path, language)
    problems = [(message.id, errors) for message, errors in catalog.check()]
    assert problems == []
    assert not any(message.fuzzy for message in catalog if message.id)
    assert load_translations(language) is not None


def test_the_template_is_up_to_date():
    template = read_catalog(BOT_DIR / "locales" / "messages.pot")
    assert {message.id for message in template if message.id} == extracted()


@pytest.mark.parametrize("language", SUPPORTED)
def test_every_marked_message_is_in_every_catalog(language):
    catalog = read_catalog(catalog_path(language), language)
    ids = {message.id for message in catalog if message.id}
    assert extracted() - ids == set()
    assert ids - extracted() == set()  # no stale messages either


@pytest.mark.parametrize("language", TRANSLATED)
def test_every_message_is_translated(language):
    catalog = read_catalog(catalog_path(language), language)
    for message in catalog:
        if not message.id:
            continue
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        assert len(strings) == catalog.num_plurals if message.pluralizable else len(strings) == 1
        assert all(strings), message.id
        # and the translation really is one: only "No" and "club" (Spanish words too) may coincide with English
        if not message.pluralizable and message.id not in ("No", "club"):
            assert message.string != message.id, message.id


@pytest.mark.parametrize("language", TRANSLATED)
def test_translations_keep_the_placeholders(language):
    catalog = read_catalog(catalog_path(language), language)
    for message in catalog:
        if not message.id:
            continue
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        wanted = set().union(*(placeholders(text) for text in ids))
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        for translation in strings:
            assert placeholders(translation) == wanted, (message.id, translation)
            translation.format(**dict.fromkeys(wanted, "x"))  # well-formed braces


@pytest.mark.parametrize("language", SUPPORTED)
def test_messages_are_safe_in_telegram_html(language):
    """The bot may send replies with parse_mode HTML: only the values it fills in need escaping."""
    catalog = read_catalog(catalog_path(language), language)
    for message in catalog:
        if not message.id:
            continue  # the header
        texts = [*(message.id if isinstance(message.id, tuple) else (message.id,)),
                 *(message.string if isinstance(message.string, tuple) else (message.string,))]
        assert not any(char in text for text in texts for char in "<>&"), message.id


def message_of(node: ast.expr) -> str | tuple[str, str] | None:
    """The i18n message an expression names (``M.RESULT_RECORDED``, ``PROBLEM_LINE``), if any."""
    if isinstance(node, ast.Starred):
        node = node.value
    name = node.attr if isinstance(node, ast.Attribute) else node.id if isinstance(node, ast.Name) else None
    value = getattr(i18n, name, None) if name else None
    return value if isinstance(value, str | tuple) else None


def test_every_call_fills_every_placeholder():
    """``tr.format(M.X, ...)`` (and ``request.say(M.X, ...)``) in bot/*.py passes every placeholder of X
    (else: KeyError at run time)."""
    checked = 0
    for path in sorted(BOT_DIR.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                    and node.func.attr in ("format", "nformat", "say") and node.args):
                continue
            message = message_of(node.args[0])
            if message is None or any(keyword.arg is None for keyword in node.keywords):
                continue
            texts = message if isinstance(message, tuple) else (message,)
            wanted = set().union(*(placeholders(text) for text in texts))
            given = {keyword.arg for keyword in node.keywords}
            assert wanted <= given, f"{path.name}:{node.lineno}: {message!r} needs {sorted(wanted - given)}"
            checked += 1
    assert checked >= 1  # at least format_problem in bot/messages.py


def test_gettext_and_ngettext():
    assert translator("en").gettext(YES) == "Yes"
    assert [translator(lang).gettext(YES) for lang in TRANSLATED] == ["是", "Có", "Sí"]
    en, zh, es = translator("en"), translator("zh"), translator("es")
    assert en.nformat(*RESULTS_RECORDED, 1, count=1) == "1 result recorded"
    assert en.nformat(*RESULTS_RECORDED, 3, count=3) == "3 results recorded"
    assert zh.nformat(*RESULTS_RECORDED, 3, count=3) == "已记录 3 个结果"
    assert es.nformat(*RESULTS_RECORDED, 1, count=1) == "1 resultado registrado"
    assert es.nformat(*RESULTS_RECORDED, 4, count=4) == "4 resultados registrados"
    assert es.ngettext(*RESULTS_RECORDED, 1_000_000) == "{count} de resultados registrados"


def test_the_confirmation_in_every_language():
    values = {"round": 3, "board": 5, "white": "许银川", "black": "Lại Lý Huynh", "result": "1-0"}
    assert [translator(lang).format(i18n.RESULT_RECORDED, **values) for lang in SUPPORTED] == [
        "Round 3, board 5: 许银川 – Lại Lý Huynh 1-0 recorded",
        "第3轮第5台：许银川 – Lại Lý Huynh 1-0，已记录",
        "Ván 3, bàn 5: 许银川 – Lại Lý Huynh 1-0, đã ghi nhận",
        "Ronda 3, tablero 5: 许银川 – Lại Lý Huynh 1-0, registrado",
    ]
    assert [translator(lang).format(i18n.LANGUAGE_SET, language=LANGUAGE_NAMES[lang]) for lang in SUPPORTED] == [
        "Language set to English", "语言已设为简体中文", "Đã chuyển ngôn ngữ sang Tiếng Việt",
        "Idioma cambiado a Español"]


# -- the parser's problems -------------------------------------------------------------------

def test_every_problem_reason_has_a_message():
    assert set(PROBLEM_MESSAGES) == set(ProblemReason)


@pytest.mark.parametrize("language", SUPPORTED)
@pytest.mark.parametrize("reason", list(ProblemReason))
def test_every_problem_can_be_described(language, reason):
    tr = translator(language)
    problem = Problem(4, "R3 B5 2-1", reason, "2-1")
    text = describe_problem(problem, tr)
    assert text
    if "{detail}" in PROBLEM_MESSAGES[reason]:
        assert "2-1" in text
    line = format_problem(problem, tr)
    assert "4" in line and "R3 B5 2-1" in line and text in line


def test_problems_from_a_real_message():
    parsed = parse_message("R3 B5 2-1\n5 1-0", None)
    zh = translator("zh")
    assert [format_problem(problem, zh) for problem in parsed.problems] == [
        "第1行“R3 B5 2-1”：无法识别结果“2-1”：请写 红胜、黑胜、和、1-0、0-1、½-½、+-、-+ 或 --",
        "第2行“5 1-0”：哪一轮？请写在台次前面，例如 第3轮第5台",
    ]
    empty = parse_message("", 3).problems[0]
    assert format_problem(empty, translator("vi")) == "tin nhắn trống"


# The examples in the translated help and problem messages are real result lines.
EXAMPLES = {
    "en": [("R3 B5 1-0", 3, 5, Result.WHITE_WINS, None), ("5 1-0", 9, 5, Result.WHITE_WINS, None),
           ("B5 1-0", 9, 5, Result.WHITE_WINS, None),
           ("5 0-1", 9, 5, Result.BLACK_WINS, None), ("B5 0-1", 9, 5, Result.BLACK_WINS, None),
           ("R3 B5 1-0 foul black", 3, 5, Result.WHITE_WINS, "black")],
    "zh": [("第3轮第5台 红胜", 3, 5, Result.WHITE_WINS, None), ("5台 黑胜", 9, 5, Result.BLACK_WINS, None),
           ("第3轮第5台 红胜 黑犯规", 3, 5, Result.WHITE_WINS, "black"), ("5台 红胜", 9, 5, Result.WHITE_WINS, None),
           ("3 5 1-0", 3, 5, Result.WHITE_WINS, None)],
    "vi": [("ván 3 bàn 5 đỏ thắng", 3, 5, Result.WHITE_WINS, None),
           ("bàn 5 đen thắng", 9, 5, Result.BLACK_WINS, None),
           ("ván 3 bàn 5 đỏ thắng phạm quy đen", 3, 5, Result.WHITE_WINS, "black"),
           ("bàn 5 đỏ thắng", 9, 5, Result.WHITE_WINS, None)],
    "es": [("R3 B5 1-0", 3, 5, Result.WHITE_WINS, None), ("T5 0-1", 9, 5, Result.BLACK_WINS, None),
           ("R3 B5 1-0 falta negras", 3, 5, Result.WHITE_WINS, "black"),
           ("tablero 5 1-0", 9, 5, Result.WHITE_WINS, None)],
}


@pytest.mark.parametrize("language", SUPPORTED)
def test_the_examples_in_the_messages_parse(language):
    tr = translator(language)
    shown = tr.gettext(HELP_ARBITER) + "\n".join(tr.gettext(message) for message in PROBLEM_MESSAGES.values())
    for example, round_number, board, result, foul in EXAMPLES[language]:
        assert example in shown, example
        entry, = parse_message(example, 9).entries
        assert (entry.round, entry.board, entry.result, entry.foul_side) == (round_number, board, result, foul)
    round_example = tr.format(PROBLEM_MESSAGES[ProblemReason.NO_ROUND], detail="5")
    assert round_example.endswith(("R3 B5", "第3轮第5台", "ván 3 bàn 5", "ronda 3 tablero 5"))


# -- numbers ----------------------------------------------------------------------------------

@pytest.mark.parametrize(("value", "expected"), [
    (7.5, {"en": "7.5", "zh": "7.5", "vi": "7,5", "es": "7,5"}),
    (52.0, {"en": "52", "zh": "52", "vi": "52", "es": "52"}),
    (9.75, {"en": "9.75", "zh": "9.75", "vi": "9,75", "es": "9,75"}),
    (Decimal("40.25"), {"en": "40.25", "zh": "40.25", "vi": "40,25", "es": "40,25"}),
    (12345.5, {"en": "12,345.5", "zh": "12,345.5", "vi": "12.345,5", "es": "12.345,5"}),
    (0, {"en": "0", "zh": "0", "vi": "0", "es": "0"}),
    (None, {"en": "-", "zh": "-", "vi": "-", "es": "-"}),
])
def test_numbers_per_locale(value, expected):
    assert {lang: format_number(value, lang) for lang in SUPPORTED} == expected
    assert {lang: translator(lang).format_number(value) for lang in SUPPORTED} == expected


def test_whole_numbers_and_quarters_are_written_as_babel_writes_them_without_asking_it():
    """``format_number`` writes whole numbers and floats in quarters itself (a site build writes
    thousands of them): the same text as Babel's ``format_decimal`` over every such value a page
    or a reply shows, in every language, grouped or not; other values are Babel's."""
    from babel.numbers import format_decimal

    from tiebreak.i18n import LANGUAGES

    values = [*range(-3000, 3001), *(quarter / 4 for quarter in range(-800, 8001)), -0.0, 0.0, 1e8, 10**12,
              999.75, -999.75, 1000.0, 1 / 3, 2 / 3, 0.1, 12.345, float("nan"), Decimal("7.50")]
    for code in SUPPORTED:
        locale = LANGUAGES[code].babel_locale
        for grouping in (False, True):
            assert [format_number(value, code, grouping) for value in values] == \
                [format_decimal(value, locale=locale, group_separator=grouping) for value in values], (code, grouping)


def test_each_languages_signs_are_babels():
    """The decimal and minus signs kept with each language are the ones Babel's CLDR data gives."""
    from babel.numbers import get_decimal_symbol, get_minus_sign_symbol

    from tiebreak.i18n import LANGUAGES

    for language in LANGUAGES.values():
        assert (language.decimal_symbol, language.minus_symbol) == \
            (get_decimal_symbol(language.babel_locale), get_minus_sign_symbol(language.babel_locale))


def test_numbers_without_grouping_and_for_telegram_codes():
    assert format_number(2620, "en", grouping=False) == "2620"
    assert format_number(12620, "vi", grouping=False) == "12620"
    assert format_number(2.5, "es-ES") == "2,5"
    assert format_number(2.5, "pt-BR") == "2.5"  # unsupported: English
