"""The website's template filters."""
