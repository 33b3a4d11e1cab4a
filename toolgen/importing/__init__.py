"""`toolgen import`: tool definitions of other formats turned into contracts.

`shapes` recognises the records of each source format (OpenAI, Anthropic, Gemini, MCP); `importer`
turns each record into a contract table, with `repair` making its schema valid and saying what it
changed; `tomlemit` writes the table as TOML.
"""
