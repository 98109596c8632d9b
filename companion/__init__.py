"""The tablet app (Kivy): referee for Formula 1 and Formula 5, talking to the Pico dashboards."""

__version__ = "0.2.0"
