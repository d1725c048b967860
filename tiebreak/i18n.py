"""The languages of Tiebreak (English, 简体中文, Tiếng Việt, Español) and the gettext machinery
the bot and the site share; each keeps its own catalogue (``bot/locales``, ``site_builder/locales``).

``LANGUAGES`` is the one table of languages: code, own name, Babel locale, HTML ``lang``.
Catalogues are the committed ``<dir>/<lang>/LC_MESSAGES/<domain>.po`` sources, compiled in
memory the first time a language is used (Babel's ``read_po`` and ``write_mo``), so there is no
build step and no ``.mo`` file in the repository.

Messages are ``str.format`` templates with named placeholders.  ``N_`` and ``Nn_`` only mark a
message for extraction; translate at the time of use::

    tr = translator("vi", directory=LOCALES_DIR, domain="messages")
    tr.format(RESULT_RECORDED, round=3, board=5, white="许银川", black="吕钦", result="1-0")
    tr.nformat(*RESULTS_RECORDED, 4, count=tr.format_number(4))
"""

from __future__ import annotations

import functools
import gettext
import math
from dataclasses import dataclass
from io import BytesIO
from pathlib import Path

TYPE_CHECKING = False  # decimal loads only where Babel writes a number (start-up time)
if TYPE_CHECKING:
    from decimal import Decimal


@dataclass(frozen=True)
class Language:
    """A language Tiebreak speaks: its code (Telegram's primary subtag), its own name, the Babel
    locale that formats its numbers and dates, the HTML ``lang`` of its pages, and the decimal
    and minus signs its numbers are written with.  The signs are Babel's (CLDR's), pinned to
    it by a test; they are kept here so that a process writing points and tie-breaks need not
    load the languages' whole CLDR data from Babel (about 30 ms for the four, in every new
    process), only one writing another number or a date."""

    code: str
    name: str
    babel_locale: str
    html_lang: str
    decimal_symbol: str
    minus_symbol: str


LANGUAGES: dict[str, Language] = {language.code: language for language in (
    Language("en", "English", "en", "en", ".", "-"),
    Language("zh", "简体中文", "zh_Hans_CN", "zh-Hans", ".", "-"),
    Language("vi", "Tiếng Việt", "vi", "vi", ",", "-"),
    Language("es", "Español", "es", "es", ",", "-"),
)}
SUPPORTED = tuple(LANGUAGES)
DEFAULT_LANGUAGE = "en"
LANGUAGE_NAMES = {code: language.name for code, language in LANGUAGES.items()}

_LANGUAGE_WORDS = {  # what /language accepts besides the codes, folded to lower case
    "english": "en", "inglés": "en", "ingles": "en", "英语": "en", "英文": "en", "tiếng anh": "en",
    "中文": "zh", "简体中文": "zh", "汉语": "zh", "chinese": "zh", "chino": "zh", "tiếng trung": "zh",
    "zh-hans": "zh", "zh-cn": "zh",
    "tiếng việt": "vi", "tieng viet": "vi", "vietnamese": "vi", "vietnamita": "vi", "越南语": "vi",
    "español": "es", "espanol": "es", "spanish": "es", "castellano": "es", "西班牙语": "es",
    "tiếng tây ban nha": "es",
}


def N_(message: str) -> str:
    """Mark ``message`` for extraction; translate it later with ``Translator.gettext``."""
    return message


def Nn_(singular: str, plural: str) -> tuple[str, str]:
    """Mark a plural message for extraction; translate it later with ``Translator.ngettext``."""
    return singular, plural

# -- choosing a language ---------------------------------------------------------------------


def choose_language(code: str | None, default: str = DEFAULT_LANGUAGE) -> str:
    """The supported language for a Telegram ``language_code`` (an IETF tag such as ``en``,
    ``zh-hans``, ``es-ES``, ``pt-br``): its primary subtag if supported, otherwise ``default``
    (itself ``en`` if it is not supported).  Every Chinese variant gets simplified Chinese."""
    fallback = default if default in SUPPORTED else DEFAULT_LANGUAGE
    return supported_language(code or "") or fallback


def supported_language(tag: str) -> str | None:
    """Which of our languages the IETF tag ``tag`` names, by its primary subtag in any case
    (``zh-CN``, ``ZH``, ``zh_Hans``, ``vi-VN``, ``es``), or None: the one reading of a tag, for
    Telegram's ``language_code``, ``/language``, ``Accept-Language`` and the entry page's ``?lang=``.

    >>> supported_language("zh-CN"), supported_language(" ES "), supported_language("pt-BR")
    ('zh', 'es', None)
    """
    primary = tag.strip().replace("_", "-").split("-", 1)[0].lower()
    return primary if primary in SUPPORTED else None


def language_from_argument(text: str) -> str | None:
    """The language a ``/language`` argument names (a code or a name in any of the four
    languages: ``es``, ``vi-VN``, ``中文``, ``Español``, ``tieng viet``), or None."""
    word = " ".join(text.split()).lower()
    if not word:
        return None
    if word in _LANGUAGE_WORDS:
        return _LANGUAGE_WORDS[word]
    return supported_language(word)


# -- catalogs --------------------------------------------------------------------------------


def catalog_path(language: str, domain: str, directory: Path) -> Path:
    """Where ``language``'s catalogue of ``domain`` lives under ``directory``."""
    return directory / language / "LC_MESSAGES" / f"{domain}.po"


