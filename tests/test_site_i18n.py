"""The site's languages (domain "site" in site_builder/locales): a template that holds every message of the
theme's templates and every tie-break name and definition, complete catalogs for en, zh, vi and
es whose translations keep the %(placeholders)s, and pages that show them with numbers written
the language's way.

This file also writes the template: ``.venv/bin/python tests/test_site_i18n.py`` (see
babel.cfg for the whole procedure).
"""

from __future__ import annotations

import re
import tempfile
from functools import cache
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.frontend import CommandLineInterface
from babel.messages.pofile import read_po, write_po

from ranking import PRESETS, TEAM_PRESETS, InputError
from ranking.tiebreaks.individual import REGISTRY
from ranking.tiebreaks.registry import Tiebreak
from site_builder import SITE_CATALOGUE
from tiebreak.files import load_tournament
from tiebreak.i18n import SUPPORTED

ROOT = Path(__file__).resolve().parent.parent

DOMAIN = "site"
BABEL_CFG = ROOT / "babel.cfg"
TEMPLATES = ROOT / "themes" / "default" / "templates"
POT = ROOT / "site_builder" / "locales" / f"{DOMAIN}.pot"
EXAMPLES = ROOT / "ranking" / "examples"
TRANSLATED = ("zh", "vi", "es")
# Translations that may be the English words themselves (names of people and abbreviations).
SAME_AS_ENGLISH = {
    "es": {"Buchholz", "Sonneborn-Berger", "R%(n)s", "r",  # r: rojas, red in the wall chart
           "Xiangqi", "final", "Pts", "%(stage)s: %(games)s.", "%(stage)s."},
    "vi": {"%(start)s – %(end)s", "%(stage)s: %(games)s.", "%(stage)s."},
}
PLACEHOLDER = re.compile(r"%\((\w+)\)[sd]")


# -- the template: what pybabel extracts from the templates, plus the tie-break registry ------

def registry_entries() -> list[Tiebreak]:
    """Each tie-break once (aliases such as GE share REP's entry), in registry order: the
    individual ones, then the team ones (ranking.tiebreaks.team, shown on the team page)."""
    from ranking.tiebreaks.team import TEAM_REGISTRY

    seen: dict[int, Tiebreak] = {}
    for entry in [*REGISTRY.values(), *TEAM_REGISTRY.values()]:
        seen.setdefault(id(entry), entry)
    return list(seen.values())


def extract_templates(folder: Path) -> Catalog:
    """``pybabel extract`` with babel.cfg over the default theme's templates."""
    out = folder / "templates.pot"
    CommandLineInterface().run(["pybabel", "-q", "extract", "-F", str(BABEL_CFG), "-c", "Translators:",
                                "--no-location", "--project", "Tiebreak", "-o", str(out), str(TEMPLATES)])
    with out.open("rb") as source:
        return read_po(source)


#: The modifiers the catalog describes for every code that takes them (C.07 14: cuts, medians,
#: forfeits counted as games): the legend says ``_(item.description)``; a code modified otherwise
#: (``BH-C3``) is described in English.
MODIFIERS = ("-C1", "-C2", "-M1", "-M2", "/P", "-C1/P")


def described_codes() -> dict[str, str]:
    """description -> the first code it describes, for every individual code with the usual
    modifiers whose words are not the tie-break's own name."""
    names = {entry.name for entry in REGISTRY.values()}
    found: dict[str, str] = {}
    for code in REGISTRY:
        for modifier in MODIFIERS:
            try:
                spec = REGISTRY.parse(code + modifier)
            except InputError:
                continue
            description = REGISTRY.describe(spec)
            if description not in names:
                found.setdefault(description, code + modifier)
    return found


