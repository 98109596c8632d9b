# The dashboard's Wi-Fi link on its own, on the unix port (tests and the bench): a real Car driven only by the tablet
# over Wi-Fi (firmware/ondemand/wifi_link.py), kept on flash as firmware/host/link_main.py keeps it, through the
# stand-in radio (firmware/host/network_standin.py, on MICROPYPATH as `network`). Its stdout is not the link: it
# says each change of the link's state in a line ("wifi: linked"), which tests wait for. Environment:
#   F1_DASH_ID        the dashboard id
#   F1_WIFI           a JSON file {"ssid", "password", "host", "port", "path"} (on a Pico W: the pairing's file), and
#                     optionally "table" (its id: its beacons move the address), "beacon_port", "beacon_bind"
#   F1_LINK_STORE     the save file (default wifi_state.json); the journal is that name + ".journal"
import json
import os
import time

from shared_rules.f1 import car as f1car
from firmware.keeper import FOLD_LINES, Keeper
from firmware.ondemand.wifi_link import WifiLink

LAPS = 5


def main():
    with open(os.getenv("F1_WIFI")) as f:  # type: ignore[attr-defined]
        conf = json.load(f)
    keeper = Keeper(os.getenv("F1_LINK_STORE") or "wifi_state.json", FOLD_LINES)  # type: ignore[attr-defined]
    car = f1car.Car(LAPS)
    done, events, _error = keeper.restore(car)
    if keeper.replayed:
        keeper.save(car, done, events)
    keeper.open_journal()

    def apply(name, args):
        f1car.apply_command(car, name, args)

    link = WifiLink(car.snapshot, apply, conf["ssid"], conf["password"], conf["host"], conf["port"], conf["path"],
                    os.getenv("F1_DASH_ID") or "wifi-dashboard", done=done,  # type: ignore[attr-defined]
                    on_journal=keeper.journaled, table_id=conf.get("table"), beacon_port=conf.get("beacon_port", 8766),
                    beacon_bind=conf.get("beacon_bind", "0.0.0.0"))
    conf = None  # the password stays in the link only
    if events:
        link.restore_events(events)
    said = None
    while True:
        linked = link.poll(20)  # linked, it waits up to 20 ms for the table's bytes; else it returns at once
        if link.state != said:
            said = link.state
            print("wifi: %s%s" % (said, " (%s)" % link.reason if link.reason else ""))
        if keeper.fold_due():
            keeper.save(car, link.done_ids(), link.pending_events())
        time.sleep_ms(0 if linked else 5)  # joining or dialling: not a loop spinning a core the tests share


main()
