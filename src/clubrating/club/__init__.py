"""The club: Django models and the services that own every write (STYLE.md 9)."""
