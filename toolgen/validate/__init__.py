"""Validation: every contract checked before anything is rendered.

`contract` checks one document and its keys, then names across documents and the configured rule
severities; `schemacheck` the schemas and examples (draft 2020-12), walking them with `schemawalk`;
`lint` the review checklist (TG2xx warnings); `report` collects what they find as diagnostics.
"""

from toolgen.validate.contract import check_document, validate_documents
from toolgen.validate.paths import validate_paths

__all__ = ["check_document", "validate_documents", "validate_paths"]
