"""Game analysis (``vvw analyse``): winning chances, plies judged, the luck of the dice."""
