"""The rules page: the rulebook in brief and every ruling the app applies.

Its text lives in the repository, as Markdown: docs/rules-summary.md (the campaign in brief,
and the shared rulings in the app's words, ids as in shared/rules/rulings.md) and
docs/app-rulings.md (the app's own A rulings, from its first section on). A list item that
starts with a bold ruling id (`- **O2 Resolution sequence.** …`) gets the anchor
`ruling-o2`, and "ruling O2" in the text links there. Both files are rendered once per
process.
"""

import html
import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any
from xml.etree.ElementTree import Element

import markdown  # type: ignore[import-untyped]
from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import URLPattern, path
from django.utils.safestring import SafeString, mark_safe
from django.utils.text import slugify
from django.views.decorators.http import require_GET
from markdown.extensions import Extension  # type: ignore[import-untyped]
from markdown.inlinepatterns import InlineProcessor  # type: ignore[import-untyped]
from markdown.treeprocessors import Treeprocessor  # type: ignore[import-untyped]

from campaign.rules.options import offered

DOCS = Path(settings.BASE_DIR) / "docs"
RULING_ID = re.compile(r"([A-Z]{1,2}\d+)\b")  # O2; OA14, a campaign option's rule


def ruling_anchor(ruling_id: str) -> str:
    return f"ruling-{ruling_id.lower()}"


class RulingAnchors(Treeprocessor):  # type: ignore[misc]
    """`<li><strong>O2 …</strong> …</li>` gets `id="ruling-o2"`."""

    def run(self, root: Element) -> None:
        for item in root.iter("li"):
            first = item[0] if len(item) else None
            if first is None or first.tag != "strong" or (item.text or "").strip():
                continue
            found = RULING_ID.match(first.text or "")
            if found:
                item.set("id", ruling_anchor(found[1]))


class RulingLinks(InlineProcessor):  # type: ignore[misc]
    """Links "ruling O2" in the text to that ruling's anchor."""

    def handleMatch(self, m: re.Match[str], data: str) -> tuple[Element, int, int]:
        link = Element("a", {"href": f"#{ruling_anchor(m[1])}"})
        link.text = m[0]
        return link, m.start(0), m.end(0)


class Rulings(Extension):  # type: ignore[misc]
    def extendMarkdown(self, md: markdown.Markdown) -> None:
        md.treeprocessors.register(RulingAnchors(md), "ruling_anchors", 7)
        md.inlinePatterns.register(
            RulingLinks(r"\b(?:[Rr]uling|[Oo]ption) ([A-Z]{1,2}\d+)\b", md), "ruling_links", 175
        )


@dataclass(frozen=True)
class Heading:
    """An entry of the page's table of contents."""

    id: str
    name: str
    children: tuple["Heading", ...]


@dataclass(frozen=True)
class RulesText:
    html: SafeString
    contents: tuple[Heading, ...]


@dataclass(frozen=True)
class RulesPage:
    summary: RulesText
    app_rulings: RulesText
    option_rules: dict[str, SafeString]  # by option name: its rules, for the switches


def _headings(tokens: list[dict[str, Any]]) -> tuple[Heading, ...]:
    return tuple(
        Heading(t["id"], html.unescape(t["name"]), _headings(t["children"])) for t in tokens
    )


def render_rules_text(text: str, *, id_prefix: str = "", base_level: int = 1) -> RulesText:
    """The Markdown as HTML (ours, from the repository: trusted) and its headings."""
    md = markdown.Markdown(
        extensions=["tables", "toc", Rulings()],
        extension_configs={
            "toc": {
                "baselevel": base_level,
                "slugify": lambda value, separator: id_prefix + slugify(value),
            }
        },
    )
    body = md.convert(text)
    return RulesText(mark_safe(body), _headings(md.toc_tokens))


def _sections_of(text: str) -> str:
    """The text from its first `##` section on: docs/app-rulings.md opens with a title and
    a note for developers, which the page replaces with its own."""
    start = re.search(r"^## ", text, flags=re.MULTILINE)
    return text[start.start() :] if start else text


@cache
def rules_page() -> RulesPage:
    summary = (DOCS / "rules-summary.md").read_text(encoding="utf-8")
    app_rulings = _sections_of((DOCS / "app-rulings.md").read_text(encoding="utf-8"))
    options = (DOCS / "campaign-options.md").read_text(encoding="utf-8")
    return RulesPage(
        summary=render_rules_text(summary),
        # Its `##` sections sit under the page's own h2 for the app's rulings.
        app_rulings=render_rules_text(app_rulings, id_prefix="app-", base_level=2),
        option_rules={
            name: render_rules_text(text).html for name, text in _by_option(options).items()
        },
    )


def _by_option(text: str) -> dict[str, str]:
    """docs/campaign-options.md's `## name` sections, by option name."""
    parts = re.split(r"^## (\w+)\s*$", text, flags=re.MULTILINE)
    return dict(zip(parts[1::2], parts[2::2], strict=True))


@require_GET
def rules(request: HttpRequest) -> HttpResponse:
    page = rules_page()
    options = [(row, page.option_rules.get(row.name)) for row in offered()]
    return render(request, "campaign/rules.html", {"page": page, "options": options})


urlpatterns: list[URLPattern] = [path("rules/", rules, name="rules")]
