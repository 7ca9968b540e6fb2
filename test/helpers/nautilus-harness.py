# Loads a generated nautilus-, nemo- or caja-python extension against its file manager's real introspection data, as the file manager does, and answers requests.
# Usage: nautilus-harness.py EXTENSION_FILE [NAMESPACE VERSION] (Nautilus 4.0 when not given; Nemo 3.0,
# Caja 2.0); then one JSON request per line on stdin, one JSON answer per line:
#   {"items": [SELECTED...], "api": 4 | 3}       -> {"items": [{"name", "label", "tip"}...]} (Nemo and Caja
#                                                    always call as 3 does)
#   {"activate": [SELECTED...], "record_to": P}  -> {"recorded": what the command's recorder wrote, "session": ours}
#   {"activate_only": [SELECTED...]}              -> {"activated": true} (the command runs on; nothing waited for)
#   {"activate_label": L, "items": [SELECTED...]} -> {"activated": true}: the entry labelled L of that menu
#   {"show": [PATH...]}                           -> {"emblems": {PATH: [...]}, "seconds": S}: the items shown, as
#                                                    the file manager shows a folder (update_file_info on each, in turn)
#   {"shown": [PATH...]}                          -> {"emblems": {PATH: [...]}, "invalidated": {PATH: N},
#                                                    "history": {PATH: [[...]...]}}: what the items shown
#                                                    carry now, and every set they were drawn with
# SELECTED is {"path": P} (a local file), {"uri": U} (any location) or {"uri_only": U} (an object with
# get_uri but no get_location, as an old binding might pass). The requests are answered on a GLib main
# loop, as the file manager runs its extensions: what the extension schedules there (idle callbacks, its
# folder monitor) runs between requests, and an item it invalidates is asked about again, as the file
# manager does for an item on screen.
import importlib
import importlib.util
import json
import os
import sys
import threading
import time

import gi

NAMESPACE, VERSION = sys.argv[2:4] if len(sys.argv) > 2 else ("Nautilus", "4.0")
# The binding has loaded its namespace before it imports the extensions, which ask for no version.
gi.require_version(NAMESPACE, VERSION)
gi.require_version("Gio", "2.0")
from gi.repository import Gio, GLib, GObject  # noqa: E402

FileManager = importlib.import_module("gi.repository." + NAMESPACE)
# Nautilus 43 and later call get_file_items(files); nautilus-python 1.x and 3.x, nemo-python and
# caja-python pass (window, files).
DEFAULT_API = 4 if NAMESPACE == "Nautilus" else 3


class FileInfo(GObject.GObject, FileManager.FileInfo):
    """A file as the file manager hands it to extensions: a GObject implementing its FileInfo interface
    (NautilusFileInfo, NemoFileInfo and CajaFileInfo have the same virtual methods)."""

    def __init__(self, location):
        super().__init__()
        self.location = location
        self.emblems = []
        self.invalidated = 0
        # Every set of emblems the item was drawn with, in order: a state that came and went is seen.
        self.history = []

    def do_add_emblem(self, name):
        self.emblems.append(name)

    def do_invalidate_extension_info(self):
        # The file manager drops the extension's emblems and asks every info provider again.
        self.invalidated += 1
        self.emblems = []
        GLib.idle_add(update, self)

    def do_get_location(self):
        return self.location

    def do_get_uri(self):
        return self.location.get_uri()

    def do_get_name(self):
        return self.location.get_basename()

    def do_is_gone(self):
        return False


class UriOnly:
    def __init__(self, uri):
        self.uri = uri

    def get_uri(self):
        return self.uri


def selected(spec):
    if "path" in spec:
        return FileInfo(Gio.File.new_for_path(spec["path"]))
    if "uri" in spec:
        return FileInfo(Gio.File.new_for_uri(spec["uri"]))
    return UriOnly(spec["uri_only"])


spec = importlib.util.spec_from_file_location("mch_sync_share_extension", sys.argv[1])
module = importlib.util.module_from_spec(spec)
spec.loader.exec_module(module)
# The file manager instantiates every class of the module that implements a provider interface.
providers = [
    value()
    for value in vars(module).values()
    if isinstance(value, type)
    and issubclass(value, FileManager.MenuProvider)
    and value is not FileManager.MenuProvider
]
if len(providers) != 1:
    sys.exit("expected one MenuProvider in the extension, found %d" % len(providers))
provider = providers[0]
info_providers = [
    value()
    for value in vars(module).values()
    if isinstance(value, type)
    and issubclass(value, FileManager.InfoProvider)
    and value is not FileManager.InfoProvider
]
shown = {}


def update(info):
    for each in info_providers:
        each.update_file_info(info)
    info.history.append(list(info.emblems))
    return False


def file_items(files, api=DEFAULT_API):
    if NAMESPACE != "Nautilus":
        api = 3
    items = provider.get_file_items(files) if api == 4 else provider.get_file_items(None, files)
    for item in items:
        if not isinstance(item, FileManager.MenuItem):
            sys.exit("get_file_items returned something other than a %s.MenuItem" % NAMESPACE)
    return items


def answer(request):
    if "show" in request:
        started = time.monotonic()
        for path in request["show"]:
            info = shown.get(path)
            if info is None:
                info = shown[path] = FileInfo(Gio.File.new_for_path(path))
            info.emblems = []
            update(info)
        seconds = time.monotonic() - started
        return {"emblems": {path: shown[path].emblems for path in request["show"]}, "seconds": seconds}
    if "shown" in request:
        infos = {path: shown.get(path) for path in request["shown"]}
        return {
            "emblems": {path: info.emblems if info else None for path, info in infos.items()},
            "invalidated": {path: info.invalidated if info else 0 for path, info in infos.items()},
            "history": {path: info.history if info else [] for path, info in infos.items()},
        }
    if "activate_label" in request:
        items = file_items([selected(each) for each in request["items"]])
        chosen = [item for item in items if item.get_property("label") == request["activate_label"]]
        if len(chosen) != 1:
            sys.exit("no single entry %r among %r" % (request["activate_label"], [i.get_property("label") for i in items]))
        chosen[0].activate()
        return {"activated": True}
    if "items" in request:
        items = file_items([selected(each) for each in request["items"]], request.get("api", DEFAULT_API))
        result = {"items": [{key: item.get_property(key) for key in ("name", "label", "tip")} for item in items]}
    elif "activate_only" in request:
        items = file_items([selected(each) for each in request["activate_only"]])
        if len(items) != 1:
            sys.exit("expected one item to activate, got %d" % len(items))
        items[0].activate()
        result = {"activated": True}
    else:
        os.environ["RECORD_TO"] = request["record_to"]
        items = file_items([selected(each) for each in request["activate"]])
        if len(items) != 1:
            sys.exit("expected one item to activate, got %d" % len(items))
        items[0].activate()
        # The command runs on its own: wait for its record (a failure after 20 s, not a threshold).
        deadline = time.monotonic() + 20
        while not os.path.exists(request["record_to"]):
            if time.monotonic() > deadline:
                sys.exit("the command never ran")
            time.sleep(0.02)
        with open(request["record_to"], encoding="utf-8") as file:
            result = {"recorded": json.load(file), "session": os.getsid(0)}
    return result


def on_line(line):
    print(json.dumps(answer(json.loads(line))), flush=True)
    return False


def read_stdin(loop):
    # Requests are read here and answered on the main loop, one at a time, in order.
    for line in sys.stdin:
        GLib.idle_add(on_line, line)
    GLib.idle_add(loop.quit)


loop = GLib.MainLoop()
threading.Thread(target=read_stdin, args=(loop,), daemon=True).start()
loop.run()
