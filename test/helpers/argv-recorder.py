#!/usr/bin/python3
# Stands in for mch-sync in the file-manager entry tests: writes how it was started as JSON to $RECORD_TO:
# its arguments, its session id and where its stdin, stdout and stderr lead.
import json
import os
import sys


def leads_to(fd):
    try:
        return os.readlink("/proc/self/fd/%d" % fd)
    except OSError:
        return None


record = {"argv": sys.argv[1:], "session": os.getsid(0), "stdio": [leads_to(fd) for fd in (0, 1, 2)]}
target = os.environ["RECORD_TO"]
with open(target + ".tmp", "w", encoding="utf-8") as file:
    json.dump(record, file)
# Renamed into place, so a reader waiting for the file never sees half of it.
os.replace(target + ".tmp", target)
