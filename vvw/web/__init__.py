"""The web side: the one HTTP server (h11 on trio), one HTML builder that escapes by
default, one palette, and the pages built on them (viewer, live view, dashboard, a
person's board)."""
