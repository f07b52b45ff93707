"""Hostile campaign files for `manage.py adjudicate` and the engine's `advance`, and hostile
export documents for `campaign_import` and `manage.py import_campaign`: deep nesting, huge
numbers, NaN and Infinity, a wrong type at every key of a real file, keys missing or
unknown, unicode, files of 50 MB. Each is refused with one line a person understands (a
RuleError, a ServiceError, a CommandError), never an uncaught exception, and an import
refused writes nothing.

The Hypothesis profile (tests/conftest.py; see tests/test_fuzz_posts.py) sets the examples
of the mutations here: ten times its examples, 240 files and 240 exports with the "ci"
profile of `make test`."""

import copy
import json
import math
import random
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from django.core.management import CommandError, call_command
from django.db import transaction
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from accounts.models import User
from battles.models import ArmyList
from campaign.management.commands import adjudicate as adjudicate_command
from campaign.management.commands import import_campaign as import_command
from campaign.maps import load_builtin_map
from campaign.models import (
    AuditEntry,
    Campaign,
    Correspondence,
    Letter,
    LettersRead,
    Membership,
    Snapshot,
    Submission,
)
from campaign.rules.engine import advance
from campaign.rules.errors import RuleError
from campaign.rules.simulation import campaign_files, new_campaign
from campaign.services.common import ServiceError
from campaign.transfer.importing import campaign_import

# Ten times the profile's examples, derandomized or not (tests/conftest.py).
EXAMPLES = 10 * settings().max_examples
FUZZ = settings(
    deadline=None,
    max_examples=EXAMPLES,
    suppress_health_check=[
        HealthCheck.function_scoped_fixture,
        HealthCheck.too_slow,
        HealthCheck.data_too_large,
    ],
    database=None,
)
DEEP = 10_000
TALK = (Correspondence, Letter, LettersRead, ArmyList)  # what an import writes besides
HOWS = ("replace", "delete", "extra")  # what a mutation does at its place


@cache
def played() -> tuple[dict[str, Any], ...]:
    """Files of a bot-played campaign: the setup's first, a summer month's orders, a
    battle's, a winter's, and the end."""
    hexmap = load_builtin_map("borderlands")
    files = list(campaign_files(new_campaign(3, 7, hexmap), random.Random(7), hexmap))
    wanted: dict[str, dict[str, Any]] = {}
    for data in files:
        clock = data["clock"]
        key = clock["season"] if clock["season"] != "summer" else clock["step"]
        wanted.setdefault(key, data)
    return tuple(wanted.values())


