"""The installation as a whole: the database's backup and restore, its health."""
