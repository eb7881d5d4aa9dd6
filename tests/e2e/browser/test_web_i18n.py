"""The page in the players' languages: English, Polish, Croatian and Galician message catalogs
(service/static/i18n/), complete and consistent, and the table rendered in the browser's language."""

from __future__ import annotations

import json
import re

import pytest

from tests.e2e.browser.table_driver import open_lobby, quick_play, wait_turn
from tests.support.processes import REPO

STATIC = REPO / "service" / "static"
# The plural forms each language needs (CLDR, as the browser's Intl.PluralRules picks them).
PLURAL_FORMS = {
    "en": {"one", "other"},
    "pl": {"one", "few", "many", "other"},
    "hr": {"one", "few", "other"},
    "gl": {"one", "other"},
}
PLACEHOLDER = re.compile(r"\{(\w+)\}")


def catalog(lang: str) -> dict:
    return json.loads((STATIC / "i18n" / f"{lang}.json").read_text(encoding="utf-8"))


def placeholders(value) -> set[str]:
    texts = value.values() if isinstance(value, dict) else [value]
    return {name for text in texts for name in PLACEHOLDER.findall(text)}


@pytest.mark.parametrize("lang", ["pl", "hr", "gl"])
def test_every_key_is_in_every_catalog_with_its_placeholders_and_plural_forms(lang):
    english, other = catalog("en"), catalog(lang)
    assert sorted(set(english) - set(other)) == [], f"missing in {lang}"
    assert sorted(set(other) - set(english)) == [], f"only in {lang}"
    for key, text in other.items():
        assert placeholders(text) == placeholders(english[key]), f"{lang} {key}: placeholders differ"
        assert isinstance(text, dict) == isinstance(english[key], dict), f"{lang} {key}: plural or not"
        if isinstance(text, dict):
            assert set(text) == PLURAL_FORMS[lang], f"{lang} {key}: plural forms {sorted(text)}"
        assert all(value.strip() for value in (text.values() if isinstance(text, dict) else [text])), (
            f"{lang} {key}: empty"
        )


def test_english_has_its_plural_forms():
    for key, text in catalog("en").items():
        if isinstance(text, dict):
            assert set(text) == PLURAL_FORMS["en"], key


def test_every_key_the_client_names_is_in_the_catalog():
    """The keys written out in the client's code and markup, and those it builds from option names."""
    english = catalog("en")
    code = "\n".join(path.read_text(encoding="utf-8") for path in (STATIC / "js").glob("*.js"))
    named = set(re.findall(r'"((?:[a-z][A-Za-z0-9]*)(?:\.[A-Za-z0-9_-]+)+)"', code))
    named |= set(
        re.findall(r'data-i18n(?:-label|-title)?="([^"]+)"', (STATIC / "index.html").read_text(encoding="utf-8"))
    )
    prefixes = ("guard.double", "guard.redouble")  # the dialog adds .title, .made, ...
    unknown = sorted(
        k
        for k in named
        if k not in english
        and k not in prefixes
        and not k.startswith("talon.")
        and not re.search(r"\.(js|json|css)$", k)
    )
    assert unknown == []
    options = re.findall(
        r'(?:bool|choice|int)\("([a-z_0-9]+)"', (STATIC / "js" / "options.js").read_text(encoding="utf-8")
    )
    assert len(options) > 30
    for name in options + ["first_dealer"]:
        assert f"opt.{name}" in english and f"opt.{name}.help" in english, name
    for suit in "SHDC":
        assert f"suit.name.{suit}" in english and f"suit.of.{suit}" in english
    for rank in "AKQJT987":
        assert f"rank.short.{rank}" in english and f"rank.long.{rank}" in english


def test_the_table_renders_in_polish(service, new_page):
    page = new_page(locale="pl-PL")
    open_lobby(page, service)
    assert page.evaluate("document.documentElement.lang") == "pl"
    assert page.inner_text("#quick-h") == "Zagraj teraz"
    assert page.input_value("#language") == "pl"
    quick_play(page, service, "sixty-six")
    wait_turn(page)
    text = page.inner_text("#app")
    assert "Sześćdziesiąt sześć" in page.inner_text("#table-title")
    assert page.inner_text("#turn") == "Twój ruch"
    assert "Atut" in text and "Talon" in text and "Wynik" in text
    for english in ("Your turn", "Trump", "Stock", "Score", "Deal "):
        assert english not in text, english
    assert "Podpowiedź" in page.inner_text("#controls") and "Rozdanie 1" in page.inner_text("#head")
    names = page.locator("#hand .card").evaluate_all("cs => cs.map(c => c.getAttribute('aria-label'))")
    assert all(
        re.fullmatch(r"(as|król|dama|walet|dziesiątka|dziewiątka) (pik|kier|karo|trefl)", name) for name in names
    ), names
    assert "Twój ruch" in page.title()
    # The picker changes the language at once, and remembers it.
    page.select_option("#language", "hr")
    page.wait_for_function("document.documentElement.lang === 'hr'")
    wait_turn(page)
    assert page.inner_text("#turn") == "Na potezu si"
    page.reload()
    page.wait_for_function("document.documentElement.lang === 'hr'")
