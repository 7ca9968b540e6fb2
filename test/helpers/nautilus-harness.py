# Loads a generated nautilus-python extension against Nautilus 4.0's real introspection data, as Nautilus does, and answers requests.
# Usage: nautilus-harness.py EXTENSION_FILE; then one JSON request per line on stdin, one JSON answer per line:
#   {"items": [SELECTED...], "api": 4 | 3}       -> {"items": [{"name", "label", "tip"}...]}
#   {"activate": [SELECTED...], "record_to": P}  -> {"recorded": what the command's recorder wrote, "session": ours}
#   {"activate_only": [SELECTED...]}              -> {"activated": true} (the command runs on; nothing waited for)
# SELECTED is {"path": P} (a local file), {"uri": U} (any location) or {"uri_only": U} (an object with
# get_uri but no get_location, as an old binding might pass).
import importlib.util
import json
import os
import sys
import time

import gi

gi.require_version("Nautilus", "4.0")
gi.require_version("Gio", "2.0")
from gi.repository import Gio, GObject, Nautilus  # noqa: E402


class FileInfo(GObject.GObject, Nautilus.FileInfo):
    """A file as Nautilus hands it to extensions: a GObject implementing the NautilusFileInfo interface."""

    def __init__(self, location):
        super().__init__()
        self.location = location

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
# Nautilus instantiates every class of the module that implements a provider interface.
providers = [
    value()
    for value in vars(module).values()
    if isinstance(value, type) and issubclass(value, Nautilus.MenuProvider) and value is not Nautilus.MenuProvider
]
if len(providers) != 1:
    sys.exit("expected one MenuProvider in the extension, found %d" % len(providers))
provider = providers[0]


def file_items(files, api):
    # Nautilus 43 and later call get_file_items(files); nautilus-python 1.x and 3.x passed (window, files).
    items = provider.get_file_items(files) if api == 4 else provider.get_file_items(None, files)
    for item in items:
        if not isinstance(item, Nautilus.MenuItem):
            sys.exit("get_file_items returned something other than a Nautilus.MenuItem")
    return items


for line in sys.stdin:
    request = json.loads(line)
    if "items" in request:
        items = file_items([selected(each) for each in request["items"]], request.get("api", 4))
        answer = {"items": [{key: item.get_property(key) for key in ("name", "label", "tip")} for item in items]}
    elif "activate_only" in request:
        items = file_items([selected(each) for each in request["activate_only"]], 4)
        if len(items) != 1:
            sys.exit("expected one item to activate, got %d" % len(items))
        items[0].activate()
        answer = {"activated": True}
    else:
        os.environ["RECORD_TO"] = request["record_to"]
        items = file_items([selected(each) for each in request["activate"]], 4)
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
            answer = {"recorded": json.load(file), "session": os.getsid(0)}
    print(json.dumps(answer), flush=True)
