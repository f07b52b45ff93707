"""Deployed, the static files are served as `collectstatic` gathers them: under names that
carry a hash of their contents, compressed, and kept by browsers for at least a year."""

import re
from pathlib import Path

import pytest
from django.core.management import call_command
from django.test import Client
from pytest_django import Settings

YEAR = 365 * 24 * 60 * 60


@pytest.mark.django_db
def test_a_page_links_hashed_compressed_files_kept_a_year(
    settings: Settings, tmp_path: Path, client: Client
) -> None:
    settings.STATIC_ROOT = tmp_path
    settings.WHITENOISE_USE_FINDERS = False
    settings.STORAGES = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"},
    }
    # The app's own files (the Django admin's hundred and more would only cost time).
    call_command("collectstatic", interactive=False, verbosity=0, ignore_patterns=["admin"])

    page = client.get("/rules/").content.decode()
    links = re.findall(r'(?:href|src)="(/static/[^"]+)"', page)
    assert links
    assert all(re.search(r"\.[0-9a-f]{12}\.(css|js|svg)$", link) for link in links), links
    for link in links:
        served = client.get(link, headers={"accept-encoding": "gzip"})
        assert served.status_code == 200, link
        assert served["Content-Encoding"] == "gzip", link
        age = re.search(r"max-age=(\d+)", served["Cache-Control"])
        assert age, served["Cache-Control"]
        assert int(age[1]) >= YEAR, (link, served["Cache-Control"])
        assert "immutable" in served["Cache-Control"], link
