"""Every setting is read in one place (app/settings.py), and the README's table lists exactly those."""

from __future__ import annotations

import re
from pathlib import Path

from app.settings import VARIABLES, Settings

REPO = Path(__file__).resolve().parents[2]
CODE = ("app", "adapters", "events", "games", "service", "workers")


def test_the_readme_lists_exactly_the_variables_the_settings_read():
    readme = (REPO / "README.md").read_text()
    listed = set(re.findall(r"^\| `([A-Z_]+)` \|", readme, flags=re.M))
    assert listed == set(VARIABLES)


def test_no_code_but_the_settings_reads_the_environment():
    readers = [
        str(path.relative_to(REPO))
        for package in CODE
        for path in (REPO / package).rglob("*.py")
        if re.search(r"os\.environ|os\.getenv|getenv\(", path.read_text())
    ]
    assert readers == ["app/settings.py"]


def test_each_variable_sets_its_setting():
    settings = Settings.from_env(
        {
            "REDIS_URL": "redis://h:1/2",
            "TALON_RATE_LIMITS": "off",
            "LOG_LEVEL": "debug",
            "TALON_WORKER_METRICS_PORT": "9100",
            "OPERATOR_TOKEN": "",
            "TALON_BOT_DELAY_S": "1.5",
        }
    )
    assert (settings.redis_url, settings.rate_limits_enabled, settings.log_level) == ("redis://h:1/2", False, "DEBUG")
    assert (settings.worker_metrics_port, settings.operator_token, settings.bot_delay_s) == (9100, None, 1.5)
    assert Settings.from_env({}) == Settings()
