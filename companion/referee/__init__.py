"""The tablet's game logic, kept out of the Kivy layer: tests drive it without a window."""
