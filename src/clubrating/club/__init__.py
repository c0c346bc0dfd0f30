"""The club: Django models and the services that own every write (docs/architecture.md)."""