def site_template(folder: Path) -> Catalog:
    """The template of the "site" domain: the templates' messages, then every tie-break's name
    and definition (the standings legend calls ``_(item.name)`` and ``_(item.definition)``), the
    words of the usual modified codes (``_(item.description)``: "Buchholz without the lowest
    opponent's score") and each rules preset's description (the tournament header)."""
    catalog = extract_templates(folder)
    for entry in registry_entries():
        catalog.add(entry.name, auto_comments=[f"Tie-break {entry.code} ({entry.article}): its name."])
        catalog.add(entry.definition, auto_comments=[
            f"Tie-break {entry.code}: its definition, shown after the name in the standings legend."])
    for description, code in described_codes().items():
        catalog.add(description, auto_comments=[f"Tie-break code {code} in words (the standings legend)."])
    for name, preset in PRESETS.items():
        catalog.add(preset.description, auto_comments=[f"Rules preset {name}: its description (the header)."])
    for name, team in TEAM_PRESETS.items():
        catalog.add(team.description, auto_comments=[f"Team rules preset {name}: its description (the header)."])
    return catalog


def write_template() -> None:
    with tempfile.TemporaryDirectory() as folder:
        catalog = site_template(Path(folder))
    with POT.open("wb") as target:
        write_po(target, catalog)


@cache
def read_catalog(path: Path, language: str | None = None) -> Catalog:
    with path.open("rb") as source:
        return read_po(source, locale=language)


def ids(catalog: Catalog) -> set[str]:
    return {message.id for message in catalog if message.id}


def placeholders(text: str) -> list[str]:
    return sorted(PLACEHOLDER.findall(text))


# -- the catalogs ----------------------------------------------------------------------------

def test_the_template_holds_what_pybabel_extracts_plus_the_tiebreak_registry(tmp_path: Path) -> None:
    expected = site_template(tmp_path)
    template = read_catalog(POT)
    assert ids(template) == ids(expected)
    extracted = ids(extract_templates(tmp_path))
    assert {"Standings", "Tie-breaks", "red", "white", "black"} <= extracted  # babel.cfg maps the templates
    for entry in registry_entries():
        assert {entry.name, entry.definition} <= ids(template), entry.code


def test_every_registry_entry_is_a_safe_message() -> None:
    """The legend passes names and definitions through newstyle gettext, which %-formats every
    message: a bare % would break the page."""
    for entry in registry_entries():
        for text in (entry.name, entry.definition):
            assert "%" not in text and text.strip() == text and text, entry.code


@pytest.mark.parametrize("language", SUPPORTED)
def test_every_catalog_compiles_and_passes_babels_checks(language: str) -> None:
    path = SITE_CATALOGUE.path(language)
    assert path.is_file()
    catalog = read_catalog(path, language)
    assert [(message.id, errors) for message, errors in catalog.check()] == []
    assert not catalog.fuzzy and not any(message.fuzzy for message in catalog if message.id)
    assert SITE_CATALOGUE.translations(language) is not None


@pytest.mark.parametrize("language", SUPPORTED)
def test_every_message_is_in_every_catalog_and_none_is_stale(language: str) -> None:
    catalog = read_catalog(SITE_CATALOGUE.path(language), language)
    assert ids(read_catalog(POT)) - ids(catalog) == set()
    assert ids(catalog) - ids(read_catalog(POT)) == set()
    assert not catalog.obsolete


@pytest.mark.parametrize("language", TRANSLATED)
def test_every_message_is_translated(language: str) -> None:
    catalog = read_catalog(SITE_CATALOGUE.path(language), language)
    same = SAME_AS_ENGLISH.get(language, set())
    for message in catalog:
        if not message.id:
            continue
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        assert all(isinstance(string, str) and string.strip() for string in strings), message.id
        assert (message.string != message.id) or message.id in same, message.id
    assert same <= ids(catalog)


def test_the_english_catalog_is_the_message_ids() -> None:
    translations = SITE_CATALOGUE.translations("en")
    for message_id in ids(read_catalog(POT)):
        assert translations.gettext(message_id) == message_id


