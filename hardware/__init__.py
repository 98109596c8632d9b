"""Build files for the dashboard: pinout, wiring picture, Wokwi diagram and enclosure (see README.md)."""
