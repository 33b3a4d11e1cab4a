"""toolgen: one contract per tool, projected into everything an LLM agent team needs."""

__version__ = "0.1.0"
