"""For every test of the server: each lobby command's --json output, and each line of a
`watch`/`events` stream with --json, whichever test ran it (in process or through the SSH
server, which calls the same commands.run), is checked against its published schema
(docs/schemas.md); what breaks one fails the test that produced it, at its end."""

from __future__ import annotations

import json
import shlex
from dataclasses import replace

import pytest

from tui_games.server.lobby import commands


@pytest.fixture(autouse=True)
def _lobby_json_checked(monkeypatch):
    try:
        from lobby_schemas import check, schema_of
    except pytest.skip.Exception:  # no jsonschema: test_lobby_schemas.py says so, skipped
        yield
        return
    broken: list[str] = []
    real = commands.run

    def checked(name: str, text: str) -> None:
        try:
            check(schema_of(name), json.loads(text))
        except (AssertionError, ValueError, KeyError) as error:
            broken.append(f"{name} --json printed {text[:200]!r}: {str(error)[:400]}")

    def run(lobby, player, command, **options):
        result = real(lobby, player, command, **options)
        try:
            words = shlex.split(command)
        except ValueError:
            return result
        if result.status != 0 or "--json" not in words:
            return result
        for line in result.out:
            checked(words[0], line)
        if result.stream is not None:
            stream = result.stream

            def streamed(client):
                client = client if isinstance(client, commands.WatchClient) else commands.WatchClient(client)
                write = client.write

                def each_line(text: str) -> None:
                    checked(words[0], text)
                    write(text)

                # (a line saying why a stream ended is not JSON: it goes on as it would)
                return stream(replace(client, write=each_line, write_err=client.write_err or write))

            result.stream = streamed
        return result

    monkeypatch.setattr(commands, "run", run)
    yield
    assert not broken, "output that breaks its schema (docs/schemas.md):\n" + "\n".join(broken)
