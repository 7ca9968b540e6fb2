# A stand-in NetworkManager on a D-Bus bus, for the network monitor's tests (Gio, Debian's python3-gi):
#   /usr/bin/python3 mock-network-manager.py BUS_ADDRESS
# Owns org.freedesktop.NetworkManager and serves /org/freedesktop/NetworkManager's properties as
# NetworkManager does (Metered, PrimaryConnection, State, Connectivity and a few others of other types).
# Prints "ready" once the name is owned. Lines on stdin change a property and emit PropertiesChanged:
#   set Metered 1 | set PrimaryConnection /org/freedesktop/NetworkManager/ActiveConnection/7 | quit
import sys

from gi.repository import Gio, GLib

NAME = 'org.freedesktop.NetworkManager'
PATH = '/org/freedesktop/NetworkManager'
XML = f"""<node><interface name='{NAME}'>
<property name='Metered' type='u' access='read'/>
<property name='PrimaryConnection' type='o' access='read'/>
<property name='State' type='u' access='read'/>
<property name='Connectivity' type='u' access='read'/>
<property name='Version' type='s' access='read'/>
<property name='NetworkingEnabled' type='b' access='read'/>
<property name='ActiveConnections' type='ao' access='read'/>
<property name='GlobalDnsConfiguration' type='a{{sv}}' access='read'/>
</interface></node>"""
TYPES = {'Metered': 'u', 'PrimaryConnection': 'o', 'State': 'u', 'Connectivity': 'u'}

values = {
    'Metered': GLib.Variant('u', 4),
    'PrimaryConnection': GLib.Variant('o', '/org/freedesktop/NetworkManager/ActiveConnection/1'),
    'State': GLib.Variant('u', 70),
    'Connectivity': GLib.Variant('u', 4),
    'Version': GLib.Variant('s', '1.42.4-mock'),
    'NetworkingEnabled': GLib.Variant('b', True),
    'ActiveConnections': GLib.Variant('ao', ['/org/freedesktop/NetworkManager/ActiveConnection/1']),
    'GlobalDnsConfiguration': GLib.Variant('a{sv}', {'searches': GLib.Variant('as', ['home.arpa'])}),
}

address = sys.argv[1]
flags = Gio.DBusConnectionFlags.AUTHENTICATION_CLIENT | Gio.DBusConnectionFlags.MESSAGE_BUS_CONNECTION
bus = Gio.DBusConnection.new_for_address_sync(address, flags, None, None)
node = Gio.DBusNodeInfo.new_for_xml(XML)
loop = GLib.MainLoop()


def get_property(connection, sender, path, interface, name):
    return values[name]


bus.register_object(PATH, node.interfaces[0], None, get_property, None)


def on_line(channel, condition):
    line = sys.stdin.readline()
    if line == '' or line.strip() == 'quit':
        loop.quit()
        return False
    words = line.split()
    if len(words) == 3 and words[0] == 'set' and words[1] in TYPES:
        kind = TYPES[words[1]]
        value = GLib.Variant(kind, int(words[2]) if kind == 'u' else words[2])
        values[words[1]] = value
        changed = GLib.Variant('(sa{sv}as)', (NAME, {words[1]: value}, []))
        bus.emit_signal(None, PATH, 'org.freedesktop.DBus.Properties', 'PropertiesChanged', changed)
        bus.flush_sync(None)
        print('set', flush=True)
    else:
        print(f'unknown line: {line.strip()}', file=sys.stderr, flush=True)
    return True


def on_name(connection, name):
    print('ready', flush=True)


Gio.bus_own_name_on_connection(bus, NAME, Gio.BusNameOwnerFlags.NONE, on_name, None)
GLib.io_add_watch(GLib.IOChannel.unix_new(sys.stdin.fileno()), GLib.PRIORITY_DEFAULT, GLib.IOCondition.IN | GLib.IOCondition.HUP, on_line)
loop.run()
