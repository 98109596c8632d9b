"""Formula 5 on the tablet: its referee, what its screens show (view.py, no Kivy) and the screens themselves."""
