"""The club website: server-rendered pages, exports and a read-only JSON API."""
