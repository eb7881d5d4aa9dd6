"""rq jobs (bot turns, turn timers, projections, the sweeper) and the worker entry point (`python -m workers`)."""
