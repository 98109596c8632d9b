"""The tablet app (Kivy): referee for Formula 1 and Formula 5, talking to the Pico dashboards."""
