"""The Mighty Kingdoms rules engine: pure Python, no Django, no I/O, no clock.

`advance(campaign_file) -> campaign_file` lives here (see ../shared/design/architecture.md).
An import-linter contract (pyproject.toml) fails the lint step if anything in this
package imports Django or an app module.
"""
