"""The en date format."""
