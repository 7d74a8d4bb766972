"""The server's load benchmarks: storms and floods on the SSH server (storms.py), the lobby
online (online*.py, seek_flood.py) and how many players one machine seats (capacity.py)."""
