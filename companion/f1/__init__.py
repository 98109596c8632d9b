"""Formula 1 (1962) on the tablet: its referee, turn model, track, words and presenters, kept out of the Kivy
layer so tests drive them without a window."""
