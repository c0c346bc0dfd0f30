"""The ru date format."""