@functools.cache
def load_translations(language: str, domain: str, directory: Path) -> gettext.NullTranslations:
    """The compiled catalog of ``language`` (cached).  A language without a catalog, and the
    source language English, fall back to the message ids."""
    path = catalog_path(language, domain, directory)
    if not path.is_file():
        return gettext.NullTranslations()
    return gettext.GNUTranslations(BytesIO(compiled_catalog(path, language, domain)))


def compiled_catalog(path: Path, language: str, domain: str) -> bytes:
    """The ``.po`` catalogue at ``path`` compiled (the bytes of a ``.mo`` file)."""
    from babel.messages.mofile import write_mo  # only to compile a catalogue (start-up time)
    from babel.messages.pofile import read_po

    with path.open("rb") as source:
        catalog = read_po(source, locale=language, domain=domain)
    compiled = BytesIO()
    write_mo(compiled, catalog)
    return compiled.getvalue()


def format_number(value: int | float | Decimal | None, lang: str, grouping: bool = True) -> str:
    """``value`` as the language writes it: ``7.5`` in English and Chinese, ``7,5`` in Vietnamese
    and Spanish; up to three decimals, none for whole numbers; None as ``-``.  ``grouping``
    False leaves out the thousands separator (ratings: ``2620``)."""
    if value is None:
        return "-"
    language = LANGUAGES[choose_language(lang)]
    plain = _plain_number(value, grouping, language.decimal_symbol, language.minus_symbol)
    if plain is not None:
        return plain
    from babel.numbers import format_decimal  # Babel's CLDR data, only for such a number (start-up time)

    return format_decimal(value, locale=language.babel_locale, group_separator=grouping)


def _plain_number(value: object, grouping: bool, decimal: str, minus: str) -> str | None:
    """``format_decimal``'s text for a whole number or a float in quarters (the points, scores
    and most tie-breaks a page writes), without Babel's parsing of its pattern: a site writes
    thousands of numbers per build.  None for anything else (Babel then writes it); a test
    pins it to Babel's text over the range it takes."""
    kind = type(value)
    if kind is int:
        number = float(value)
    elif kind is float and value == value and (value * 4).is_integer():  # NaN and thirds go to Babel
        number = value
    else:
        return None
    if not -1e9 < number < 1e9 or (grouping and not -1000 < number < 1000) or (number < 0 and minus != "-"):
        return None
    if number == 0:
        return "-0" if kind is float and math.copysign(1.0, number) < 0 else "0"
    if kind is int or number.is_integer():
        return str(int(number))
    return f"{number:.2f}".rstrip("0").replace(".", decimal)


def load_cldr_data(code: str) -> None:
    """Load Babel's CLDR data of the language ``code`` (its numbers and dates) now: a process
    that forks (the bot's warm site process) loads it once for all its children, which would
    otherwise each load it for their first date or uncommon number."""
    import datetime

    from babel.dates import format_date
    from babel.numbers import format_decimal

    locale = LANGUAGES[code].babel_locale
    format_decimal(0.1, locale=locale)
    format_date(datetime.date(2026, 1, 1), format="medium", locale=locale)


def decimal_sign(lang: str) -> str:
    """The language's decimal sign: ``.`` in English and Chinese, ``,`` in Vietnamese and Spanish
    (``ranking.scoring.spelling.written_points`` writes points with it)."""
    return LANGUAGES[choose_language(lang)].decimal_symbol


@dataclass(frozen=True)
class Translator:
    """The messages of one language.  ``gettext`` and ``ngettext`` are the gettext calls;
    ``format`` and ``nformat`` also fill the ``{placeholders}``."""

    language: str
    translations: gettext.NullTranslations

    def gettext(self, message: str) -> str:
        return self.translations.gettext(message)

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        return self.translations.ngettext(singular, plural, n)

    def format(self, message: str, /, **values: object) -> str:
        return self.gettext(message).format(**values)

    def nformat(self, singular: str, plural: str, n: int, /, **values: object) -> str:
        return self.ngettext(singular, plural, n).format(**values)

    def format_number(self, value: int | float | Decimal | None, grouping: bool = True) -> str:
        return format_number(value, self.language, grouping)

    @property
    def decimal_sign(self) -> str:
        return decimal_sign(self.language)


@functools.cache
def _translator(language: str, domain: str, directory: Path) -> Translator:
    return Translator(language, load_translations(language, domain, directory))


def translator(language: str | None, default: str = DEFAULT_LANGUAGE, *, domain: str, directory: Path) -> Translator:
    """The translator of ``domain``'s catalogues under ``directory`` for a Telegram
    ``language_code`` or a language chosen with /language (``default`` when not supported)."""
    return _translator(choose_language(language, default), domain, directory)


@dataclass(frozen=True)
class Catalogue:
    """The catalogues of one gettext ``domain`` under ``directory``: the bot's messages
    (``bot/locales``, domain ``messages``) or the site's words (``site_builder/locales``, ``site``)."""

    directory: Path
    domain: str

    def path(self, language: str) -> Path:
        """The ``.po`` source of ``language``."""
        return catalog_path(language, self.domain, self.directory)

    def translations(self, language: str) -> gettext.NullTranslations:
        """The compiled catalogue of ``language`` (cached)."""
        return load_translations(language, self.domain, self.directory)

    def translator(self, language: str | None, default: str = DEFAULT_LANGUAGE) -> Translator:
        """The translator for a Telegram ``language_code`` or a chosen language."""
        return translator(language, default, domain=self.domain, directory=self.directory)
