"""The benches, end to end at tiny sizes, so that they cannot rot: `make bench` starts its own stack
(Redis, gunicorn, a worker, the bare endpoints), runs every section and prints the whole table; the rq
cost, the scale-out bench (a Redis Cluster, two API instances) and the per-game match-size benches print
their rows. No thresholds: speed is measured by the benches, not asserted here."""

from __future__ import annotations

from bench.__main__ import main

TINY = [
    "--matches",
    "1",
    "--repetitions",
    "2",
    "--clients",
    "2",
    "--seconds",
    "1",
    "--rounds",
    "2",
    "--growth",
    "5",
    "15",
    "--growth-seconds",
    "1",
    "--growth-rounds",
    "2",
    "--views",
    "3",
    "--fifty-six-players",
    "4",
    "--bot-matches",
    "1",
    "--bot-seconds",
    "2",
]


def test_the_bench_prints_every_figure_of_the_issue(capsys):
    main(TINY)
    out = capsys.readouterr().out
    for figure in (
        "throughput ratio, service / bare",
        "POST p99 at 2 clients",
        "latency growth 5 -> 15 stored",
        "view GET, longest / new game",
        "Redis memory per finished 2p24 match",
        "replay of the longest match from its snapshot",
        "engine: sixty-six 2p24",
        "engine: smear 4p",
        "bots: fifty-six 4p",
        "growth: 15 stored games",
        "service: CPU per action",
        "bare: CPU per action",
    ):
        assert figure in out, figure
    assert "refused" not in out, "a closed-loop client's action was refused"
    assert "{" not in out, "a figure left unformatted"
    ratio_line = next(line for line in out.splitlines() if line.startswith("throughput ratio"))
    assert len(ratio_line.split("per round ")[1].split(", ")) == 2  # each round's ratio, for the spread


def test_the_cluster_bench_prints_its_rows(capsys):
    from bench import cluster

    cluster.main(["--clients", "2", "--seconds", "1"])
    out = capsys.readouterr().out
    for row in (
        "one Redis, 1 API instance",
        "Cluster, 1 API instance",
        "Cluster, 2 API instances",
        "keys per primary after the Cluster slices",
    ):
        assert row in out, row


def test_the_per_game_benches_print_their_summaries(capsys):
    """The match-size benches of Fifty-Six, Smear and the 3/4-player Sixty-Six variants, one match each."""
    from bench import fiftysix, smear, variants66

    fiftysix.main(["--matches", "1", "--tables", "2", "--budget", "10", "--repetitions", "1"])
    smear.main(["--matches", "1", "--budget", "5"])
    variants66.main(["--matches", "1", "--budget", "5"])
    out = capsys.readouterr().out
    assert out.count("Redis bytes per match      median") == 1  # fifty-six
    assert out.count("Redis bytes per match   median") == 2  # smear, both widow sizes
    assert out.count("Redis bytes/match median") == 2  # sixty-six 3p and 4p
    assert "replay of the longest match" in out


def test_the_versus_bench_compares_two_commits_side_by_side(capsys):
    from bench import versus

    versus.main(["--base", "HEAD", "--clients", "2", "--rounds", "2", "--seconds", "0.5"])
    out = capsys.readouterr().out
    assert out.startswith("base: ") and "\nthis: " in out
    assert len(out.split("per round ")[1].strip().split(", ")) == 2
