"""rq jobs (bot turns, round scoring, the sweeper) and the worker entry point (`python -m workers`)."""
