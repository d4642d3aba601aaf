"""The whole suite's set-up: the Hypothesis profile (``hypothesis_profiles``), the browser
tests' fixtures (``browser_fixtures``) and PostgreSQL's (``postgres_fixtures``)."""

from __future__ import annotations

from hypothesis import settings
from hypothesis_profiles import PROFILE

settings.load_profile(PROFILE)

pytest_plugins = ["browser_fixtures", "postgres_fixtures"]
