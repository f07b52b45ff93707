"""The rules page: public, the campaign in brief, and every ruling with an anchor other
pages can link to."""

import html
import re
from pathlib import Path

import pytest
from django.test import Client
from django.urls import reverse

from campaign.rules.options import OPTIONS
from tests.campaign.helpers import signed_in

pytestmark = pytest.mark.django_db

APP_RULINGS = Path(__file__).resolve().parents[3] / "docs" / "app-rulings.md"

# Every ruling id of shared/rules/rulings.md (not in the repository, so copied here by hand):
# Map, Setup, Orders, Battles, Reform, Winter, Scoring, Dice.
SHARED_RULINGS = (
    *(f"M{n}" for n in range(1, 9)),
    *(f"S{n}" for n in range(1, 4)),
    *(f"O{n}" for n in range(1, 9)),
    *(f"B{n}" for n in range(1, 13)),
    *(f"R{n}" for n in range(1, 4)),
    *(f"W{n}" for n in range(1, 8)),
    *(f"P{n}" for n in range(1, 3)),
    *(f"D{n}" for n in range(1, 3)),
)


def app_rulings() -> list[str]:
    return re.findall(r"^- \*\*(A\d+)\b", APP_RULINGS.read_text(encoding="utf-8"), re.MULTILINE)


def rules_page(client: Client) -> str:
    response = client.get(reverse("campaign:rules"))
    assert response.status_code == 200
    page: str = response.text
    return page


def test_the_rules_page_is_at_rules():
    assert reverse("campaign:rules") == "/rules/"


def test_a_signed_out_visitor_reads_the_rules_without_the_database(
    client, django_assert_num_queries
):
    with django_assert_num_queries(0):
        page = rules_page(client)
    assert "<h1>The rules</h1>" in page
    assert "Sign in" in page


def test_a_signed_in_player_reads_the_rules(client, cast):
    page = rules_page(signed_in(client, cast["alice"]))
    assert "<h1>The rules</h1>" in page
    assert reverse("accounts:settings") in page


def test_every_page_links_to_the_rules(client, cast):
    rules_link = f'href="{reverse("campaign:rules")}"'
    assert rules_link in client.get(reverse("campaign:home")).text
    assert rules_link in signed_in(client, cast["eve"]).get(reverse("campaign:home")).text


def test_the_summary_covers_the_campaign_section_by_section(client):
    page = rules_page(client)
    for section in (
        "The map",
        "Setup",
        "Summer: orders",
        "Summer: resolution",
        "Summer: battles",
        "Summer: reform",
        "Winter",
        "Victory",
    ):
        assert f">{section}</h3>" in page


@pytest.mark.parametrize("ruling", SHARED_RULINGS)
def test_every_shared_ruling_is_shown_with_its_anchor(client, ruling):
    assert f'<li id="ruling-{ruling.lower()}"><strong>{ruling} ' in rules_page(client)


def test_every_app_ruling_is_shown_with_its_anchor(client):
    rulings = app_rulings()
    assert rulings[:2] == ["A1", "A2"]
    assert len(rulings) >= 17
    page = rules_page(client)
    for ruling in rulings:
        assert f'<li id="ruling-{ruling.lower()}"><strong>{ruling} ' in page


TEMPLATES = Path(__file__).resolve().parents[3] / "templates"
OPTIONAL = Path(__file__).resolve().parents[3] / "campaign" / "display" / "optional"


def test_every_ruling_a_page_links_to_is_on_the_rules_page(client):
    """`{% ruling "OA6" word="option" %}` on any page links to the rules page's anchor, and
    so does every ruling an option's part of the battle card cites (`Cite("OA2")`)."""
    linked = {
        ruling
        for template in TEMPLATES.rglob("*.html")
        for ruling in re.findall(r'{% ruling "(\w+)"', template.read_text())
    } | {
        ruling
        for module in OPTIONAL.glob("*.py")
        for ruling in re.findall(r'Cite\("(\w+)"', module.read_text())
    }
    assert {"B7", "W7", "OA2", "OA6", "OA9", "OA10"} <= linked
    page = rules_page(client)
    missing = sorted(r for r in linked if f'id="ruling-{r.lower()}"' not in page)
    assert missing == []


def test_no_anchor_is_used_twice(client):
    ids = re.findall(r'\sid="([^"]+)"', rules_page(client))
    assert len(ids) == len(set(ids))


def test_every_link_within_the_page_finds_its_place(client):
    """The table of contents, the "back to contents" links, and "ruling O3" in a ruling's
    text all lead somewhere on the page."""
    page = rules_page(client)
    ids = set(re.findall(r'\sid="([^"]+)"', page))
    targets = set(re.findall(r'href="#([^"]+)"', page))
    assert {"contents", "app-rulings", "the-map", "winter-w", "app-setup", "ruling-o3"} <= targets
    assert targets <= ids


def test_the_contents_list_every_part_and_section(client):
    page = rules_page(client)
    contents = page[page.index('id="contents"') : page.index("</nav>", page.index('id="contents"'))]
    for heading_id in re.findall(r'<h[23] id="([^"]+)"', page):
        if heading_id != "contents-title":
            assert f'href="#{heading_id}"' in contents


def test_a_ruling_named_in_the_text_links_to_it(client):
    assert '(<a href="#ruling-o3">ruling O3</a>' in rules_page(client)


def test_the_rules_page_only_answers_get(client):
    assert client.post(reverse("campaign:rules")).status_code == 405


def test_the_rules_page_explains_every_campaign_option_from_the_options_table(client):
    """Every option offered to a group creating a campaign; none that is not (yet)."""
    page = html.unescape(client.get("/rules/").text)
    for row in OPTIONS:
        if not row.offered:
            assert f'id="option-{row.name}"' not in page
            continue
        assert f'<dt id="option-{row.name}">{row.label}</dt>' in page
        assert row.words in page
        for words in row.choices.values():
            assert words in page
    assert "1 to 20; 6 unless the campaign chooses otherwise." in page  # years
