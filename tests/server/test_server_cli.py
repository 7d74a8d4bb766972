"""``tui-games serve``: one-line errors (missing extra, no keys, port taken, wrong options),
no Textual in the server, the web server object, and the SSH server run as a command and
stopped with SIGTERM (its sessions hung up first)."""

from __future__ import annotations

import asyncio
import os
import re
import signal
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from tui_games.cli import main
from tui_games.server import ssh as ssh_module
from tui_games.server import web as web_module

ROOT = Path(__file__).resolve().parents[2]


def one_line_error(capsys) -> str:
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("tui-games: error: serve"), err
    return err


def test_without_the_extra_the_error_names_it(home, monkeypatch, capsys):
    monkeypatch.setattr(ssh_module, "asyncssh", None)
    assert main(["serve", "--ssh"]) == 2
    assert 'pip install "tui-games[server]"' in one_line_error(capsys)
    monkeypatch.setattr(web_module, "Server", None)  # as when its import failed
    assert main(["serve", "--web"]) == 2
    assert 'pip install "tui-games[server]"' in one_line_error(capsys)


def test_keys_auth_without_a_keys_file_says_where_to_put_them(home, capsys):
    pytest.importorskip("asyncssh")
    assert main(["serve", "--ssh", "--port", "0"]) == 2
    err = one_line_error(capsys)
    assert str(home / "server" / "authorized_keys") in err and "--auth none" in err
    key = home / "server" / "ssh_host_ed25519_key"
    assert key.stat().st_mode & 0o777 == 0o600


@pytest.mark.parametrize("kind", ["--ssh", "--web"])
def test_a_taken_port_is_one_line(home, capsys, kind):
    pytest.importorskip("asyncssh" if kind == "--ssh" else "textual_serve")
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        assert main(["serve", kind, "--port", str(port)] + (["--auth", "none"] if kind == "--ssh" else [])) == 2
    assert f"cannot listen on 127.0.0.1:{port}" in one_line_error(capsys)


@pytest.mark.parametrize("args", [
    ["serve"], ["serve", "--ssh", "--web"], ["serve", "--web", "--auth", "none"],
    ["serve", "--ssh", "--max-sessions", "0"], ["serve", "--ssh", "--idle-minutes", "-1"],
    ["serve", "--ssh", "--memory-mb", "10"], ["serve", "--ssh", "--port", "70000"],
    ["serve", "--web", "--register", "open"], ["serve", "--web", "--memory-mb", "10"],
    ["serve", "--ssh", "--public-url", "https://games.example.org"],
    ["serve", "--ssh", "--allow-origin", "https://dash.example"],
    ["serve", "--web", "--public-url", "ftp://games.example.org"], ["serve", "--web", "--public-url", "games.example"],
    ["serve", "--web", "--allow-origin", "https://dash.example/path"], ["serve", "--web", "--allow-origin", "null"],
    ["serve", "--web", "--allow-origin", "http://a b"],
    ["serve", "--ssh", "--address-share", "0"], ["serve", "--ssh", "--address-share", "101"],
    ["serve", "--ssh", "--address-share", "a quarter"], ["serve", "--ssh", "--sessions-per-player", "0"],
    ["serve", "--web", "--sessions-per-player", "2"],
    ["serve", "--ssh", "--quota-mb", "-1"], ["serve", "--web", "--quota-mb", "10"],
])
def test_bad_options_are_usage_errors(home, capsys, args):
    assert main(args) == 2
    one_line_error(capsys)


def test_the_web_server_serves_the_app(home):
    pytest.importorskip("textual_serve")
    server = web_module.make_server(web_module.WebConfig(home=home, host="127.0.0.1", port=8123))
    assert server.command.endswith(" -m tui_games") and server.host == "127.0.0.1" and server.port == 8123
    assert server.config.app_argv[1:] == ["-m", "tui_games"]


def test_the_server_never_imports_textual(home):
    probe = ("import sys; from tui_games.cli import main; code = main(['serve', '--ssh', '--port', '0']); "
             "print(code, 'textual' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=60,
                         env={**os.environ, "TUI_GAMES_HOME": str(home)}, cwd=ROOT)
    assert out.stdout.split() == ["2", "False"], out


def apps_playing_in(user_home: Path) -> list[int]:
    """Pids of processes working in ``user_home``, as every app does (Linux /proc; [] elsewhere).
    Not their environment: /proc shows an app forked from the zygote with the zygote's."""
    pids = []
    for entry in Path("/proc").glob("[0-9]*"):
        try:
            if os.readlink(entry / "cwd") == str(user_home):
                pids.append(int(entry.name))
        except OSError:
            continue
    return pids


@pytest.mark.e2e
@pytest.mark.skipif(os.name != "posix", reason="the SSH server needs POSIX")
async def test_serve_command_runs_and_sigterm_hangs_up_every_session(home, capsys):
    asyncssh = pytest.importorskip("asyncssh")
    key = asyncssh.generate_private_key("ssh-ed25519")
    (home / "hana.pub").write_bytes(key.export_public_key())
    assert main(["serve", "add-key", "Hana", str(home / "hana.pub")]) == 0
    assert f"added {key.get_fingerprint('sha256')} for hana" in capsys.readouterr().out
    server = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "tui_games", "serve", "--ssh", "--port", "0",
        stderr=asyncio.subprocess.PIPE, env={**os.environ, "TUI_GAMES_HOME": str(home)}, cwd=ROOT)
    try:
        line = (await asyncio.wait_for(server.stderr.readline(), 30)).decode()
        port = int(re.search(r"listening address=127\.0\.0\.1:(\d+)", line)[1])
        async with asyncssh.connect("127.0.0.1", port, username="hana", known_hosts=None, config=None,
                                    agent_path=None, client_keys=[key]) as conn:
            process = await conn.create_process(term_type="xterm-256color", term_size=(80, 24), encoding=None)
            output = b""
            while b"Sudoku" not in output:
                output += await asyncio.wait_for(process.stdout.read(65536), 30)
            on_linux = Path("/proc/self/environ").exists()
            assert apps_playing_in(home / "server" / "users" / "hana") or not on_linux
            server.send_signal(signal.SIGTERM)
            rest = await asyncio.wait_for(process.stdout.read(), 15)
            assert b"the server is shutting down; your game is saved" in rest
        assert await asyncio.wait_for(server.wait(), 15) == 0
        log = (await server.stderr.read()).decode()
        assert re.search(r"^\S+T\S+ tui-games\[\d+\]: login user=hana from=127\.0\.0\.1 port=\d+ "
                         r"key=SHA256:\S+ sessions=1/\d+ start=(?:zygote|fresh) session=\w+$", log, re.M), log
        assert re.search(r"hangup user=hana from=127\.0\.0\.1 reason=\"the server is shutting down\" after=\S+ session=\w+",
                         log), log
        assert not apps_playing_in(home / "server" / "users" / "hana")
    finally:
        if server.returncode is None:
            server.kill()
            await server.wait()
