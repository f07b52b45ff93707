"""Management commands run in the test's own process, the way `manage.py` runs them: the
command line parsed (a bad one is usage on standard error and exit status 2), a CommandError
printed on standard error with its exit status, standard input, output and error captured.
A process costs a second or more to start Django; each command keeps one test that runs it
in a process of its own, with none of the test settings."""

import io
import sys
from contextlib import redirect_stderr, redirect_stdout
from dataclasses import dataclass
from unittest import mock

from django.core.management import get_commands, load_command_class
from django.db import connections


@dataclass(frozen=True)
class Ran:
    """What a command did, as subprocess.CompletedProcess tells it."""

    returncode: int
    stdout: str
    stderr: str


def manage(*args: str, stdin: str = "") -> Ran:
    """`manage.py ARGS` in this process. The test's database connection stays open (manage.py
    closes every connection on its way out)."""
    name = args[0]
    out, err = io.StringIO(), io.StringIO()
    code: int | str | None = 0
    with (
        redirect_stdout(out),
        redirect_stderr(err),
        mock.patch.object(sys, "stdin", io.StringIO(stdin)),
        mock.patch.object(connections, "close_all", return_value=None),
    ):
        command = load_command_class(get_commands()[name], name)
        try:
            command.run_from_argv(["manage.py", *args])
        except SystemExit as exit_:
            code = exit_.code
    status = 0 if code is None else code if isinstance(code, int) else 1
    return Ran(status, out.getvalue(), err.getvalue())
