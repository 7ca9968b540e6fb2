#!/usr/bin/python3
# Stands in for mch-sync in the file-manager entry tests: writes its arguments as JSON to $RECORD_TO.
import json
import os
import sys

target = os.environ["RECORD_TO"]
with open(target + ".tmp", "w", encoding="utf-8") as file:
    json.dump(sys.argv[1:], file)
# Renamed into place, so a reader waiting for the file never sees half of it.
os.replace(target + ".tmp", target)
