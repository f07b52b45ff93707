"""`manage.py bench_first_visits`: each page a player opens, asked whole as a first visit
beside `/healthz`, on the demo the e2e tests load and served by their live server (the
command's own gunicorn is `bench_pages`', tested with it; a run of it costs the demo's
making, a minute of CPU): one figure a line and a target a page."""

import re
from urllib.parse import urlsplit

import pytest
from pytest_django.live_server_helper import LiveServer

from campaign.management.commands.bench_first_visits import QUICK, demo_pages, first_visits

FIGURE = re.compile(r"^bench: first_visit_[a-z]+_(ms -?\d+\.\d ms|ratio \d+\.\d\d x)$")
TARGET = re.compile(r"^bench: target_first_visit_(?P<page>[a-z]+)_(?P<times>[23])x (met|not met)$")
TARGETS = {"campaign": "2", "orders": "2"} | dict.fromkeys(
    ("battle", "winter", "end", "letters", "kingdom", "chronicle", "dashboard"), "3"
)


@pytest.mark.usefixtures("demo")
def test_it_prints_each_pages_time_its_ratio_to_healthz_and_its_target(
    live_server: LiveServer,
) -> None:
    port = urlsplit(live_server.url).port
    assert port is not None
    lines = list(first_visits(QUICK, port, demo_pages()))  # a page not 200 raises
    assert all(FIGURE.match(line) or TARGET.match(line) for line in lines), lines
    names = [line.split()[1] for line in lines]
    assert names[0] == "first_visit_healthz_ms"
    for page in TARGETS:
        assert {f"first_visit_{page}_ms", f"first_visit_{page}_ratio"} <= set(names)
    targets = {m["page"]: m["times"] for line in lines if (m := TARGET.match(line))}
    assert targets == TARGETS
