"""The shared app process's entry (tests/companion/app_host.py starts it):  python -m tests.companion.app_serve

appdriver.serve() reads the scenarios to run from stdin. Started through this module, not `-m appdriver`, so that
appdriver is imported once, under its own name, as the scenario modules import it."""

from tests.companion.appdriver import serve

if __name__ == "__main__":
    serve()
