"""The hy date format."""