def paths(value: Any, here: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    """Every key and index of a JSON value (only the first 3 items of a list)."""
    if isinstance(value, dict):
        for key, inner in value.items():
            yield (*here, key)
            yield from paths(inner, (*here, key))
    elif isinstance(value, list):
        for i, inner in enumerate(value[:3]):
            yield (*here, i)
            yield from paths(inner, (*here, i))


def nested(depth: int) -> Any:
    value: Any = 1
    for _ in range(depth):
        value = [value]
    return value


hostile: st.SearchStrategy[Any] = st.one_of(
    st.sampled_from(
        [None, True, False, 0, -1, 10**1000, -(10**1000), 2**63, 1.5, math.nan, math.inf,
         -math.inf, "", "x" * 100_000, "\x00", "😀", "Ænglish ☃", [], {}, [[]], {"": None}]
    ),
    st.integers(),
    st.text(max_size=30),
    st.lists(st.integers(-100, 100), max_size=3),
    st.integers(50, 400).map(nested),
)  # fmt: skip


def mutate(data: Any, path: tuple[Any, ...], how: str, value: Any) -> Any:
    bad = copy.deepcopy(data)
    *parents, last = path
    holder = bad
    for key in parents:
        holder = holder[key]
    if how == "delete":
        del holder[last]
    elif how == "extra" and isinstance(holder, dict):
        holder[f"{last}-extra"] = value
    else:
        holder[last] = value
    return bad


def refused_in_words(error: RuleError | ServiceError | CommandError) -> None:
    message = str(getattr(error, "message", error))
    assert message.strip()
    assert "\n" not in message
    assert "Traceback" not in message


# --- the engine and adjudicate ---------------------------------------------------------


def test_a_real_file_with_a_wrong_value_anywhere_is_refused_in_words():
    files = played()

    @FUZZ
    @given(
        data=st.sampled_from(files).flatmap(
            lambda f: st.tuples(
                st.just(f),
                st.sampled_from(list(paths(f))),
                st.sampled_from(HOWS),
                hostile,
            )
        ),
        defaults=st.booleans(),
    )
    def run(data, defaults):
        file, path, how, value = data
        mutated.add((files.index(file), how))
        bad = mutate(file, path, how, value)
        try:
            after = advance(bad, defaults=defaults)
        except RuleError as refusal:
            refused_in_words(refusal)
        else:
            assert isinstance(after, dict)
            json.dumps(after)  # and it is a campaign file again

    mutated: set[tuple[int, str]] = set()
    run()
    # However few the profile's examples, each file was spoilt in each way.
    assert mutated == {(n, how) for n in range(len(files)) for how in HOWS}


# Two crashes of the engine this fuzzing found, now refused in words; their inputs:
def awaiting_battle() -> dict[str, Any]:
    """The file at the battles step with a pitched battle waiting for its result."""
    return next(f for f in played() if f["battles"] and f["clock"]["step"] == "battles")


def test_the_engine_refuses_an_awaited_battle_with_no_armies_left():
    file = awaiting_battle()
    waiting = next(n for n, b in enumerate(file["battles"]) if b["status"] == "awaiting_result")
    with pytest.raises(RuleError) as refused:
        advance(mutate(file, ("armies",), "replace", []))
    assert (refused.value.code, refused.value.field) == (
        "battle-without-armies", f"battles[{waiting}]",
    )  # fmt: skip
    refused_in_words(refused.value)


def test_the_engine_refuses_a_battle_of_a_kingdom_not_in_the_file():
    with pytest.raises(RuleError) as refused:
        advance(mutate(awaiting_battle(), ("battles", 0, "attacker"), "replace", "x"))
    assert (refused.value.code, refused.value.field) == ("unknown-kingdom", "battles[0].attacker")
    assert refused.value.message == "There is no kingdom 'x'."


@pytest.mark.parametrize(
    "value",
    [
        pytest.param(nested(DEEP), id="nested-10000-deep"),
        pytest.param({"format": 1, "name": nested(DEEP)}, id="nested-in-a-field"),
        pytest.param(10**1000, id="a-huge-number"),
        pytest.param(math.nan, id="nan"),
        pytest.param([], id="a-list"),
        pytest.param("campaign", id="a-text"),
        pytest.param(None, id="null"),
    ],
)
def test_the_engine_refuses_a_file_that_is_no_campaign(value):
    with pytest.raises(RuleError) as refusal:
        advance(value)
    refused_in_words(refusal.value)


def adjudicate(tmp_path: Path, text: str | bytes, capsys: Any) -> str:
    """Run the command on a file holding `text`; its one-line refusal."""
    path = tmp_path / "hostile.json"
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8")
    with pytest.raises(SystemExit) as exit_:
        call_command("adjudicate", str(path))
    err: str = capsys.readouterr().err
    assert exit_.value.code == adjudicate_command.REFUSED
    assert err.startswith("refused: ")
    assert err.count("\n") == 1
    return err


def valid_text() -> str:
    return json.dumps(played()[1])


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("[" * DEEP + "]" * DEEP, "nested too deeply"),
        ('{"format": ' * DEEP + "1" + "}" * DEEP, "nested too deeply"),
        ("1" * 5000, "a number too long"),
        (valid_text().replace('"year": 1', '"year": ' + "9" * 5000, 1), "a number too long"),
        (valid_text().replace('"year": 1', '"year": NaN', 1), "clock.year"),
        (valid_text().replace('"year": 1', '"year": Infinity', 1), "clock.year"),
        (valid_text().replace('"year": 1', '"year": 1e400', 1), "clock.year"),
        (valid_text()[: len(valid_text()) // 2], "not valid JSON"),
        ("", "not valid JSON"),
        (b"\xff\xfe{}", "not UTF-8"),
        ('"\\ud800"', "hostile.json is not valid JSON text: it holds a lone surrogate"),
        (valid_text().replace('"name": "', '"name": "\\udc00', 1), "it holds a lone surrogate"),
        (valid_text().replace('"year"', '"\\ud83d\\ude00"', 1), "unknown-field"),
    ],
    ids=["nested", "nested-objects", "huge-int", "huge-int-in-a-file", "nan", "infinity",
         "overflowing-float", "cut-short", "empty", "not-utf8", "a-lone-surrogate",
         "a-lone-surrogate-in-a-name", "a-surrogate-pair"],
)  # fmt: skip
def test_adjudicate_refuses_a_hostile_file_with_one_line(tmp_path, capsys, text, says):
    """A lone surrogate (half of a pair, \\ud800) is no Unicode character, so no JSON text
    the contract can read or write back as UTF-8: not-json, as an invalid file; a whole
    pair is a character like any other."""
    err = adjudicate(tmp_path, text, capsys)
    assert says in err


def test_adjudicate_refuses_a_50_mb_file_by_its_size_before_reading_it(
    tmp_path, capsys, monkeypatch
):
    path = tmp_path / "huge.json"
    with path.open("w", encoding="utf-8") as out:
        out.write('{"format": 1, "name": "')
        chunk = "x" * (1024 * 1024)
        for _ in range(50):
            out.write(chunk)
        out.write('"}')
    monkeypatch.setattr(Path, "read_text", lambda *a, **k: pytest.fail("it read the file"))

    with pytest.raises(SystemExit):
        call_command("adjudicate", str(path))

    err = capsys.readouterr().err
    assert err == (
        f"refused: file-too-big at (file): {path} is larger than 10 MB: "
        "no campaign file is that big.\n"
    )


def test_adjudicate_refuses_a_50_mb_standard_input_without_reading_it_all(capsys, monkeypatch):
    class Endless:
        asked: list[int] = []  # noqa: RUF012

        def read(self, size: int = -1) -> str:
            assert size > 0, "it read standard input to its end"
            self.asked.append(size)
            return "[" * size

    monkeypatch.setattr("sys.stdin", Endless())
    with pytest.raises(SystemExit):
        call_command("adjudicate", "-")

    assert "larger than 10 MB" in capsys.readouterr().err
    assert Endless.asked == [adjudicate_command.MAX_FILE_BYTES + 1]


# --- importing an export --------------------------------------------------------------


@pytest.fixture
def document(db: None) -> dict[str, Any]:
    """An export of a campaign a few months into summer, whose users exist."""
    final = played()[1]
    for name in ("gm", "alice", "bob", "carol"):
        User.objects.create_user(name)
    return {
        "export": 1,
        "campaign": {
            "name": final["name"], "slug": "hostile", "status": "running", "kingdoms": 3,
            "options": final["options"],
            "deadlines": {"setup": 48, "orders": 72, "battles": 168, "winter": 48},
            "map_name": "borderlands", "deadline": None, "paused_with": None,
            "public": False, "deadline_days": [0, 1, 2, 3, 4, 5, 6], "time_zone": "UTC",
        },
        "members": [
            {"username": "gm", "kingdom": "", "kingdom_name": "", "colour": "",
             "heraldry": "", "is_admin": True, "joined_at": "2025-06-01T12:00:00+00:00"},
            *({"username": name, "kingdom": kingdom, "kingdom_name": f"The {kingdom}",
               "colour": colour, "heraldry": kingdom[0].upper(), "is_admin": False}
              for name, kingdom, colour in (("alice", "red", "#aa0000"),
                                            ("bob", "blue", "#0000aa"),
                                            ("carol", "green", "#00aa00"))),
        ],
        "snapshots": [
            {"number": 1, "reason": "import", "defaults": False, "data": final,
             "decisions": {}, "created_by": "gm", "created_at": "2025-06-01T12:00:00+00:00"},
        ],
        "submissions": [
            {"kingdom": "red", "kind": "orders", "payload": [], "snapshot": 1, "ready": False,
             "submitted_by": "alice", "created_at": "2025-06-01T12:00:00+00:00",
             "updated_at": "2025-06-01T12:00:00+00:00"},
        ],
        "correspondences": [
            {"herald": True, "kingdoms": [], "created_at": "2025-06-01T12:00:00+00:00",
             "letters": [{"kingdom": "green", "writer": "carol", "text": "Hear ye.",
                          "written_at": "2025-06-01T12:00:00+00:00", "edited_at": None}],
             "read": [{"kingdom": "green", "letters": 1}, {"kingdom": "red", "letters": 0}]},
            {"herald": False, "kingdoms": ["blue", "red"],
             "letters": [{"kingdom": "red", "writer": "alice", "text": "Peace?",
                          "written_at": "2025-06-01T12:00:00+00:00"}],
             "read": [{"kingdom": "red", "letters": 1}]},
        ],
        "army_lists": [
            {"kingdom": "red", "name": "Spear Wall", "points": 500, "race": "Elves",
             "text": "20 Spearmen [500]", "created_at": "2025-06-01T12:00:00+00:00"},
        ],
        "file": final,
    }  # fmt: skip


def database() -> dict[str, int]:
    return {
        model.__name__: model.objects.count()
        for model in (Campaign, Membership, Snapshot, Submission, AuditEntry, User, *TALK)
    }


def test_the_document_itself_comes_in(document):
    imported = campaign_import(document)
    assert imported.snapshots.count() == 1
    assert imported.correspondences.count() == 2
    assert imported.army_lists.count() == 1


def test_an_export_with_a_wrong_value_anywhere_is_refused_and_writes_nothing(document):
    before = database()
    where = [p for p in paths(document) if p[:2] not in (("snapshots", 0), ("file",))]
    in_the_file = [p for p in paths(document["file"]) if len(p) <= 3]
    everywhere = where + [("snapshots", 0, "data", *p) for p in in_the_file]

    @FUZZ
    @given(
        path=st.sampled_from(everywhere),
        how=st.sampled_from(HOWS),
        value=hostile,
        slug=st.none() | st.text(max_size=80),
    )
    def run(path, how, value, slug):
        spoilt.add((part(path), how))
        bad = mutate(document, path, how, value)
        with transaction.atomic():
            try:
                campaign_import(bad, slug=slug)
            except ServiceError as refusal:
                refused_in_words(refusal)
                assert database() == before
            transaction.set_rollback(True)

    def part(path: tuple[Any, ...]) -> str:
        """The document's own fields, or its snapshot's campaign file."""
        return "the snapshot's file" if path[:3] == ("snapshots", 0, "data") else "document"

    spoilt: set[tuple[str, str]] = set()
    run()
    # However few the profile's examples, the document's own fields and its snapshot's
    # campaign file were each spoilt in each way.
    assert spoilt == {(part, how) for part in ("document", "the snapshot's file") for how in HOWS}


@pytest.mark.parametrize(
    "value",
    [
        pytest.param(nested(DEEP), id="nested-10000-deep"),
        pytest.param({"export": 1, "campaign": nested(DEEP)}, id="nested-in-a-field"),
        pytest.param({"export": 10**1000}, id="a-huge-number"),
        pytest.param({"export": math.nan}, id="nan"),
        pytest.param([], id="a-list"),
        pytest.param(None, id="null"),
    ],
)
def test_an_import_refuses_what_is_no_export(db, value):
    before = database()
    with pytest.raises(ServiceError) as refusal:
        campaign_import(value)
    refused_in_words(refusal.value)
    assert database() == before


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("[" * DEEP + "]" * DEEP, "nested too deeply"),
        ("1" * 5000, "a number too long"),
        ('{"export": NaN}', "JSON cannot store: NaN"),
        ("", "not valid JSON"),
        (b"\xff{}", "not UTF-8"),
        ('{"export": "\\ud800"}', "it holds a lone surrogate"),
    ],
    ids=["nested", "huge-int", "nan", "empty", "not-utf8", "a-lone-surrogate"],
)
def test_import_campaign_refuses_a_hostile_file_with_one_line(db, tmp_path, text, says):
    path = tmp_path / "hostile.json"
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8")
    before = database()

    with pytest.raises(CommandError) as refusal:
        call_command("import_campaign", str(path))

    assert says in str(refusal.value)
    refused_in_words(refusal.value)
    assert database() == before


def test_import_campaign_refuses_a_50_mb_document_with_one_line(db, tmp_path):
    """50 MB is within the import's limit (a whole history may be 15 MB and more): it is
    read, and refused in words."""
    path = tmp_path / "huge.json"
    with path.open("w", encoding="utf-8") as out:
        out.write('{"export": 1, "campaign": "')
        chunk = "x" * (1024 * 1024)
        for _ in range(50):
            out.write(chunk)
        out.write('", "members": [], "snapshots": []}')
    before = database()

    with pytest.raises(CommandError) as refusal:
        call_command("import_campaign", str(path))

    assert str(refusal.value) == "refused: campaign must be a JSON object."
    assert database() == before


def test_import_campaign_refuses_a_document_over_its_limit_before_reading_it(
    db, tmp_path, monkeypatch
):
    path = tmp_path / "huge.json"
    with path.open("wb") as out:
        out.truncate(import_command.MAX_FILE_BYTES + 1)  # sparse: nothing is written
    monkeypatch.setattr(Path, "read_text", lambda *a, **k: pytest.fail("it read the file"))

    with pytest.raises(CommandError) as refusal:
        call_command("import_campaign", str(path))

    assert str(refusal.value) == f"refused: {path} is larger than 512 MB: no export is that big."
