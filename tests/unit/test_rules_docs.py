"""The rules pages' sources (docs/rules/) and how the service finds and renders them, without a server."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from app.settings import Settings
from games.registry import game_names
from service.routes import rules

REPO = Path(__file__).resolve().parents[2]
DOCS = sorted((REPO / "docs").rglob("*.md")) + [REPO / "README.md"]
FILE_NAMES = {path.name for path in REPO.rglob("*") if not {".git", ".venv", "node_modules"} & set(path.parts)}
URL = re.compile(r"[a-z][a-z0-9+.-]*://\S+")
LINK = re.compile(r"\]\(([^)\s#]*)[^)\s]*\)")  # a Markdown link's target, without its #fragment
FILE = re.compile(r"(?<![\w./:-])((?:\.\./|[\w-]+/)*[\w.-]+\.(?:md|py|ya?ml|toml|json|lua|sh))\b")
UP = re.compile(r"(?<![\w.])\.\./[\w./-]*")


def outside_references(doc: Path, text: str) -> list[str]:
    """The files `text` (the content of `doc`) names or links to that are not in the repository, sorted,
    each once: a relative path must resolve inside it (from the doc's folder or the repository's root),
    and a bare file name must be the name of one of its files."""

    def inside(target: str) -> bool:
        for base in (doc.parent, REPO):
            path = (base / target).resolve()
            if path.is_relative_to(REPO) and path.exists():
                return True
        return "/" not in target and target in FILE_NAMES

    text = URL.sub("", text)
    targets = [t for t in LINK.findall(text) if t and not t.startswith(("/", "mailto:"))]
    return sorted({t for t in targets + FILE.findall(text) + UP.findall(text) if not inside(t)})


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: str(p.relative_to(REPO)))
def test_the_docs_never_point_outside_the_repository(doc):
    assert outside_references(doc, doc.read_text(encoding="utf-8")) == []


def test_references_outside_the_repository_are_found():
    doc = REPO / "docs" / "ARCHITECTURE.md"
    text = (
        "See SPEC.md, `CONTRACT.md`, [the notes](../../elsewhere/notes.md#intro), ../elsewhere and "
        "[the style](https://example.org/STYLE.md); not [the index](rules/README.md) or `service/parking.py`."
    )
    assert outside_references(doc, text) == ["../../elsewhere/notes.md", "../elsewhere", "CONTRACT.md", "SPEC.md"]


def test_there_is_a_rules_page_for_every_game_and_an_index():
    present = {p.name for p in rules.CHECKOUT_RULES_DIR.glob("*.md")}
    assert set(rules.page_files().values()) <= present
    assert {f"{game}.md" for game in game_names()} | {"README.md"} == set(rules.page_files().values())


def test_the_pages_come_from_the_checkout_unless_talon_rules_dir_says_where(tmp_path):
    assert rules.rules_dir(Settings.from_env({})) == REPO / "docs" / "rules"
    assert rules.rules_dir(Settings.from_env({"TALON_RULES_DIR": str(tmp_path)})) == tmp_path


def test_links_between_markdown_files_become_links_between_pages(tmp_path):
    (tmp_path / "smear.md").write_text(
        "# Smear\n\n## Options\n\nSee [the index](README.md), [a table event](README.md#event-seat_reset) and "
        "[Sixty-Six's target](sixty-six.md#option-match_target).\n\n"
        '### <a id="option-widow_size"></a>`widow_size`\n\n| A | B |\n|---|---|\n| 1 | 2 |\n',
        encoding="utf-8",
    )
    html = rules.rendered(tmp_path, "smear")
    assert 'href="/rules/"' in html and 'href="/rules/#event-seat_reset"' in html
    assert 'href="/rules/sixty-six#option-match_target"' in html
    assert '<a id="option-widow_size"></a>' in html and "<table>" in html
    assert "<title>Smear - Talon rules</title>" in html and 'href="#options"' in html  # the contents list


def test_a_page_missing_from_the_directory_is_no_page(tmp_path):
    assert rules.rendered(tmp_path, "fifty-six") is None
    assert rules.rendered(tmp_path, "chess") is None
