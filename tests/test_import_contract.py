"""The import contracts: import-linter fails if campaign/rules imports Django or an app
module (the rules engine stays pure), and if the campaign app imports the apps that listen
to it (battles, notifications). Checked on a copy of the code with a violation planted in
it."""

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import BASE_DIR

PACKAGES = ["campaign", "battles", "notifications", "accounts", "config"]


def lint_imports(tree: Path) -> subprocess.CompletedProcess[str]:
    lint = Path(sys.executable).parent / "lint-imports"
    return subprocess.run(
        [str(lint), "--no-cache"],
        cwd=tree, env={**os.environ, "PYTHONPATH": str(tree)},
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    for package in PACKAGES:
        shutil.copytree(BASE_DIR / package, tmp_path / package,
                        ignore=shutil.ignore_patterns("__pycache__"))  # fmt: skip
    shutil.copy(BASE_DIR / "pyproject.toml", tmp_path / "pyproject.toml")
    return tmp_path


def test_the_contract_holds_for_the_code_as_it_is(tree):
    result = lint_imports(tree)
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.parametrize(
    "planted",
    ["import django", "from django.db import models", "from campaign import models",
     "import campaign.views.campaign", "from accounts.models import User", "import celery"],
)  # fmt: skip
def test_the_contract_fails_when_the_rules_import_django_or_the_app(tree, planted):
    (tree / "campaign" / "rules" / "planted.py").write_text(planted + "\n")
    result = lint_imports(tree)
    assert result.returncode != 0
    assert "BROKEN" in result.stdout


@pytest.mark.parametrize("planted", ["from notifications import outbox", "import battles.sync"])
def test_the_contract_fails_when_the_campaign_imports_an_app_that_listens(tree, planted):
    """The campaign announces (campaign.signals); battles and notifications listen to it."""
    (tree / "campaign" / "views" / "planted.py").write_text(planted + "\n")
    result = lint_imports(tree)
    assert result.returncode != 0
    assert "BROKEN" in result.stdout
    assert "campaign.views.planted" in result.stdout
