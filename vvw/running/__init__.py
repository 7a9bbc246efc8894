"""Games run: who plays (participants, bots, seeds), what is played (schedules), the one
runner that plays a schedule at a venue and tells its outputs, and the venues: here, on a
cluster, in the in-process arena, with a person at the page."""
