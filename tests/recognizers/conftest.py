"""Fixtures for the recognizer tests; the servers and fakes live in recognizers_fakes.py."""

from recognizers_fakes import clock, fake_azure, fake_oracle

__all__ = ["clock", "fake_azure", "fake_oracle"]