@pytest.mark.parametrize("language", SUPPORTED)
def test_translations_keep_the_placeholders_and_are_plain_text(language: str) -> None:
    catalog = read_catalog(SITE_CATALOGUE.path(language), language)
    for message in catalog:
        if not message.id or not message.string:
            continue
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        for string in filter(None, strings):  # every plural form keeps the message's placeholders
            assert placeholders(string) == placeholders(ids[-1]), message.id
            string % dict.fromkeys(placeholders(ids[-1]), "x")  # newstyle gettext formats every message
            # the templates mark translations safe (autoescape leaves them alone): no markup in them
            assert not any(char in string for char in "<>&"), message.id


def test_the_chess_and_xiangqi_terms() -> None:
    """The names of docs/rules.md#tie-break-codes: CXA 对手分 (BH), 小分 (SB), 胜局, 直胜, 后走局数, 累进分,
    犯规; VN hệ số (SB), điểm đối thủ (BH), ván thắng, đối đầu trực tiếp; Spanish desempate, encuentro directo."""
    def name(language: str, code: str) -> str:
        return SITE_CATALOGUE.translations(language).gettext(REGISTRY[code].name)

    assert name("zh", "BH") == "对手分" and "小分" in name("zh", "SB")
    assert [name("zh", code) for code in ("WIN", "DE", "BPG", "PS", "FOUL")] == \
        ["胜局", "直胜", "后走局数", "累进分", "犯规"]
    assert name("vi", "BH").lower() == "điểm đối thủ" and name("vi", "SB").lower().startswith("hệ số")
    assert "ván thắng" in name("vi", "WIN").lower() and name("vi", "DE").lower() == "đối đầu trực tiếp"
    assert (name("es", "BH"), name("es", "SB"), name("es", "DE")) == \
        ("Buchholz", "Sonneborn-Berger", "Encuentro directo")
    assert "desempate" in SITE_CATALOGUE.translations("es").gettext("Tie-breaks").lower()
    assert name("es", "WON") == "Partidas ganadas"


# -- the pages in each language --------------------------------------------------------------

@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from site_builder import SiteSettings, build_site

    tournaments = {"example-xiangqi-rr": load_tournament(EXAMPLES / "xiangqi-rr.toml"),
                   "chess-swiss": load_tournament(EXAMPLES / "chess-swiss.trf")}
    out = tmp_path_factory.mktemp("site-i18n") / "public"
    build_site(tournaments, SiteSettings(out_dir=out, languages=SUPPORTED))
    return out


def page(site: Path, language: str, path: str) -> str:
    folder = "" if language == SUPPORTED[0] else f"{language}/"
    return (site / folder / path).read_text(encoding="utf-8")


def test_the_chinese_standings_page_is_in_chinese(site: Path) -> None:
    html = page(site, "zh", "example-xiangqi-rr/index.html")
    assert '<html lang="zh-Hans">' in html
    zh = SITE_CATALOGUE.translations("zh")
    assert zh.gettext("Standings") == "排名"
    for words in ("排名", "第9轮后排名", "名次", "积分", "破同分规则", "小分（索伯分）", "胜局", "直胜", "犯规",
                  "后走局数", "下载：", zh.gettext(REGISTRY["SB"].definition)):
        assert words in html, words
    assert "Standings" not in html and "Tie-breaks" not in html and "Place" not in html
    assert "Buchholz" not in page(site, "zh", "chess-swiss/index.html")


@pytest.mark.parametrize("language", SUPPORTED)
def test_every_page_shows_its_languages_words_only(site: Path, language: str) -> None:
    """Messages reach every page in its own language, the macros' too (tabs, colour words)."""
    words = SITE_CATALOGUE.translations(language)
    folder = site if language == SUPPORTED[0] else site / language
    pages = [path for path in sorted(folder.glob("*/**/*.html"))
             if path.relative_to(folder).parts[0] not in SUPPORTED]  # the default's folder holds the others
    assert len(pages) > 50
    english = {"Standings", "Crosstable", "Wall chart", "Red", "White", "Round 1"} if language != "en" else set()
    for path in pages:
        html = path.read_text(encoding="utf-8")
        assert words.gettext("Tournaments") in html, path
        for word in english:
            assert f">{word}<" not in html, (path, word)


