from firmware.host.network_standin import *  # noqa: F403  (tests only: the unix port has no radio)
