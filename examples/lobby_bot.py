"""A bot for the tui-games lobby: it seeks a game and plays it to the end with `ssh HOST COMMAND`,
waiting for its turn on the `watch --json` stream (no polling while it plays).

    python lobby_bot.py NAME@HOST [PORT] [GAME]      (TUI_GAMES_SSH: more ssh options)
"""
import json
import os
import random
import shlex
import subprocess
import sys
import time

target, port, game = sys.argv[1], (sys.argv[2:3] or ["2222"])[0], (sys.argv[3:4] or ["tictactoe"])[0]
me = target.split("@")[0].lower()
ssh = ["ssh", "-p", port, "-o", "BatchMode=yes", *shlex.split(os.environ.get("TUI_GAMES_SSH", "")), target]


def run(*words: str) -> str:
    return subprocess.run(ssh + [shlex.join(words)], capture_output=True, text=True, check=True).stdout


run("seek", game, "--casual")
while not (games := json.loads(run("games", "--json"))):  # until someone (or a house player) takes it
    time.sleep(1)
watch = subprocess.Popen(ssh + [f"watch {games[0]['id']} --json"], stdout=subprocess.PIPE, text=True)
for line in watch.stdout:
    event = json.loads(line)
    data = event["data"]
    if event["event"] == "end":
        print(f"game {data['id']}: {data['winner'] or 'nobody'} won ({data['reason']})")
    elif data["to_move"] == me and data["legal"] and event["event"] in ("game", "move"):
        run("move", data["id"], random.choice(data["legal"]))
