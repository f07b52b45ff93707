"""The import contracts: import-linter fails if campaign/rules imports Django or an app
module (the rules engine stays pure), and if the campaign app imports the apps that listen
to it (battles, notifications). Checked on a copy of the code with a violation planted in
it."""

import os
import shutil
import subprocess
import sys
from pathlib import Path

import grimp
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


def import_cycles(packages: list[str]) -> list[list[str]]:
    """The circles among the packages' modules: each set of two or more modules that all
    reach one another through their imports (Tarjan's strongly connected components)."""
    graph = grimp.build_graph(*packages, cache_dir=None)
    order: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    cycles: list[list[str]] = []

    def visit(module: str) -> None:
        order[module] = low[module] = len(order)
        stack.append(module)
        for imported in graph.find_modules_directly_imported_by(module):
            if imported not in order:
                visit(imported)
                low[module] = min(low[module], low[imported])
            elif imported in stack:
                low[module] = min(low[module], order[imported])
        if low[module] == order[module]:
            circle = [stack.pop()]
            while circle[-1] != module:
                circle.append(stack.pop())
            if len(circle) > 1:
                cycles.append(sorted(circle))

    for module in sorted(graph.modules):
        if module not in order:
            visit(module)
    return cycles


def test_no_module_of_the_project_imports_itself_round_a_circle():
    assert import_cycles(PACKAGES) == []


def test_a_circle_is_found_when_one_is_planted(tree, monkeypatch):
    models = tree / "campaign" / "models.py"  # the services import the models
    models.write_text(models.read_text() + "\nimport campaign.services.common  # noqa\n")
    monkeypatch.syspath_prepend(str(tree))
    for name in [m for m in sys.modules if m.split(".")[0] in PACKAGES]:
        monkeypatch.delitem(sys.modules, name)
    assert any("campaign.models" in circle for circle in import_cycles(PACKAGES))
