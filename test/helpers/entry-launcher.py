# Launches a generated file-manager entry the way its file manager does, for the quoting tests.
# Usage: entry-launcher.py MODE ENTRY_FILE RECORD_TO UNIQUE_ID PATH...
#   kde, nemo-desktop: the entry's Exec value in a Type=Application desktop file, launched by GLib
#                      (Gio.DesktopAppInfo), which expands %F and splits words by the Desktop Entry rules
#   nemo:              Nemo's own expansion (nemo-action.c: Quote=double puts each path in double quotes
#                      with " and \ escaped, %% is %) handed to GLib.spawn_command_line_async, as Nemo does
#   thunar:            Thunar's expansion (libxfce4util: each %F path g_shell_quote'd, %% is %, other
#                      codes dropped), run with /bin/sh -c as Thunar does; also split by g_shell_parse_argv
# The command of the entry is expected to be a recorder that writes its arguments to $RECORD_TO.
# Prints {"recorded": [...], "parsed": [...] or null} as JSON.
import json
import os
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ElementTree

import gi

gi.require_version("Gio", "2.0")
gi.require_version("GLib", "2.0")
from gi.repository import Gio, GLib  # noqa: E402

mode, entry_file, record_to, unique_id = sys.argv[1:5]
paths = sys.argv[5:]
os.environ["RECORD_TO"] = record_to


def expand(command, quote_path):
    result = ""
    index = 0
    while index < len(command):
        char = command[index]
        if char == "%" and index + 1 < len(command):
            code = command[index + 1]
            if code == "F":
                result += " ".join(quote_path(path) for path in paths)
            elif code == "%":
                result += "%"
            index += 2
        else:
            result += char
            index += 1
    return result


def nemo_quote(path):
    return '"' + path.replace("\\", "\\\\").replace('"', '\\"') + '"'


parsed = None
if mode in ("kde", "nemo-desktop"):
    group = "Desktop Action mchSyncShare" if mode == "kde" else "Nemo Action"
    key_file = GLib.KeyFile()
    key_file.load_from_file(entry_file, GLib.KeyFileFlags.NONE)
    raw_exec = key_file.get_value(group, "Exec")
    with tempfile.TemporaryDirectory() as folder:
        desktop = os.path.join(folder, "recorder.desktop")
        with open(desktop, "w", encoding="utf-8") as file:
            file.write("[Desktop Entry]\nType=Application\nName=Recorder\nExec=%s\n" % raw_exec)
        info = Gio.DesktopAppInfo.new_from_filename(desktop)
        if info is None:
            sys.exit("GLib refused the desktop file built from Exec=%s" % raw_exec)
        info.launch([Gio.File.new_for_path(path) for path in paths], None)
elif mode == "nemo":
    key_file = GLib.KeyFile()
    key_file.load_from_file(entry_file, GLib.KeyFileFlags.NONE)
    if key_file.get_string("Nemo Action", "Quote") != "double":
        sys.exit("the emulation follows Quote=double only")
    command = expand(key_file.get_string("Nemo Action", "Exec"), nemo_quote)
    parsed = GLib.shell_parse_argv(command)[1]
    GLib.spawn_command_line_async(command)
elif mode == "thunar":
    actions = ElementTree.parse(entry_file).getroot().findall("action")
    ours = [action for action in actions if action.findtext("unique-id") == unique_id]
    if len(ours) != 1:
        sys.exit("expected one action %s, found %d" % (unique_id, len(ours)))
    command = expand(ours[0].findtext("command"), GLib.shell_quote)
    parsed = GLib.shell_parse_argv(command)[1]
    subprocess.run(["/bin/sh", "-c", command], check=True)
else:
    sys.exit("unknown mode " + mode)

# The launch returns before the program has run: wait for its record (a failure, not a threshold).
deadline = time.monotonic() + 20
while not os.path.exists(record_to):
    if time.monotonic() > deadline:
        sys.exit("the entry's command never ran")
    time.sleep(0.02)
with open(record_to, encoding="utf-8") as file:
    recorded = json.load(file)["argv"]
print(json.dumps({"recorded": recorded, "parsed": parsed}))
