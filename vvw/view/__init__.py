"""The game viewer: one page (``page.html``) for replays from disk and live games."""
