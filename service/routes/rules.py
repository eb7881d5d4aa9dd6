"""The rules pages at /rules/ (index) and /rules/<game>: docs/rules/*.md rendered to HTML, kept out of
the API spec like the browser client.

The Markdown files are the single source: GitHub shows them as they are, and this module renders each
once per process (`markdown`, with tables and heading ids), in a page with a small stylesheet of its
own (/rules/style.css: no inline style, for the Content-Security-Policy) and no external asset. Anchors written in the Markdown (`option-<name>`, `event-<type>`) stay as
they are, so the lobby and the API spec can link to `/rules/<game>#option-<name>`.

Where the files are: `TALON_RULES_DIR` when set (the Docker image copies docs/rules there, since it
installs the packages only), otherwise docs/rules/ of the checkout this package runs from.
"""

from __future__ import annotations

import logging
import re
from functools import cache
from html import escape
from pathlib import Path

import markdown
from flask import Blueprint, Response, current_app, request

from app.settings import Settings
from games.registry import game_names
from service.problems import Problem

log = logging.getLogger("talon.rules")

blp = Blueprint("rules", __name__)

CHECKOUT_RULES_DIR = Path(__file__).resolve().parents[2] / "docs" / "rules"
INDEX = "README.md"

# The colours of the browser client (service/static/app.css), so the pages look like one site.
STYLE = """
:root { --felt: #14532d; --felt-dark: #0f3d22; --ink: #1f2937; --muted: #6b7280; --paper: #f8fafc;
  --accent: #f59e0b; --line: #d1d5db; font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif;
  color: var(--ink); line-height: 1.55; }
* { box-sizing: border-box; }
body { margin: 0; background: #e5e7eb; }
.topbar { display: flex; align-items: center; gap: 16px; padding: 10px 16px; background: var(--felt-dark); color: #fff; }
.topbar a { color: #fff; }
.brand { font-weight: 700; font-size: 1.2rem; text-decoration: none; }
.topbar nav { margin-left: auto; display: flex; gap: 14px; font-size: .95rem; }
.page { max-width: 1100px; margin: 0 auto; padding: 16px; display: grid; gap: 16px; grid-template-columns: 1fr; }
@media (min-width: 900px) { .page { grid-template-columns: 220px minmax(0, 1fr); align-items: start; }
  .toc { position: sticky; top: 12px; } }
.toc, main { background: #fff; border-radius: 10px; box-shadow: 0 1px 3px rgba(0,0,0,.12); }
.toc { padding: 12px 16px; font-size: .92rem; }
.toc ul { list-style: none; margin: 0; padding: 0; }
.toc li { margin: 4px 0; }
.toc a { color: var(--felt); text-decoration: none; }
main { padding: 8px 28px 24px; overflow-wrap: break-word; }
h1 { color: var(--felt-dark); margin: 16px 0 8px; }
h2 { color: var(--felt); border-bottom: 2px solid var(--accent); padding-bottom: 2px; margin-top: 32px; }
h3 { margin: 24px 0 4px; }
a { color: var(--felt); }
code { background: var(--paper); border: 1px solid #e5e7eb; border-radius: 4px; padding: 0 4px; font-size: .92em; }
pre { background: var(--paper); border: 1px solid var(--line); border-radius: 8px; padding: 10px 12px; overflow-x: auto; }
pre code { border: 0; padding: 0; background: none; }
table { border-collapse: collapse; margin: 12px 0; display: block; overflow-x: auto; }
th, td { border: 1px solid var(--line); padding: 5px 10px; text-align: left; vertical-align: top; }
th { background: #f0fdf4; }
tr:nth-child(even) td { background: var(--paper); }
:target { scroll-margin-top: 12px; }
h3:has(a:target), tr:has(a:target) td { background: #fef3c7; }
"""

PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>{title} - Talon rules</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="stylesheet" href="/rules/style.css"></head>
<body><header class="topbar"><a class="brand" href="/">&#9824; Talon</a>
<nav><a href="/rules/">Rules</a><a href="/">Play</a><a href="/docs">API</a></nav></header>
<div class="page"><nav class="toc" aria-label="Contents"><ul>{toc}</ul></nav>
<main>{body}</main></div></body></html>
"""

# Links between the Markdown files (right on GitHub) become links between the served pages.
_PAGE_LINK = re.compile(r'href="(README|[a-z-]+)\.md(#[^"]*)?"')


def rules_dir(settings: Settings) -> Path:
    return Path(settings.rules_dir) if settings.rules_dir else CHECKOUT_RULES_DIR


def page_files() -> dict[str, str]:
    """Page name -> Markdown file: "" is the index, then one page per game Talon serves."""
    return {"": INDEX, **{game: f"{game}.md" for game in game_names()}}


@cache  # once per process and directory: the files change only with a new release
def rendered(directory: Path, name: str) -> str | None:
    """The HTML page of `name` (see `page_files`), or None when this server has no such page."""
    file = page_files().get(name)
    path = directory / file if file else None
    if path is None or not path.is_file():
        if file:
            log.warning("rules page missing", extra={"path": str(path)})
        return None
    md = markdown.Markdown(extensions=["tables", "toc"])
    body = _PAGE_LINK.sub(_served_link, md.convert(path.read_text(encoding="utf-8")))
    top = md.toc_tokens[0] if md.toc_tokens else {"name": "Rules", "children": []}
    toc = "".join(f'<li><a href="#{escape(h["id"])}">{h["name"]}</a></li>' for h in top["children"])
    return PAGE.format(title=top["name"], toc=toc, body=body)


def _served_link(match: re.Match) -> str:
    name = "" if match.group(1) == "README" else match.group(1)
    return f'href="/rules/{name}{match.group(2) or ""}"'


def _answer(name: str) -> Response:
    html = rendered(rules_dir(current_app.extensions["talon_settings"]), name)
    if html is None:
        games = ", ".join(game_names())
        raise Problem(404, "not-found", f"there is no rules page {name!r}; the games are {games}")
    response = Response(html, content_type="text/html; charset=utf-8")
    response.headers["Cache-Control"] = "no-cache"  # revalidated by its ETag: a release may change it
    response.add_etag()
    return response.make_conditional(request)


@blp.route("/rules/style.css")
def style():
    # A stylesheet of its own, not inline: the pages run under the service's Content-Security-Policy.
    return Response(STYLE, content_type="text/css; charset=utf-8", headers={"Cache-Control": "no-cache"})


@blp.route("/rules/")
def index():
    return _answer("")


@blp.route("/rules/<game>")
def game_rules(game: str):
    return _answer(game)