@pytest.mark.parametrize(("language", "mark"), [("en", "."), ("zh", "."), ("vi", ","), ("es", ",")])
def test_numbers_use_the_languages_decimal_mark(site: Path, language: str, mark: str) -> None:
    """Vietnamese and Spanish write 7,5; English and Chinese 7.5 (points, tie-breaks, scoring)."""
    html = page(site, language, "chess-swiss/index.html")
    other = "," if mark == "." else "."
    assert f"<strong>4{mark}5</strong>" in html and f"<strong>4{other}5</strong>" not in html
    assert f">30{mark}5<" in html or f">29{mark}5<" in html  # Buchholz values
    legend = SITE_CATALOGUE.translations(language).gettext("Points: win %(w)s, draw %(d)s, loss %(l)s.")
    assert legend % {"w": "1", "d": f"0{mark}5", "l": "0"} in html


if __name__ == "__main__":
    write_template()
    print(f"wrote {POT.relative_to(ROOT)}")


def test_the_site_environment_translates_new_style_and_escapes_variables() -> None:
    """Jinja2's new-style gettext semantics, kept by the builder's faster version: the message
    is always a format string, variables are escaped, plurals pick by ``num``."""
    from site_builder import THEMES, site_environment

    environment = site_environment(THEMES / "default", "test", "zh")
    render = lambda source, **values: environment.from_string(source).render(**values)  # noqa: E731
    assert render('{{ _("Standings") }}') == SITE_CATALOGUE.translations("zh").gettext("Standings")
    assert render('{{ _("Round %(n)s", n=x) }}', x="<b>") == (
        SITE_CATALOGUE.translations("zh").gettext("Round %(n)s") % {"n": "&lt;b&gt;"})
    assert render('{{ _("100%% sure") }}') == "100% sure"  # a format string even without variables
    english = site_environment(THEMES / "default", "test", "en")
    plural = '{{ ngettext("%(num)s play-off game still to play.", "%(num)s play-off games still to play.", n) }}'
    assert english.from_string(plural).render(n=1) == "1 play-off game still to play."
    assert english.from_string(plural).render(n=3) == "3 play-off games still to play."


def test_dict_keys_win_over_dict_methods_in_templates() -> None:
    from site_builder import THEMES, site_environment

    environment = site_environment(THEMES / "default", "test", "en")
    template = environment.from_string("{{ row.values|join(',') }} {{ row.name }} {{ row.items is defined }}")
    assert template.render(row={"values": [1, 2], "name": "<i>"}) == "1,2 &lt;i&gt; True"


def test_the_site_words_are_compiled_once_and_read_back_from_the_cache(tmp_path: Path) -> None:
    """With a cache folder (a build's), a catalogue is compiled once and kept there by its size
    and modification time; a later process reads it back (the same words), and a damaged file
    is compiled again, never used."""
    from site_builder.environment import _translations

    messages = [entry.id for entry in read_po(SITE_CATALOGUE.path("vi").open("rb")) if entry.id and entry.string]
    expected = SITE_CATALOGUE.translations("vi")
    first = _translations("vi", tmp_path)
    [kept] = tmp_path.glob("site-vi-*.mo")
    status = SITE_CATALOGUE.path("vi").stat()
    assert kept.name == f"site-vi-{status.st_size}-{status.st_mtime_ns}.mo"
    again = _translations("vi", tmp_path)
    for translations in (first, again):
        assert [translations.gettext(m) if isinstance(m, str) else m for m in messages] == \
            [expected.gettext(m) if isinstance(m, str) else m for m in messages]
    kept.write_bytes(b"damaged")
    assert _translations("vi", tmp_path).gettext("withdrawn") == expected.gettext("withdrawn") != "withdrawn"
    assert kept.read_bytes() != b"damaged"  # compiled again, and kept
