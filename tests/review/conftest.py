"""The review's page tests use the picture tests' headless Chromium (one per module)."""

from report.conftest import browser  # noqa: F401  (a fixture, found by name)
