"""rummykit: Basic Rummy, Gin Rummy and Crazy Rummy as a fast, exact rules engine."""

__version__ = "0.1.0"
