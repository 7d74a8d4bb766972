"""``tournament --cluster``: the series played on a Dask distributed cluster instead of this
machine's processes, for a class of many bots or checkers at seconds a move.

``--cluster local:N`` starts a cluster of N worker processes here (to try it, or to use one
big machine's cores through Dask's dashboard); ``--cluster tcp://HOST:PORT`` (or any address
Dask's ``Client`` takes) uses a running scheduler. Each series is one task: it depends on its own
seed only, so the table is the same as with ``--jobs 1`` for players whose limits are depths.

Bot files are run by the worker that plays the series, each in a child process of its own as
everywhere (tui_games/bots: a fresh interpreter by ``subprocess``, which a Dask worker may
start), so a bot file must be at the same path on every worker (a shared folder). Dask is an
optional extra (``pip install "tui-games[cluster]"``).
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from typing import Any

from tui_games.commands.common import UsageError
from tui_games.engine.arena import ArenaConfig, ArenaResult

__all__ = ["EXTRA_HINT", "check_cluster_address", "cluster_client", "run_on_cluster"]

EXTRA_HINT = 'pip install "tui-games[cluster]"'
MAX_LOCAL_WORKERS = 256


def check_cluster_address(text: str) -> str:
    """``local:N`` or a scheduler's address, as given; a bad ``local:N`` is a usage error."""
    text = text.strip()
    if text.startswith("local:"):
        count = text.removeprefix("local:")
        if not count.isdigit() or not 1 <= int(count) <= MAX_LOCAL_WORKERS:
            raise UsageError(f"--cluster {text}: local:N takes 1 to {MAX_LOCAL_WORKERS} workers")
    elif "://" not in text and ":" not in text:
        raise UsageError(f"--cluster {text}: give local:N or a scheduler's address (tcp://HOST:PORT)")
    return text


@contextlib.contextmanager
def cluster_client(address: str) -> Iterator[Any]:
    """A Dask client on ``address`` (``local:N`` starts and ends a local cluster)."""
    try:
        from distributed import Client, LocalCluster
    except ImportError:
        raise UsageError(f"--cluster needs Dask distributed: {EXTRA_HINT}") from None
    if address.startswith("local:"):
        workers = int(address.removeprefix("local:"))
        # One thread a worker process, as --jobs' processes: a series is CPU-bound Python.
        with LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                          dashboard_address=None) as cluster, Client(cluster) as client:
            yield client
        return
    try:
        client = Client(address, timeout="30s")
    except (OSError, TimeoutError) as error:
        raise UsageError(f"--cluster {address}: cannot reach the scheduler ({error})") from None
    except (ValueError, TypeError) as error:  # Dask's reading of the address: a scheme it lacks, a bad port
        said = " ".join(str(error).split())
        raise UsageError(f"--cluster {address}: not a scheduler's address ({said})") from None
    with client:
        yield client


def run_on_cluster(address: str, game: str, configs: list[ArenaConfig],
                   play: Callable[[str, ArenaConfig], ArenaResult],
                   on_series: Callable[[ArenaResult], None]) -> list[ArenaResult]:
    """Every series as a task on the cluster at ``address``, in round-robin order;
    ``on_series`` is told of each as it finishes (the progress line)."""
    from distributed import as_completed

    with cluster_client(address) as client:
        futures = [client.submit(play, game, config, pure=False) for config in configs]
        try:
            for future in as_completed(futures):
                on_series(future.result())
            return [future.result() for future in futures]
        except BaseException:
            client.cancel(futures)
            raise
