"""The store: the tables and their migrations, the signals the services send,
the club's lock and the audit log. The lowest layer of the club app."""
