"""A bot for the tui-games lobby: it follows what is addressed to it on the `events --json`
stream, seeks a game (or, with --wait, accepts the first challenge to it) and plays the first game
that starts to the end with `ssh HOST COMMAND`, waiting for its turn on the game's `watch --json`
stream. Nothing is polled: each command it runs is a seek or accept, a move, or one of the two streams.

    python lobby_bot.py NAME@HOST [PORT] [GAME] [--wait]      (TUI_GAMES_SSH: more ssh options)
"""
import json
import os
import random
import shlex
import subprocess
import sys

wait = "--wait" in sys.argv[1:]
words = [word for word in sys.argv[1:] if word != "--wait"]
target, port, game = words[0], (words[1:2] or ["2222"])[0], (words[2:3] or ["tictactoe"])[0]
me = target.split("@")[0].lower()
ssh = ["ssh", "-p", port, "-o", "BatchMode=yes", *shlex.split(os.environ.get("TUI_GAMES_SSH", "")), target]


def run(*words: str) -> str:
    return subprocess.run(ssh + [shlex.join(words)], capture_output=True, text=True, check=True).stdout


def stream(command: str) -> subprocess.Popen:
    return subprocess.Popen(ssh + [command], stdout=subprocess.PIPE, text=True)


events = stream("events --json")  # the challenges waiting and the live games come first: nothing is missed
if not wait:
    run("seek", game, "--casual")
for line in events.stdout:
    event = json.loads(line)
    if event["event"] == "challenge" and event["data"]["game"] == game:
        run("accept", event["data"]["id"])
    elif event["event"] == "game-start":
        game_id = event["data"]["id"]
        break
else:
    sys.exit(f"the event stream ended: {events.wait()}")
events.terminate()
watch = stream(f"watch {game_id} --json")
for line in watch.stdout:
    event = json.loads(line)
    data = event["data"]
    if event["event"] == "end":
        print(f"game {data['id']}: {data['winner'] or 'nobody'} won ({data['reason']})")
    elif data["to_move"] == me and data["legal"] and event["event"] in ("game", "move"):
        run("move", data["id"], random.choice(data["legal"]))
